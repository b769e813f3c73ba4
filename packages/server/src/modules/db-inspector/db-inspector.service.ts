import { AdminErrors, DB_SAMPLE_MAX_ROWS, type DbSampleResponse, type DbSchemaResponse } from '@rpm/contracts';
import type pg from 'pg';
import { notFound } from '../../plugins/errors.ts';
import type { SignedInContext } from '../../plugins/context.ts';
import { audit } from '../audit/audit.service.ts';
import { loadCatalog, readSample, syncInspectorGrants, type CatalogColumn } from './db-inspector.repository.ts';

/**
 * Column names that look like secrets; kept in step with migration 0400. Never shown. All
 * `cognito_*` columns count: with the local pool (and often with Cognito) the username IS the
 * token subject, so showing one would show the other.
 */
export const SECRET_COLUMN_PATTERN = /(hash|token|secret|salt|otp|password|cognito_)/i;

interface TableInfo {
  name: string;
  visible: CatalogColumn[];
  withheld: string[];
}

const synced = new WeakSet<pg.Pool>();

/**
 * The allow-list, computed from the catalog on each call (cheap, and always current). A column
 * is shown only when its name does not look secret AND the inspector role may read it.
 */
async function allowList(db: pg.Pool): Promise<Map<string, TableInfo>> {
  if (!synced.has(db)) {
    // Once per process: tables added after migration 0400 get their grants. Failing here (a
    // login role that does not own the tables) only means those tables show no columns.
    await syncInspectorGrants(db).catch(() => {});
    synced.add(db);
  }
  const tables = new Map<string, TableInfo>();
  for (const col of await loadCatalog(db)) {
    let t = tables.get(col.table);
    if (!t) {
      t = { name: col.table, visible: [], withheld: [] };
      tables.set(col.table, t);
    }
    if (col.granted && !SECRET_COLUMN_PATTERN.test(col.name)) t.visible.push(col);
    else t.withheld.push(col.name);
  }
  return tables;
}

async function requireTable(db: pg.Pool, ctx: SignedInContext, requested: string, action: string): Promise<TableInfo> {
  const table = (await allowList(db)).get(requested);
  if (!table) {
    await audit(db, ctx, {
      action,
      outcome: 'failure',
      resourceType: 'table',
      reason: 'unknown table',
      details: { requested: requested.slice(0, 100) },
    });
    throw notFound(AdminErrors.unknownTable);
  }
  return table;
}

export async function listTables(db: pg.Pool, ctx: SignedInContext): Promise<string[]> {
  const tables = [...(await allowList(db)).keys()];
  await audit(db, ctx, { action: 'db.tables', outcome: 'success', resourceType: 'table', details: { count: tables.length } });
  return tables;
}

export async function describeTable(db: pg.Pool, ctx: SignedInContext, requested: string): Promise<DbSchemaResponse> {
  const t = await requireTable(db, ctx, requested, 'db.schema');
  await audit(db, ctx, { action: 'db.schema', outcome: 'success', resourceType: 'table', resourceId: t.name });
  return {
    table: t.name,
    columns: t.visible.map((c) => ({ name: c.name, type: c.type, nullable: c.nullable })),
    withheld: t.withheld,
  };
}

/** JSON-safe cell values: binary as hex text, everything else as the driver gives it. */
const toJsonValue = (v: unknown): unknown => (Buffer.isBuffer(v) ? `\\x${v.toString('hex')}` : v);

export async function sampleTable(db: pg.Pool, ctx: SignedInContext, requested: string): Promise<DbSampleResponse> {
  const t = await requireTable(db, ctx, requested, 'db.sample');
  const columns = t.visible.map((c) => c.name);
  let rows: Record<string, unknown>[];
  try {
    rows = await readSample(db, t.name, columns, DB_SAMPLE_MAX_ROWS);
  } catch (err) {
    await audit(db, ctx, {
      action: 'db.sample',
      outcome: 'failure',
      resourceType: 'table',
      resourceId: t.name,
      reason: `read failed: ${(err as { code?: string }).code ?? 'error'}`,
    });
    throw err;
  }
  await audit(db, ctx, {
    action: 'db.sample',
    outcome: 'success',
    resourceType: 'table',
    resourceId: t.name,
    details: { rows: rows.length },
  });
  return {
    table: t.name,
    columns,
    rows: rows.map((r) => Object.fromEntries(columns.map((c) => [c, toJsonValue(r[c])]))),
    withheld: t.withheld,
    limit: DB_SAMPLE_MAX_ROWS,
  };
}
