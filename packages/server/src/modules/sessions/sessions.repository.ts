import { sql, type RawBuilder } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely, template, type Template } from '../../db/kysely.ts';

/** `now() - ms`, on the database clock: every instance agrees on the limits. */
const msAgo = (ms: number): RawBuilder<Date> => sql<Date>`now() - ${ms}::bigint * interval '1 millisecond'`;
const now = (): RawBuilder<Date> => sql<Date>`now()`;

/**
 * NOTIFYed with a user id whenever sessions of that user end, delivered at commit to every
 * instance: their open streams of that user read their session again (alerts.live.ts).
 */
export const SESSION_END_CHANNEL = 'rpm_session_end';

export type EndReason =
  'logout' | 'replaced' | 'disabled' | 'password_reset' | 'password_change' | 'global_sign_out' | 'session_limit';

/** A live session's user, as the access hook turns it into an actor. */
export interface SessionUserRow {
  id: number;
  email: string;
  role: string;
  organization_id: number | null;
  cognito_username: string | null;
}

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
  const expiresAt = sql<Date>`${s.authTime}::timestamptz + ${s.lifetimeMs}::bigint * interval '1 millisecond'`;
  const k = kysely(db);
  const row = await k
    .insertInto('sessions')
    .columns(['id_hash', 'user_id', 'expires_at', 'token_jti', 'sign_in_id', 'ip_address', 'user_agent'])
    .expression(
      k
        .selectNoFrom((eb) => [
          eb.val(s.idHash).as('id_hash'),
          eb.val(s.userId).as('user_id'),
          expiresAt.as('expires_at'),
          eb.val(s.tokenJti).as('token_jti'),
          eb.val(s.signInId).as('sign_in_id'),
          eb.val(s.ip).as('ip_address'),
          eb.val(s.userAgent).as('user_agent'),
        ])
        .where(expiresAt, '>', now()),
    )
    .onConflict((oc) => oc.column('token_jti').doNothing())
    .returning('expires_at')
    .executeTakeFirst();
  return row ? { expiresAt: row.expires_at } : null;
}

/** Whether this access token already opened a session (kept until the row is pruned). */
export async function tokenAlreadyUsed(db: Queryable, tokenJti: string): Promise<boolean> {
  const row = await kysely(db)
    .selectFrom('sessions')
    .select(sql`1`.as('one'))
    .where('token_jti', '=', tokenJti)
    .executeTakeFirst();
  return row !== undefined;
}

/** Serialises session openings of one user, so that the per-user cap cannot be overrun. */
export async function lockUserSessions(db: Queryable, userId: number): Promise<void> {
  // An advisory lock has no query-builder form.
  await sql`SELECT pg_advisory_xact_lock(hashtext('portal-sessions'), ${userId})`.execute(kysely(db));
}

/** Ends the oldest live sessions of a user beyond `keep`; returns how many ended. */
export async function endSessionsBeyond(db: Queryable, userId: number, keep: number, idleMs: number): Promise<number> {
  const k = kysely(db);
  const result = await k
    .updateTable('sessions')
    .set({ revoked_at: now(), end_reason: 'session_limit' })
    .where('id_hash', 'in', (eb) =>
      eb
        .selectFrom('sessions')
        .select('id_hash')
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now())
        .where('last_seen_at', '>', msAgo(idleMs))
        .orderBy('created_at', 'desc')
        .orderBy('id_hash')
        .offset(keep),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
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
): Promise<SessionUserRow | null> {
  // Every API request runs this: compiled once and sent as a named statement, so a request pays
  // neither for building the query nor for PostgreSQL parsing and planning it.
  touchTemplate ??= template('session_touch_v1', ['idHash', 'idleMs', 'touchMs'], (p) => touchQuery(db, p).compile());
  const [row] = await touchTemplate.run(db, { idHash, idleMs, touchMs });
  return row ?? null;
}

interface TouchParams {
  idHash: Buffer;
  idleMs: number;
  touchMs: number;
}

function touchQuery(db: Queryable, p: TouchParams) {
  return kysely(db)
    .with('live', (qb) =>
      qb
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select(['s.id_hash', 's.last_seen_at', 'u.id', 'u.email', 'u.role', 'u.organization_id', 'u.cognito_username'])
        .where('s.id_hash', '=', p.idHash)
        .where('s.revoked_at', 'is', null)
        .where('s.expires_at', '>', now())
        .where('s.last_seen_at', '>', msAgo(p.idleMs))
        // A literal in the statement's text: only the call's own values are its parameters.
        .where('u.status', '=', sql.lit('active')),
    )
    .with('touched', (qb) =>
      qb
        .updateTable('sessions as s')
        .set({ last_seen_at: now() })
        .from('live')
        .whereRef('s.id_hash', '=', 'live.id_hash')
        .where('live.last_seen_at', '<=', msAgo(p.touchMs)),
    )
    .selectFrom('live')
    .select(['id', 'email', 'role', 'organization_id', 'cognito_username']);
}

let touchTemplate: Template<TouchParams, SessionUserRow> | undefined;

/**
 * Ends the session a browser is replacing: only a live one of the same user and the same sign-in
 * (a reload opens a new session from the tab's tokens; the old one must not linger until idle).
 */
export async function revokeReplacedSession(
  db: Queryable,
  idHash: Buffer,
  userId: number,
  signInId: string,
): Promise<void> {
  await kysely(db)
    .updateTable('sessions')
    .set({ revoked_at: now(), end_reason: 'replaced' })
    .where('id_hash', '=', idHash)
    .where('user_id', '=', userId)
    .where('sign_in_id', '=', signInId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends one session; returns its user and sign-in, or null when it was not live. */
export async function revokeSession(
  db: Queryable,
  idHash: Buffer,
): Promise<{ userId: number; signInId: string | null } | null> {
  const row = await kysely(db)
    .updateTable('sessions')
    .set({ revoked_at: now(), end_reason: 'logout' })
    .where('id_hash', '=', idHash)
    .where('revoked_at', 'is', null)
    .returning(['user_id', 'sign_in_id'])
    .executeTakeFirst();
  return row ? { userId: row.user_id, signInId: row.sign_in_id } : null;
}

export async function revokeUserSessions(db: Queryable, userId: number, reason: EndReason): Promise<number> {
  const result = await kysely(db)
    .updateTable('sessions')
    .set({ revoked_at: now(), end_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
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
  const row = await kysely(db)
    .with('u', (qb) =>
      qb
        .selectFrom('users')
        .select('id')
        .where((eb) => eb.or([eb('cognito_sub', '=', identity.sub), eb('cognito_username', '=', identity.username)]))
        .orderBy(
          (eb) => eb('cognito_sub', '=', identity.sub),
          (ob) => ob.desc().nullsLast(),
        )
        .limit(1),
    )
    .with('ended', (qb) => {
      let q = qb
        .updateTable('sessions as s')
        .set({ revoked_at: now(), end_reason: reason })
        .from('u')
        .whereRef('s.user_id', '=', 'u.id')
        .where('s.revoked_at', 'is', null);
      if (keepSignInId !== null) q = q.where('s.sign_in_id', 'is distinct from', keepSignInId);
      return q.returning('s.id_hash');
    })
    .selectFrom('u')
    .select((eb) => ['u.id', eb.selectFrom('ended').select(eb.fn.countAll<number>().as('n')).as('ended')])
    .executeTakeFirst();
  return row ? { userId: row.id, ended: Number(row.ended) } : null;
}

/** Deletes rows a day past their end (revoked, expired or idle). */
export async function pruneSessions(db: Queryable, idleMs: number): Promise<number> {
  const dayAgo = sql<Date>`now() - interval '1 day'`;
  const result = await kysely(db)
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([
        eb('revoked_at', '<', dayAgo),
        eb('expires_at', '<', dayAgo),
        eb('last_seen_at', '<', sql<Date>`now() - interval '1 day' - ${idleMs}::bigint * interval '1 millisecond'`),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Tells every instance, at commit, that sessions of this user ended. */
export async function announceSessionsEnded(db: Queryable, userId: number): Promise<void> {
  await kysely(db)
    .selectNoFrom((eb) => eb.fn('pg_notify', [sql.lit(SESSION_END_CHANNEL), eb.val(String(userId))]).as('notified'))
    .execute();
}

/**
 * A live session's user and the time left before it idles out (or reaches its absolute end), on
 * the database clock, without sliding it: a read for streams, which are not the person's activity.
 */
export async function readSessionWindow(
  db: Queryable,
  idHash: Buffer,
  idleMs: number,
): Promise<{ user_id: number; remaining_ms: number } | null> {
  const deadline = sql<Date>`least(s.expires_at, s.last_seen_at + ${idleMs}::bigint * interval '1 millisecond')`;
  const row = await kysely(db)
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.user_id', sql<number>`(extract(epoch from ${deadline} - now()) * 1000)::integer`.as('remaining_ms')])
    .where('s.id_hash', '=', idHash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now())
    .where('s.last_seen_at', '>', msAgo(idleMs))
    .where('u.status', '=', 'active')
    .executeTakeFirst();
  return row ?? null;
}
