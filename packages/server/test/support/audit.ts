import { kysely } from '../../src/db/kysely.ts';
import type { Queryable } from '../../src/db/pool.ts';
import type { Actor } from '../../src/policies/actor.ts';
import type { SignedInContext } from '../../src/kernel/request-context.ts';
import { contextOf } from './factories.ts';

/**
 * Reading the audit trail in tests: what a service call or an HTTP request left behind. One
 * module for service tests, HTTP tests and the access matrix alike.
 */

/** A test database, or a running test server (whose database it reads). */
type Source = Queryable | { db: { pool: Queryable } };
const poolOf = (s: Source): Queryable =>
  'db' in s && typeof s.db === 'object' && 'pool' in s.db ? s.db.pool : (s as Queryable);

export interface AuditRecord {
  action: string;
  outcome: string;
  resource_type: string | null;
  resource_id: string | null;
  user_id: number | null;
  target_user_id: number | null;
  reason: string | null;
  details: Record<string, unknown>;
}

const auditColumns = [
  'action',
  'outcome',
  'resource_type',
  'resource_id',
  'user_id',
  'target_user_id',
  'reason',
  'details',
] as const;

/** The newest audit record of `action` (about `resourceId` when given); fails when there is none. */
export async function lastAuditOf(
  source: Source,
  action: string,
  resourceId: string | null = null,
): Promise<AuditRecord> {
  let q = kysely(poolOf(source)).selectFrom('audit_logs').select(auditColumns).where('action', '=', action);
  if (resourceId !== null) q = q.where('resource_id', '=', resourceId);
  const row = await q.orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (!row) throw new Error(`no audit record of ${action}${resourceId === null ? '' : ` about ${resourceId}`}`);
  return row as AuditRecord;
}

type AuditColumn = (typeof auditColumns)[number];

/**
 * The audit records of an action and/or involving a user (as the one acting or the one acted on),
 * oldest first, with only the columns asked for (so that tests may compare whole records).
 */
export async function auditRecordsOf<C extends AuditColumn>(
  source: Source,
  filter: { action?: string; involving?: number },
  columns: readonly C[],
): Promise<Pick<AuditRecord, C>[]> {
  let q = kysely(poolOf(source)).selectFrom('audit_logs').select(columns);
  if (filter.action !== undefined) q = q.where('action', '=', filter.action);
  const involving = filter.involving;
  if (involving !== undefined)
    q = q.where((eb) => eb.or([eb('user_id', '=', involving), eb('target_user_id', '=', involving)]));
  // Kysely's row type for a generic column list is opaque; the columns are the record's own.
  return (await q.orderBy('id').execute()) as unknown as Pick<AuditRecord, C>[];
}

/** The audit records one request left, oldest first. */
export async function auditsOf(db: Queryable, ctx: Pick<SignedInContext, 'requestId'>) {
  return kysely(db)
    .selectFrom('audit_logs')
    .select(['action', 'outcome', 'resource_type', 'resource_id', 'reason', 'details', 'target_user_id'])
    .where('request_id', '=', ctx.requestId)
    .orderBy('id')
    .execute();
}

/**
 * Calls a service as `actor` expecting a refusal: its status and message, and the audit records
 * the request left. `status` is undefined when the call did not fail.
 */
export async function refusalOf(db: Queryable, actor: Actor, call: (ctx: SignedInContext) => Promise<unknown>) {
  const ctx = contextOf(actor);
  const error = await call(ctx).then(
    () => null,
    (err: unknown) => err as { statusCode?: number; message?: string },
  );
  return { status: error?.statusCode, message: error?.message, audits: await auditsOf(db, ctx) };
}
