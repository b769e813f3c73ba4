import { Type, type Static } from 'typebox';

export const ROLES = ['admin', 'provider'] as const;
// Spelled out: a mapped array loses the literal types and Static<typeof Role> becomes never.
export const Role = Type.Union([Type.Literal(ROLES[0]), Type.Literal(ROLES[1])]);
export type Role = (typeof ROLES)[number];
export const DEFAULT_ROLE: Role = 'provider';

export const RolesResponse = Type.Object({ roles: Type.Array(Type.String()) });
export type RolesResponse = Static<typeof RolesResponse>;
