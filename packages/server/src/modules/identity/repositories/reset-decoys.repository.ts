import { sql } from 'kysely';
import { kysely } from '../../../db/kysely.ts';
import type { Queryable } from '../../../db/pool.ts';

/**
 * identity.reset_decoys: a reset "asked for" an address without a usable account, live like a
 * code and never matching, so that both answer alike.
 */

export async function storeResetDecoy(db: Queryable, accountKey: string, ttlSeconds: number): Promise<void> {
  await kysely(db)
    .insertInto('identity.reset_decoys')
    .values({ account_key: accountKey, expires_at: sql<Date>`now() + make_interval(secs => ${ttlSeconds})` })
    .onConflict((oc) =>
      oc.column('account_key').doUpdateSet((eb) => ({
        expires_at: eb.ref('excluded.expires_at'),
        failed_attempts: 0,
        created_at: sql<Date>`now()`,
      })),
    )
    .execute();
}

export async function findResetDecoy(
  db: Queryable,
  accountKey: string,
): Promise<{ failed_attempts: number; live: boolean } | null> {
  const row = await kysely(db)
    .selectFrom('identity.reset_decoys')
    .select(['failed_attempts', sql<boolean>`expires_at > now()`.as('live')])
    .where('account_key', '=', accountKey)
    .executeTakeFirst();
  return row ?? null;
}

export async function countResetDecoyFailure(db: Queryable, accountKey: string): Promise<number> {
  const row = await kysely(db)
    .updateTable('identity.reset_decoys')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('account_key', '=', accountKey)
    .returning('failed_attempts')
    .executeTakeFirst();
  return row?.failed_attempts ?? Number.MAX_SAFE_INTEGER;
}

export async function deleteResetDecoy(db: Queryable, accountKey: string): Promise<void> {
  await kysely(db).deleteFrom('identity.reset_decoys').where('account_key', '=', accountKey).execute();
}

export async function deleteExpiredResetDecoys(db: Queryable): Promise<void> {
  await kysely(db)
    .deleteFrom('identity.reset_decoys')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
}
