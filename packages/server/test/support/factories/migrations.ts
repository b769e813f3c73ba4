import { sql } from 'kysely';
import type { Queryable } from '../../../src/db/pool.ts';
import { kysely } from '../../../src/db/kysely.ts';

/*
 * The migration bookkeeping (schema_migrations), for tests of what start-up and the health check
 * make of a database whose record differs from the code's migrations. Owner only.
 */

/** Forgets that the latest migration was applied (its schema stays); answers its name. */
export async function forgetLatestMigration(db: Queryable): Promise<string> {
  // Not in the typed schema (db/types.ts): the bookkeeping table is the migrator's, not the portal's.
  const { rows } = await sql<{ name: string }>`
    DELETE FROM schema_migrations WHERE name = (SELECT max(name) FROM schema_migrations) RETURNING name`.execute(
    kysely(db),
  );
  return rows[0]!.name;
}

/** Records a migration as applied (one forgotten before, or one from a newer release). */
export async function recordMigration(db: Queryable, name: string): Promise<void> {
  await sql`INSERT INTO schema_migrations (name) VALUES (${name})`.execute(kysely(db));
}
