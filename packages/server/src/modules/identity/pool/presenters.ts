import type { UserRow } from '../repositories/users.repository.ts';

/** Pool users in Cognito's shapes (AdminGetUser, ListUsers, AdminCreateUser, GetUser). */

export function epoch(date: Date): number {
  return date.getTime() / 1000;
}

export function attributesOf(user: UserRow, forAdmin: boolean) {
  const list = [
    { Name: 'sub', Value: user.username },
    { Name: 'email_verified', Value: String(user.email_verified) },
    { Name: 'email', Value: user.email },
  ];
  // Not a Cognito attribute: the local pool tells the portal when the password last changed.
  if (forAdmin && user.password_changed_at) {
    list.push({ Name: 'custom:password_changed_at', Value: user.password_changed_at.toISOString() });
  }
  // Nor this: Cognito's ListUsers does not report TOTP MFA; the local pool tells the portal.
  if (forAdmin) list.push({ Name: 'custom:mfa_enabled', Value: String(hasTotpMfa(user)) });
  return list;
}

/** MFA is on only with a verified secret: a preference alone asks for nothing. */
export function hasTotpMfa(user: UserRow): boolean {
  return Boolean(user.mfa_enabled && user.totp_secret);
}

export function mfaSettingsOf(user: UserRow) {
  if (!hasTotpMfa(user)) return {};
  return {
    UserMFASettingList: ['SOFTWARE_TOKEN_MFA'],
    ...(user.mfa_preferred ? { PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA' } : {}),
  };
}

/** Cognito's UserType (ListUsers, AdminCreateUser). */
export function userTypeOf(user: UserRow, forAdmin: boolean) {
  return {
    Username: user.username,
    Attributes: attributesOf(user, forAdmin),
    UserCreateDate: epoch(user.created_at),
    UserLastModifiedDate: epoch(user.updated_at),
    Enabled: user.enabled,
    UserStatus: user.status,
  };
}
