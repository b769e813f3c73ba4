import { roleOf } from './actor-fields.ts';
import type { Actor } from './actor.ts';
import { isAdmin, isMemberOf } from './staff.ts';

/**
 * Outreach to a patient (a call, a message, a replacement device) is recorded and read by the
 * providers of the patient's organization and by admins: it is part of the patient's record.
 */
export function mayWorkOutreach(actor: Actor, patient: { organization_id: number }): boolean {
  return isAdmin(actor) || (roleOf(actor) === 'provider' && isMemberOf(actor, patient.organization_id));
}
