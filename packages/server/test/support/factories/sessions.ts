import { sql } from 'kysely';
import type { Queryable } from '../../../src/db/pool.ts';
import { kysely } from '../../../src/db/kysely.ts';
import { momentSql, type Moment } from './common.ts';

/**
 * Portal sign-in sessions in the states time or another actor would leave them in, for tests of
 * what the portal does then. Each changes the row only, behind the portal's back: no notification
 * reaches a running server, so only its own checks can see the change.
 */

/** Whose live sessions: one user's (by id or e-mail) or everyone's. */
export type SessionsOf = { userId: number } | { email: string } | 'everyone';

function liveSessions(db: Queryable, of: SessionsOf) {
  const live = kysely(db).updateTable('sessions').where('revoked_at', 'is', null);
  if (of === 'everyone') return live;
  if ('userId' in of) return live.where('user_id', '=', of.userId);
  return live.where('user_id', '=', (eb) => eb.selectFrom('users').select('id').where('email', '=', of.email));
}

/** Live sessions last used `idle` ago (an SQL interval, e.g. '16 minutes'), as if left alone since. */
export async function idleSessions(db: Queryable, of: SessionsOf, idle: string): Promise<void> {
  await liveSessions(db, of)
    .set({ last_seen_at: sql`now() - ${idle}::interval` })
    .execute();
}

/** Live sessions past their absolute lifetime, however recently used. */
export async function expireSessions(db: Queryable, of: SessionsOf): Promise<void> {
  await liveSessions(db, of)
    .set({ expires_at: sql`now() - interval '1 second'` })
    .execute();
}

/** Live sessions ended now, with `endReason` when given (as a sign-out elsewhere records it). */
export async function endSessions(db: Queryable, of: SessionsOf, endReason?: string): Promise<void> {
  await liveSessions(db, of)
    .set({ revoked_at: sql`now()`, ...(endReason === undefined ? {} : { end_reason: endReason }) })
    .execute();
}

/** One session (by its id hash, hex) ended, expired or last used at the moments given, for pruning. */
export async function backdateSession(
  db: Queryable,
  idHashHex: string,
  at: { revokedAt?: Moment; expiresAt?: Moment; lastSeenAt?: Moment },
): Promise<void> {
  await kysely(db)
    .updateTable('sessions')
    .set({
      ...(at.revokedAt === undefined ? {} : { revoked_at: momentSql(at.revokedAt) }),
      ...(at.expiresAt === undefined ? {} : { expires_at: momentSql(at.expiresAt) }),
      ...(at.lastSeenAt === undefined ? {} : { last_seen_at: momentSql(at.lastSeenAt) }),
    })
    .where('id_hash', '=', Buffer.from(idHashHex, 'hex'))
    .execute();
}
