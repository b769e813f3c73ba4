import type { AdminUser } from '@rpm/contracts';
import type { DirectoryUser } from '../identity/index.ts';
import type { UserRow } from './users.repository.ts';
import { isoTime } from '../../kernel/time.ts';

/** A staff member for the administration pages, with the user pool's status when known. */
export function presentUser(row: UserRow, poolStatus: string | null): AdminUser {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    first_name: row.first_name,
    last_name: row.last_name,
    organization_id: row.organization_id,
    cognito_status: poolStatus,
    status: row.status,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    password_changed_at: isoTime(row.password_changed_at),
    mfa_enabled: row.mfa_enabled,
  };
}

/**
 * A staff member joined with their pool account. Passwords and MFA live in the pool: its word
 * wins. Cognito's ListUsers does not report TOTP MFA, so there (`poolReportsMfa` false) the
 * portal's flag stands (refreshed from the pool at every token exchange and profile change); the
 * local pool reports it.
 */
export function presentUserWithPool(row: UserRow, poolUser: DirectoryUser | undefined, poolReportsMfa: boolean): AdminUser {
  if (!poolUser) return presentUser(row, null);
  const presented = presentUser(row, poolUser.status);
  return {
    ...presented,
    password_changed_at: poolUser.passwordChangedAt?.toISOString() ?? presented.password_changed_at,
    mfa_enabled: poolReportsMfa ? poolUser.mfaEnabled : presented.mfa_enabled,
  };
}
