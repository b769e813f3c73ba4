import type { Actor } from './actor.ts';
import { isAdmin, isMemberOf } from './staff.ts';

/** An organization's display units: admins, and the staff of that organization (their pages show them). */
export function mayReadDisplayUnits(actor: Actor, organization: { id: number }): boolean {
  return isAdmin(actor) || isMemberOf(actor, organization.id);
}

/** Changing an organization's display units: admins only. */
export function mayChangeDisplayUnits(actor: Actor): boolean {
  return isAdmin(actor);
}
