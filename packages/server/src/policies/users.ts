import type { Actor } from './actor.ts';
import { isAdmin } from './staff.ts';

/** Staff accounts (and the roles they may be given) are administered by admins only. */
export function mayAdministerUsers(actor: Actor): boolean {
  return isAdmin(actor);
}

/** An admin may not disable their own account, so nobody locks themselves out of administration. */
export function mayDisableUser(actor: Actor, user: { id: number }): boolean {
  return mayAdministerUsers(actor) && actor.id !== user.id;
}
