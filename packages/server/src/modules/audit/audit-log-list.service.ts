import { AUDIT_PAGE_SIZE, type AuditLog, type AuditLogsResponse } from '@rpm/contracts';
import type pg from 'pg';
import type { SignedInContext } from '../../plugins/context.ts';
import { audit } from './audit.service.ts';
import { countAuditLogs, estimateAuditLogCount, listAuditLogPage, type AuditLogRow } from './audit.repository.ts';

/**
 * Below this many rows an exact count(*) costs a few milliseconds; above it the planner's
 * estimate is used (a count over ten million rows takes seconds on every page view).
 */
export const EXACT_COUNT_THRESHOLD = 200_000;

const present = (r: AuditLogRow): AuditLog => ({ ...r, timestamp: r.timestamp.toISOString() });

/** GET /api/audit-logs: a newest-first page and the total; reading the log is itself audited. */
export async function listAuditLogs(
  db: pg.Pool,
  ctx: SignedInContext,
  query: { limit?: number; offset?: number },
): Promise<AuditLogsResponse> {
  const limit = query.limit ?? AUDIT_PAGE_SIZE;
  const offset = query.offset ?? 0;
  // Recorded before reading, so the page an admin reads includes their own visit.
  await audit(db, ctx, { action: 'audit.list', outcome: 'success', resourceType: 'audit_log', details: { limit, offset } });

  const [rows, estimate] = await Promise.all([listAuditLogPage(db, limit, offset), estimateAuditLogCount(db)]);
  let total: number;
  let isEstimate = false;
  if (rows.length > 0 && rows.length < limit) {
    total = offset + rows.length; // a short, non-empty page is the last one: the total is known
  } else if (estimate === null || estimate < EXACT_COUNT_THRESHOLD) {
    total = await countAuditLogs(db);
  } else {
    total = Math.max(estimate, offset + rows.length);
    isEstimate = true;
  }
  return { logs: rows.map(present), total, total_is_estimate: isEstimate };
}
