import { sql } from 'kysely';
import type pg from 'pg';
import { kysely } from '../../db/kysely.ts';
import { withTransaction, type Queryable } from '../../db/pool.ts';

/*
 * The inspector reads the system catalogs and tables chosen at run time, neither of which the
 * generated table types describe: its statements are written with `sql`, identifiers quoted by
 * `sql.id`, values bound as parameters.
 */

/** One column of an inspectable table, as the catalog describes it. */
export interface CatalogColumn {
  table: string;
  name: string;
  type: string;
  nullable: boolean;
  /** Whether the inspector role holds SELECT on this column. */
  granted: boolean;
}

/** Tables never shown, whatever the grants say: session hashes and migration bookkeeping. */
export const EXCLUDED_TABLES = ['sessions', 'schema_migrations'] as const;

/**
 * Every column of the portal's own tables in schema public, straight from the catalog. This is
 * the allow-list: a requested table name is only ever looked up in it, never put into SQL.
 */
export async function loadCatalog(db: Queryable): Promise<CatalogColumn[]> {
  const { rows } = await sql<CatalogColumn>`
    SELECT c.relname AS table, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
           NOT a.attnotnull AS nullable,
           has_column_privilege('rpm_inspector', c.oid, a.attnum, 'SELECT') AS granted
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
       AND NOT (c.relname = ANY(${[...EXCLUDED_TABLES]}::text[]))
     ORDER BY c.relname, a.attnum`.execute(kysely(db));
  return rows;
}

/** Brings the inspector role's column grants up to date with tables added since migration 0400. */
export async function syncInspectorGrants(db: Queryable): Promise<void> {
  await sql`SELECT rpm_inspector_sync_grants()`.execute(kysely(db));
}

/**
 * Reads sample rows as the inspector role, in a read-only transaction with a short timeout.
 * `table` and `columns` are the catalog's own names (from loadCatalog), quoted here.
 */
export async function readSample(
  pool: pg.Pool,
  table: string,
  columns: string[],
  limit: number,
): Promise<Record<string, unknown>[]> {
  if (columns.length === 0) return [];
  return withTransaction(pool, async (tx) => {
    const k = kysely(tx);
    await sql`SET TRANSACTION READ ONLY`.execute(k);
    await sql`SET LOCAL statement_timeout = '2s'`.execute(k);
    await sql`SET LOCAL ROLE rpm_inspector`.execute(k);
    const list = sql.join(columns.map((c) => sql.id(c)));
    const { rows } = await sql<
      Record<string, unknown>
    >`SELECT ${list} FROM ${sql.id('public', table)} LIMIT ${limit}`.execute(k);
    return rows;
  });
}
