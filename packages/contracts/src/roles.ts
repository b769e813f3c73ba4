import { Type, type Static } from 'typebox';

export const ROLES = ['admin', 'provider'] as const;
export const Role = Type.Union(ROLES.map((r) => Type.Literal(r)));
export type Role = (typeof ROLES)[number];
export const DEFAULT_ROLE: Role = 'provider';

export const RolesResponse = Type.Object({ roles: Type.Array(Type.String()) });
export type RolesResponse = Static<typeof RolesResponse>;
