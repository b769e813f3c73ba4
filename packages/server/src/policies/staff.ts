import { organizationOf, roleOf } from './actor-fields.ts';
import type { Actor } from './actor.ts';

/**
 * The two facts every policy is built from: whether the actor is an admin, and which organization
 * they belong to. Policies combine them; nothing outside `policies/` compares roles or
 * organizations.
 */
export function isAdmin(actor: Actor): boolean {
  return roleOf(actor) === 'admin';
}

/** A staff member without an organization belongs to none. */
export function isMemberOf(actor: Actor, organizationId: number): boolean {
  const own = organizationOf(actor);
  return own !== null && own === organizationId;
}

/**
 * The organization a list is limited to: `null` for every organization (admins), the actor's own
 * otherwise, and an id no organization has for a provider without one (so the list is empty).
 */
export function organizationScope(actor: Actor): number | null {
  if (isAdmin(actor)) return null;
  return organizationOf(actor) ?? -1;
}
