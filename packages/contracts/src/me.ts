import { Type, type Static } from 'typebox';
import { Role } from './roles.ts';

export const UserStatus = Type.Union([Type.Literal('active'), Type.Literal('disabled')]);
export type UserStatus = Static<typeof UserStatus>;

/** The signed-in user as GET /api/me answers it. */
export const CurrentUser = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: Role,
  first_name: Type.Union([Type.String(), Type.Null()]),
  last_name: Type.Union([Type.String(), Type.Null()]),
  organization_id: Type.Union([Type.Integer(), Type.Null()]),
  status: UserStatus,
  mfa_enabled: Type.Boolean(),
});
export type CurrentUser = Static<typeof CurrentUser>;

export const MeResponse = Type.Object({ user: CurrentUser });
export type MeResponse = Static<typeof MeResponse>;

export const TokenBody = Type.Object(
  { token: Type.String({ minLength: 20, maxLength: 8192 }) },
  { additionalProperties: false },
);
export type TokenBody = Static<typeof TokenBody>;

/**
 * POST /api/logout?page_closed=1 is the page-close beacon: it ends the portal session but keeps
 * the tab's sign-in, because a reload opens a new session from it. A plain logout revokes both.
 */
export const LogoutQuery = Type.Object(
  { page_closed: Type.Optional(Type.Literal('1')) },
  { additionalProperties: false },
);
export type LogoutQuery = Static<typeof LogoutQuery>;
export const LOGOUT_BEACON_PATH = '/api/logout?page_closed=1';

export const MfaBody = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });
export type MfaBody = Static<typeof MfaBody>;
