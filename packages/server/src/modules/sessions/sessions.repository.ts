import type { Role } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';
import type { Actor } from '../../plugins/context.ts';

const ms = (name: string) => `(${name}::bigint * interval '1 millisecond')`;

export type EndReason =
  | 'logout'
  | 'replaced'
  | 'disabled'
  | 'password_reset'
  | 'password_change'
  | 'global_sign_out'
  | 'session_limit';

/**
 * Opens a session for one sign-in. The absolute end is the sign-in's time plus the limit, on the
 * database clock; a sign-in already past it opens nothing (null). The access token's id is unique
 * in the table, so the same token never opens a second session (also null).
 */
export async function insertSession(
  db: Queryable,
  s: {
    idHash: Buffer;
    userId: number;
    authTime: Date;
    lifetimeMs: number;
    tokenJti: string;
    signInId: string | null;
    ip: string;
    userAgent: string | null;
  },
): Promise<{ expiresAt: Date } | null> {
  const { rows } = await db.query<{ expires_at: Date }>(
    `INSERT INTO sessions (id_hash, user_id, expires_at, token_jti, sign_in_id, ip_address, user_agent)
     SELECT $1, $2, $3::timestamptz + ${ms('$4')}, $5, $6, $7, $8
      WHERE $3::timestamptz + ${ms('$4')} > now()
     ON CONFLICT (token_jti) DO NOTHING
     RETURNING expires_at`,
    [s.idHash, s.userId, s.authTime, s.lifetimeMs, s.tokenJti, s.signInId, s.ip, s.userAgent],
  );
  return rows[0] ? { expiresAt: rows[0].expires_at } : null;
}

/** Whether this access token already opened a session (kept until the row is pruned). */
export async function tokenAlreadyUsed(db: Queryable, tokenJti: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM sessions WHERE token_jti = $1', [tokenJti]);
  return (rowCount ?? 0) > 0;
}

/** Serialises session openings of one user, so that the per-user cap cannot be overrun. */
export async function lockUserSessions(db: Queryable, userId: number): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtext('portal-sessions'), $1)`, [userId]);
}

/** Ends the oldest live sessions of a user beyond `keep`; returns how many ended. */
export async function endSessionsBeyond(db: Queryable, userId: number, keep: number, idleMs: number): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE sessions SET revoked_at = now(), end_reason = 'session_limit'
      WHERE id_hash IN (
        SELECT id_hash FROM sessions
         WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()
           AND last_seen_at > now() - ${ms('$3')}
         ORDER BY created_at DESC, id_hash
        OFFSET $2)`,
    [userId, keep, idleMs],
  );
  return rowCount ?? 0;
}

/**
 * Finds a live session. Its idle window slides only when the last recorded activity is older than
 * `touchMs`: one write a minute instead of one per request, in the same round trip as the read.
 * The idle and absolute limits use the database clock, so every instance agrees on them.
 */
export async function touchLiveSession(
  db: Queryable,
  idHash: Buffer,
  idleMs: number,
  touchMs: number,
): Promise<Actor | null> {
  const { rows } = await db.query<{
    id: number;
    email: string;
    role: Role;
    organization_id: number | null;
    cognito_username: string | null;
  }>(
    `WITH live AS (
       SELECT s.id_hash, s.last_seen_at, u.id, u.email, u.role, u.organization_id, u.cognito_username
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.id_hash = $1
          AND s.revoked_at IS NULL
          AND s.expires_at > now()
          AND s.last_seen_at > now() - ${ms('$2')}
          AND u.status = 'active'),
     touched AS (
       UPDATE sessions s SET last_seen_at = now()
         FROM live
        WHERE s.id_hash = live.id_hash AND live.last_seen_at <= now() - ${ms('$3')})
     SELECT id, email, role, organization_id, cognito_username FROM live`,
    [idHash, idleMs, touchMs],
  );
  const r = rows[0];
  return r
    ? { id: r.id, email: r.email, role: r.role, organizationId: r.organization_id, cognitoUsername: r.cognito_username }
    : null;
}

/**
 * Ends the session a browser is replacing: only a live one of the same user and the same sign-in
 * (a reload opens a new session from the tab's tokens; the old one must not linger until idle).
 */
export async function revokeReplacedSession(db: Queryable, idHash: Buffer, userId: number, signInId: string): Promise<void> {
  await db.query(
    `UPDATE sessions SET revoked_at = now(), end_reason = 'replaced'
      WHERE id_hash = $1 AND user_id = $2 AND sign_in_id = $3 AND revoked_at IS NULL`,
    [idHash, userId, signInId],
  );
}

/** Ends one session; returns its user and sign-in, or null when it was not live. */
export async function revokeSession(
  db: Queryable,
  idHash: Buffer,
): Promise<{ userId: number; signInId: string | null } | null> {
  const { rows } = await db.query<{ user_id: number; sign_in_id: string | null }>(
    `UPDATE sessions SET revoked_at = now(), end_reason = 'logout'
      WHERE id_hash = $1 AND revoked_at IS NULL RETURNING user_id, sign_in_id`,
    [idHash],
  );
  const r = rows[0];
  return r ? { userId: r.user_id, signInId: r.sign_in_id } : null;
}

export async function revokeUserSessions(db: Queryable, userId: number, reason: EndReason): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE sessions SET revoked_at = now(), end_reason = $2 WHERE user_id = $1 AND revoked_at IS NULL`,
    [userId, reason],
  );
  return rowCount ?? 0;
}

/**
 * Ends every session of the portal user behind a pool identity, except those of the sign-in
 * `keepSignInId` (the one that changed its own password). Returns the portal user's id and the
 * count, or null when no portal user has that identity.
 */
export async function revokeSessionsOfIdentity(
  db: Queryable,
  identity: { sub: string; username: string },
  reason: EndReason,
  keepSignInId: string | null,
): Promise<{ userId: number; ended: number } | null> {
  const { rows } = await db.query<{ id: number; ended: number }>(
    `WITH u AS (
       SELECT id FROM users WHERE cognito_sub = $1 OR cognito_username = $2
        ORDER BY (cognito_sub = $1) DESC NULLS LAST LIMIT 1),
     ended AS (
       UPDATE sessions s SET revoked_at = now(), end_reason = $3
         FROM u
        WHERE s.user_id = u.id AND s.revoked_at IS NULL
          AND ($4::text IS NULL OR s.sign_in_id IS DISTINCT FROM $4::text)
       RETURNING s.id_hash)
     SELECT u.id, (SELECT count(*)::int FROM ended) AS ended FROM u`,
    [identity.sub, identity.username, reason, keepSignInId],
  );
  const r = rows[0];
  return r ? { userId: r.id, ended: r.ended } : null;
}

/** Deletes rows a day past their end (revoked, expired or idle). */
export async function pruneSessions(db: Queryable, idleMs: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM sessions
      WHERE revoked_at < now() - interval '1 day'
         OR expires_at < now() - interval '1 day'
         OR last_seen_at < now() - interval '1 day' - ${ms('$1')}`,
    [idleMs],
  );
  return rowCount ?? 0;
}
