import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

/** Whether the database answers at all: throws when it does not. */
export async function pingDatabase(db: Queryable): Promise<void> {
  await sql`SELECT 1`.execute(kysely(db));
}
