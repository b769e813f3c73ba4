import type { Actor } from './actor.ts';
import { isAdmin, isMemberOf, organizationScope } from './staff.ts';

/**
 * The rule "admins see every organization's patients; a provider only their own organization's"
 * lives here and nowhere else. A provider without an organization sees no patient.
 */
export function mayAccessPatient(actor: Actor, patient: { organization_id: number }): boolean {
  return isAdmin(actor) || isMemberOf(actor, patient.organization_id);
}

/**
 * The same rule for lists: the organization a list of patients is limited to, `null` for all.
 * A provider without an organization is limited to an id no organization has.
 */
export function patientListScope(actor: Actor): number | null {
  return organizationScope(actor);
}

/** Where a patient may be created or moved to: any organization for admins, a provider's own. */
export function mayPlacePatientIn(actor: Actor, organizationId: number): boolean {
  return mayAccessPatient(actor, { organization_id: organizationId });
}
