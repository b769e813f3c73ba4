import type { CurrentUser, Role, UserStatus } from '@rpm/contracts';
import type { CurrentUserRow } from './me.repository.ts';

/** The signed-in user as /api/me, /api/me/mfa and /api/token answer them. */
export const presentCurrentUser = (row: CurrentUserRow): CurrentUser => ({
  id: row.id,
  email: row.email,
  // The table's CHECK constraints hold these to the contract's values.
  role: row.role as Role,
  first_name: row.first_name,
  last_name: row.last_name,
  organization_id: row.organization_id,
  status: row.status as UserStatus,
  mfa_enabled: row.mfa_enabled,
});
