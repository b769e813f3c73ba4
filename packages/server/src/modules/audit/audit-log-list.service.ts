import { AUDIT_PAGE_SIZE, type AuditLogsResponse } from '@rpm/contracts';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { authorize } from '../../kernel/access.ts';
import { auditedTransaction } from '../../kernel/audited-transaction.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { mayReadAuditLog } from '../../policies/audit.ts';
import { presentAuditLog } from './audit-log.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { auditLogTotal, beginSnapshotRead, listAuditLogPage } from './audit.repository.ts';

/**
 * GET /api/audit-logs: a newest-first page and the exact total, both in constant time whatever
 * the size of the log (positions in the hash chain). Reading the log is itself audited.
 */
export async function listAuditLogs(
  db: pg.Pool,
  ctx: SignedInContext,
  query: { limit?: number; offset?: number; snapshot?: number },
): Promise<AuditLogsResponse> {
  const limit = query.limit ?? AUDIT_PAGE_SIZE;
  const offset = query.offset ?? 0;
  // Recorded (and committed, so chained) before reading: the page an admin reads includes their own visit.
  await auditedTransaction(db, ctx, async (tx) => {
    authorize(mayReadAuditLog(ctx.actor), {
      action: 'audit.list',
      resourceType: 'audit_log',
      reason: 'admin role required',
    });
    await audit(tx, ctx, {
      action: 'audit.list',
      outcome: 'success',
      resourceType: 'audit_log',
      details: { limit, offset, ...(query.snapshot !== undefined ? { snapshot: query.snapshot } : {}) },
    });
  });
  // One snapshot for the page and the total, so that they agree with each other.
  return withTransaction(db, async (tx) => {
    await beginSnapshotRead(tx);
    const now = await auditLogTotal(tx);
    // A snapshot from the future (or from another database) cannot show more than there is.
    const snapshot = query.snapshot === undefined ? now : Math.min(query.snapshot, now);
    // New records only ever go on top of the list (a record keeps its place when sealed), so
    // the log as it stood at `snapshot` records is the list below the ones written since.
    const rows = await listAuditLogPage(tx, limit, offset + (now - snapshot));
    return { logs: rows.map(presentAuditLog), total: snapshot, snapshot };
  });
}
