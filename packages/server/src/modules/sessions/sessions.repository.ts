import type { Role } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';
import type { Actor } from '../../plugins/context.ts';

export async function insertSession(
  db: Queryable,
  s: { idHash: Buffer; userId: number; lifetimeMs: number; ip: string; userAgent: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO sessions (id_hash, user_id, expires_at, ip_address, user_agent)
     VALUES ($1, $2, now() + ($3::bigint * interval '1 millisecond'), $4, $5)`,
    [s.idHash, s.userId, s.lifetimeMs, s.ip, s.userAgent],
  );
}

/**
 * Finds a live session and slides its idle window in the same statement. The idle and absolute
 * limits use the database clock, so every instance of the portal agrees on them.
 */
export async function touchLiveSession(db: Queryable, idHash: Buffer, idleMs: number): Promise<Actor | null> {
  const { rows } = await db.query<{
    id: number;
    email: string;
    role: Role;
    organization_id: number | null;
    cognito_username: string | null;
  }>(
    `UPDATE sessions s SET last_seen_at = now()
       FROM users u
      WHERE s.id_hash = $1 AND u.id = s.user_id
        AND s.revoked_at IS NULL
        AND s.expires_at > now()
        AND s.last_seen_at > now() - ($2::bigint * interval '1 millisecond')
        AND u.status = 'active'
     RETURNING u.id, u.email, u.role, u.organization_id, u.cognito_username`,
    [idHash, idleMs],
  );
  const r = rows[0];
  return r
    ? { id: r.id, email: r.email, role: r.role, organizationId: r.organization_id, cognitoUsername: r.cognito_username }
    : null;
}

export async function revokeSession(db: Queryable, idHash: Buffer): Promise<number | null> {
  const { rows } = await db.query<{ user_id: number }>(
    `UPDATE sessions SET revoked_at = now() WHERE id_hash = $1 AND revoked_at IS NULL RETURNING user_id`,
    [idHash],
  );
  return rows[0]?.user_id ?? null;
}

export async function revokeUserSessions(db: Queryable, userId: number): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`,
    [userId],
  );
  return rowCount ?? 0;
}
