import { sql } from 'kysely';
import { kysely } from '../../../db/kysely.ts';
import type { Queryable } from '../../../db/pool.ts';

/** identity.reset_codes: at most one live password reset code per user, stored as a keyed hash. */

export async function storeResetCode(db: Queryable, username: string, hash: Buffer, ttlSeconds: number): Promise<void> {
  await kysely(db)
    .insertInto('identity.reset_codes')
    .values({ username, code_hash: hash, expires_at: sql<Date>`now() + make_interval(secs => ${ttlSeconds})` })
    .onConflict((oc) =>
      oc.column('username').doUpdateSet((eb) => ({
        code_hash: eb.ref('excluded.code_hash'),
        expires_at: eb.ref('excluded.expires_at'),
        failed_attempts: 0,
        created_at: sql<Date>`now()`,
      })),
    )
    .execute();
}

export async function findResetCode(
  db: Queryable,
  username: string,
): Promise<{ code_hash: Buffer; failed_attempts: number; live: boolean } | null> {
  const row = await kysely(db)
    .selectFrom('identity.reset_codes')
    .select(['code_hash', 'failed_attempts', sql<boolean>`expires_at > now()`.as('live')])
    .where('username', '=', username)
    .executeTakeFirst();
  return row ?? null;
}

export async function countResetCodeFailure(db: Queryable, username: string): Promise<number> {
  const row = await kysely(db)
    .updateTable('identity.reset_codes')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('username', '=', username)
    .returning('failed_attempts')
    .executeTakeFirst();
  return row?.failed_attempts ?? Number.MAX_SAFE_INTEGER;
}

/** Single use: the code is taken only if it is still the same live code. */
export async function consumeResetCode(db: Queryable, username: string, hash: Buffer): Promise<boolean> {
  const result = await kysely(db)
    .deleteFrom('identity.reset_codes')
    .where('username', '=', username)
    .where('code_hash', '=', hash)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return result.numDeletedRows === 1n;
}

export async function deleteResetCode(db: Queryable, username: string): Promise<void> {
  await kysely(db).deleteFrom('identity.reset_codes').where('username', '=', username).execute();
}

export async function deleteExpiredResetCodes(db: Queryable): Promise<void> {
  await kysely(db)
    .deleteFrom('identity.reset_codes')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
}
