import { sql } from 'kysely';
import { kysely } from '../../db/kysely.ts';
import type { Queryable } from '../../db/pool.ts';

/** identity.challenge_sessions: the sign-in flow's pending challenges, keyed by the session's hash. */

export interface SessionRow {
  username: string | null;
  challenge: string;
  state: Record<string, string>;
  failed_attempts: number;
}

const SESSION_COLUMNS = ['username', 'challenge', 'state', 'failed_attempts'] as const;

export async function insertSession(
  db: Queryable,
  s: { hash: Buffer; username: string | null; challenge: string; state: Record<string, string>; ttlSeconds: number },
): Promise<void> {
  await kysely(db)
    .insertInto('identity.challenge_sessions')
    .values({
      session_hash: s.hash,
      username: s.username,
      challenge: s.challenge,
      state: JSON.stringify(s.state),
      expires_at: sql<Date>`now() + make_interval(secs => ${s.ttlSeconds})`,
    })
    .execute();
}

export async function findSession(db: Queryable, hash: Buffer): Promise<SessionRow | null> {
  const row = await kysely(db)
    .selectFrom('identity.challenge_sessions')
    .select(SESSION_COLUMNS)
    .where('session_hash', '=', hash)
    .where('expires_at', '>', sql<Date>`now()`)
    .$narrowType<{ state: Record<string, string> }>()
    .executeTakeFirst();
  return row ?? null;
}

/** Single use: whoever deletes the row owns the challenge; a replay finds nothing. */
export async function consumeSession(db: Queryable, hash: Buffer): Promise<SessionRow | null> {
  const row = await kysely(db)
    .deleteFrom('identity.challenge_sessions')
    .where('session_hash', '=', hash)
    .returning([...SESSION_COLUMNS, sql<boolean>`expires_at > now()`.as('live')])
    .$narrowType<{ state: Record<string, string> }>()
    .executeTakeFirst();
  if (!row?.live) return null;
  return { username: row.username, challenge: row.challenge, state: row.state, failed_attempts: row.failed_attempts };
}

/** Counts a wrong code against the session; returns the new count. */
export async function countSessionFailure(db: Queryable, hash: Buffer): Promise<number> {
  const row = await kysely(db)
    .updateTable('identity.challenge_sessions')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('session_hash', '=', hash)
    .returning('failed_attempts')
    .executeTakeFirst();
  return row?.failed_attempts ?? Number.MAX_SAFE_INTEGER;
}

export async function deleteSession(db: Queryable, hash: Buffer): Promise<void> {
  await kysely(db).deleteFrom('identity.challenge_sessions').where('session_hash', '=', hash).execute();
}

export async function deleteExpiredSessions(db: Queryable): Promise<void> {
  await kysely(db)
    .deleteFrom('identity.challenge_sessions')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
}
