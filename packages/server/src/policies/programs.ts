import type { Actor } from './actor.ts';
import { isAdmin } from './staff.ts';

/** The list of care programs: any signed-in staff member (the patient form offers them). */
export function mayListPrograms(_actor: Actor): boolean {
  return true;
}

/** Adding a program to the portal's list: admins only. */
export function mayManagePrograms(actor: Actor): boolean {
  return isAdmin(actor);
}
