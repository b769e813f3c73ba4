import {
  AdminErrors,
  DB_SAMPLE_MAX_ROWS,
  type DbSampleResponse,
  type DbSchemaResponse,
  type AuditAction,
} from '@rpm/contracts';
import type pg from 'pg';
import { authorize } from '../../kernel/access.ts';
import { AuditedRefusal, auditedTransaction } from '../../kernel/audited-transaction.ts';
import type { Queryable } from '../../db/pool.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { mayInspectDatabase } from '../../policies/db-inspector.ts';
import { presentSample, presentTableSchema, type InspectableTable } from './db-inspector.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { loadCatalog, readSample, syncInspectorGrants } from './db-inspector.repository.ts';

/**
 * Column names that look like secrets; kept in step with migration 0400. Never shown. All
 * `cognito_*` columns count: with the local pool (and often with Cognito) the username IS the
 * token subject, so showing one would show the other.
 */
export const SECRET_COLUMN_PATTERN = /(hash|token|secret|salt|otp|password|cognito_)/i;

const synced = new WeakSet<pg.Pool>();

/**
 * The allow-list, computed from the catalog on each call (cheap, and always current). A column
 * is shown only when its name does not look secret AND the inspector role may read it.
 */
async function allowList(pool: pg.Pool, db: Queryable): Promise<Map<string, InspectableTable>> {
  if (!synced.has(pool)) {
    // Once per process: tables added after migration 0400 get their grants. Failing here (a
    // login role that does not own the tables) only means those tables show no columns.
    await syncInspectorGrants(pool).catch(() => {});
    synced.add(pool);
  }
  const tables = new Map<string, InspectableTable>();
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

/**
 * The access call every inspector method starts with, then the table looked up in the
 * allow-list. Runs in the caller's audited transaction: a refusal or an unknown table is recorded
 * once that transaction is undone.
 */
async function requireTable(
  pool: pg.Pool,
  tx: Queryable,
  ctx: SignedInContext,
  requested: string,
  action: AuditAction,
): Promise<InspectableTable> {
  authorize(mayInspectDatabase(ctx.actor), { action, resourceType: 'table', reason: 'admin role required' });
  const table = (await allowList(pool, tx)).get(requested);
  if (!table) {
    throw new AuditedRefusal(404, AdminErrors.unknownTable, {
      action,
      outcome: 'failure',
      resourceType: 'table',
      reason: 'unknown table',
      details: { requested: requested.slice(0, 100) },
    });
  }
  return table;
}

export async function listTables(db: pg.Pool, ctx: SignedInContext): Promise<string[]> {
  return auditedTransaction(db, ctx, async (tx) => {
    authorize(mayInspectDatabase(ctx.actor), {
      action: 'db.tables',
      resourceType: 'table',
      reason: 'admin role required',
    });
    const tables = [...(await allowList(db, tx)).keys()];
    await audit(tx, ctx, {
      action: 'db.tables',
      outcome: 'success',
      resourceType: 'table',
      details: { count: tables.length },
    });
    return tables;
  });
}

export async function describeTable(db: pg.Pool, ctx: SignedInContext, requested: string): Promise<DbSchemaResponse> {
  return auditedTransaction(db, ctx, async (tx) => {
    const t = await requireTable(db, tx, ctx, requested, 'db.schema');
    await audit(tx, ctx, { action: 'db.schema', outcome: 'success', resourceType: 'table', resourceId: t.name });
    return presentTableSchema(t);
  });
}

export async function sampleTable(db: pg.Pool, ctx: SignedInContext, requested: string): Promise<DbSampleResponse> {
  const t = await auditedTransaction(db, ctx, (tx) => requireTable(db, tx, ctx, requested, 'db.sample'));
  let rows: Record<string, unknown>[];
  try {
    rows = await readSample(
      db,
      t.name,
      t.visible.map((c) => c.name),
      DB_SAMPLE_MAX_ROWS,
    );
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
  return presentSample(t, rows);
}
