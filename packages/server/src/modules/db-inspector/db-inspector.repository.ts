import pg from 'pg';
import type { Queryable } from '../../db/pool.ts';

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
  const { rows } = await db.query<CatalogColumn>(
    `SELECT c.relname AS table, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
            NOT a.attnotnull AS nullable,
            has_column_privilege('rpm_inspector', c.oid, a.attnum, 'SELECT') AS granted
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
        AND NOT (c.relname = ANY($1::text[]))
      ORDER BY c.relname, a.attnum`,
    [EXCLUDED_TABLES],
  );
  return rows;
}

/** Brings the inspector role's column grants up to date with tables added since migration 0400. */
export async function syncInspectorGrants(db: Queryable): Promise<void> {
  await db.query('SELECT rpm_inspector_sync_grants()');
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
  const client = await pool.connect();
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SET LOCAL statement_timeout = '2s'`);
    await client.query('SET LOCAL ROLE rpm_inspector');
    const list = columns.map((c) => pg.escapeIdentifier(c)).join(', ');
    const { rows } = await client.query<Record<string, unknown>>(
      `SELECT ${list} FROM public.${pg.escapeIdentifier(table)} LIMIT $1`,
      [limit],
    );
    await client.query('COMMIT');
    return rows;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
