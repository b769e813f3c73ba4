import type { Actor } from '../plugins/context.ts';

/**
 * The two facts every policy is built from: whether the actor is an admin, and which organization
 * they belong to. Policies combine them; nothing outside `policies/` compares roles or
 * organizations.
 */
export function isAdmin(actor: Actor): boolean {
  return actor.role === 'admin';
}

/** A staff member without an organization belongs to none. */
export function isMemberOf(actor: Actor, organizationId: number): boolean {
  return actor.organizationId !== null && actor.organizationId === organizationId;
}

/**
 * The organization a list is limited to: `null` for every organization (admins), the actor's own
 * otherwise, and an id no organization has for a provider without one (so the list is empty).
 */
export function organizationScope(actor: Actor): number | null {
  if (isAdmin(actor)) return null;
  return actor.organizationId ?? -1;
}
