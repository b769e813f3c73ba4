import type { Actor } from './actor.ts';
import { isAdmin, isMemberOf, organizationScope } from './staff.ts';

/** Admins see every organization; a provider only their own (the patient form needs it). */
export function organizationListScope(actor: Actor): number | null {
  return organizationScope(actor);
}

/** An organization's details (its providers): admins, or a member of it. */
export function mayReadOrganization(actor: Actor, organization: { id: number }): boolean {
  return isAdmin(actor) || isMemberOf(actor, organization.id);
}

/** Creating organizations and changing their settings: admins only. */
export function mayManageOrganizations(actor: Actor): boolean {
  return isAdmin(actor);
}
