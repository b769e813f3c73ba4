import type { Role } from '@rpm/contracts';

/*
 * The keys under which an actor's role and organization are kept. Private to policies/ (the lint
 * rules refuse an import of this file from anywhere else), so only a policy can read them.
 */
export const ROLE: unique symbol = Symbol('actor.role');
export const ORGANIZATION: unique symbol = Symbol('actor.organization');

export const roleOf = (actor: { readonly [ROLE]: Role }): Role => actor[ROLE];
export const organizationOf = (actor: { readonly [ORGANIZATION]: number | null }): number | null => actor[ORGANIZATION];
