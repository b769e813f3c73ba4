import { sql } from 'kysely';
import type { Queryable } from '../../../src/db/pool.ts';
import { kysely } from '../../../src/db/kysely.ts';

/** A SMART client's access tokens past their expiry (set by the owner: tokens are written by the token route only). */
export async function expireSmartTokens(db: Queryable, clientId: string): Promise<void> {
  await kysely(db)
    .updateTable('smart_access_tokens')
    .set({ expires_at: sql`now() - interval '1 second'` })
    .where('client_id', '=', clientId)
    .execute();
}

/** Every EHR launch waiting to be resolved past its expiry. */
export async function expireEhrLaunches(db: Queryable): Promise<void> {
  await kysely(db)
    .updateTable('ehr_launch_states')
    .set({ expires_at: sql`now() - interval '1 second'` })
    .execute();
}
