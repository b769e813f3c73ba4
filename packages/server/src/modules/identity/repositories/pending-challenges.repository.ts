import { sql } from 'kysely';
import { kysely } from '../../../db/kysely.ts';
import type { Queryable } from '../../../db/pool.ts';

/**
 * identity.pending_challenges: the sign-in flow's pending challenges, keyed by the hash of the token
 * the protocol carries in its `Session` field (not a sign-in session: that is made once they are met).
 */

export interface ChallengeRow {
  username: string | null;
  challenge: string;
  state: Record<string, string>;
  failed_attempts: number;
}

const CHALLENGE_COLUMNS = ['username', 'challenge', 'state', 'failed_attempts'] as const;

export async function insertChallenge(
  db: Queryable,
  s: { hash: Buffer; username: string | null; challenge: string; state: Record<string, string>; ttlSeconds: number },
): Promise<void> {
  await kysely(db)
    .insertInto('identity.pending_challenges')
    .values({
      token_hash: s.hash,
      username: s.username,
      challenge: s.challenge,
      state: JSON.stringify(s.state),
      expires_at: sql<Date>`now() + make_interval(secs => ${s.ttlSeconds})`,
    })
    .execute();
}

export async function findChallenge(db: Queryable, hash: Buffer): Promise<ChallengeRow | null> {
  const row = await kysely(db)
    .selectFrom('identity.pending_challenges')
    .select(CHALLENGE_COLUMNS)
    .where('token_hash', '=', hash)
    .where('expires_at', '>', sql<Date>`now()`)
    .$narrowType<{ state: Record<string, string> }>()
    .executeTakeFirst();
  return row ?? null;
}

/** Single use: whoever deletes the row owns the challenge; a replay finds nothing. */
export async function consumeChallenge(db: Queryable, hash: Buffer): Promise<ChallengeRow | null> {
  const row = await kysely(db)
    .deleteFrom('identity.pending_challenges')
    .where('token_hash', '=', hash)
    .returning([...CHALLENGE_COLUMNS, sql<boolean>`expires_at > now()`.as('live')])
    .$narrowType<{ state: Record<string, string> }>()
    .executeTakeFirst();
  if (!row?.live) return null;
  return { username: row.username, challenge: row.challenge, state: row.state, failed_attempts: row.failed_attempts };
}

/** Counts a wrong code against the challenge; returns the new count. */
export async function countChallengeFailure(db: Queryable, hash: Buffer): Promise<number> {
  const row = await kysely(db)
    .updateTable('identity.pending_challenges')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('token_hash', '=', hash)
    .returning('failed_attempts')
    .executeTakeFirst();
  return row?.failed_attempts ?? Number.MAX_SAFE_INTEGER;
}

export async function deleteChallenge(db: Queryable, hash: Buffer): Promise<void> {
  await kysely(db).deleteFrom('identity.pending_challenges').where('token_hash', '=', hash).execute();
}

export async function deleteExpiredChallenges(db: Queryable): Promise<void> {
  await kysely(db)
    .deleteFrom('identity.pending_challenges')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
}
