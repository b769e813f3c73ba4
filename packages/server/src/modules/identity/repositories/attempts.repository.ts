import { sql } from 'kysely';
import { kysely } from '../../../db/kysely.ts';
import type { Queryable } from '../../../db/pool.ts';

/** identity.attempts: one row per counted call or failure, by bucket (see pool/throttle.ts). */

const inWindow = (windowSeconds: number) => sql<Date>`now() - make_interval(secs => ${windowSeconds})`;

export async function recordAttempt(db: Queryable, bucket: string): Promise<void> {
  await kysely(db).insertInto('identity.attempts').values({ bucket }).execute();
}

export async function countAttempts(db: Queryable, bucket: string, windowSeconds: number): Promise<number> {
  const row = await kysely(db)
    .selectFrom('identity.attempts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('bucket', '=', bucket)
    .where('at', '>', inWindow(windowSeconds))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Failures in the window, and how long ago (ms, by the database clock) the latest one was. */
export async function failureState(
  db: Queryable,
  bucket: string,
  windowSeconds: number,
): Promise<{ count: number; sinceLastMs: number }> {
  const row = await kysely(db)
    .selectFrom('identity.attempts')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      sql<number | null>`(extract(epoch FROM now() - max(at)) * 1000)::float8`.as('since_ms'),
    ])
    .where('bucket', '=', bucket)
    .where('at', '>', inWindow(windowSeconds))
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), sinceLastMs: row?.since_ms ?? Number.POSITIVE_INFINITY };
}

export async function clearAttempts(db: Queryable, bucket: string): Promise<void> {
  await kysely(db).deleteFrom('identity.attempts').where('bucket', '=', bucket).execute();
}

/** Nothing older than a day is ever counted. */
export async function deleteOldAttempts(db: Queryable): Promise<void> {
  await kysely(db)
    .deleteFrom('identity.attempts')
    .where('at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}
