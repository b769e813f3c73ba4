import type { CurrentUser } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';

const CURRENT_USER_COLUMNS = `id, email, role, first_name, last_name, organization_id, status, mfa_enabled`;

export async function findCurrentUser(db: Queryable, id: number): Promise<CurrentUser | null> {
  const { rows } = await db.query<CurrentUser>(`SELECT ${CURRENT_USER_COLUMNS} FROM users WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** The portal user behind a pool identity: by subject first, then by the pool's username. */
export async function findUserByIdentity(
  db: Queryable,
  sub: string,
  username: string,
): Promise<(CurrentUser & { cognito_sub: string | null }) | null> {
  const { rows } = await db.query<CurrentUser & { cognito_sub: string | null }>(
    `SELECT ${CURRENT_USER_COLUMNS}, cognito_sub FROM users
      WHERE cognito_sub = $1 OR cognito_username = $2
      ORDER BY (cognito_sub = $1) DESC NULLS LAST LIMIT 1`,
    [sub, username],
  );
  return rows[0] ?? null;
}

export async function linkSubject(db: Queryable, id: number, sub: string): Promise<void> {
  await db.query(`UPDATE users SET cognito_sub = $2 WHERE id = $1 AND cognito_sub IS NULL`, [id, sub]);
}

export async function setMfaEnabled(db: Queryable, id: number, enabled: boolean): Promise<CurrentUser | null> {
  const { rows } = await db.query<CurrentUser>(
    `UPDATE users SET mfa_enabled = $2, updated_at = now() WHERE id = $1 RETURNING ${CURRENT_USER_COLUMNS}`,
    [id, enabled],
  );
  return rows[0] ?? null;
}

/** Brings the portal's MFA flag in step with the pool; writes only when it differs. */
export async function syncMfaEnabled(db: Queryable, id: number, enabled: boolean): Promise<void> {
  await db.query(`UPDATE users SET mfa_enabled = $2, updated_at = now() WHERE id = $1 AND mfa_enabled <> $2`, [id, enabled]);
}
