import type { AuditOutcome } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';

export interface AuditEntry {
  action: string;
  outcome: AuditOutcome;
  resourceType?: string | null;
  resourceId?: string | number | null;
  details?: Record<string, unknown> | null;
  targetUserId?: number | null;
  reason?: string | null;
  userId?: number | null;
  ipAddress?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
}

export async function insertAuditLog(db: Queryable, e: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO audit_logs (user_id, ip_address, action, resource_type, resource_id, details,
       target_user_id, outcome, reason, user_agent, request_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      e.userId ?? null,
      e.ipAddress ?? null,
      e.action,
      e.resourceType ?? null,
      e.resourceId === undefined || e.resourceId === null ? null : String(e.resourceId),
      e.details ? JSON.stringify(e.details) : null,
      e.targetUserId ?? null,
      e.outcome,
      e.reason ?? null,
      e.userAgent ?? null,
      e.requestId ?? null,
    ],
  );
}

/** One audit record as GET /api/audit-logs answers it (every field of the spec, plus id). */
export interface AuditLogRow {
  id: number;
  timestamp: Date;
  user_id: number | null;
  ip_address: string | null;
  action: string;
  resource_type: string | null;
  resource_id: string | null;
  details: Record<string, unknown> | null;
  target_user_id: number | null;
  outcome: string;
  reason: string | null;
  user_agent: string | null;
  request_id: string | null;
}

/**
 * One page, newest first. The inner query walks only the ("timestamp" DESC, id DESC) index
 * (an index-only scan on an append-only, vacuumed table), so skipping a deep offset never reads
 * the skipped rows themselves; the outer query then fetches the full rows of this page only.
 */
export async function listAuditLogPage(db: Queryable, limit: number, offset: number): Promise<AuditLogRow[]> {
  const { rows } = await db.query<AuditLogRow>(
    `SELECT a.id, a."timestamp", a.user_id, a.ip_address, a.action, a.resource_type, a.resource_id,
            a.details, a.target_user_id, a.outcome, a.reason, a.user_agent, a.request_id
       FROM (SELECT "timestamp", id FROM audit_logs
              ORDER BY "timestamp" DESC, id DESC
              LIMIT $1 OFFSET $2) page
       JOIN audit_logs a ON a.id = page.id
      ORDER BY page."timestamp" DESC, page.id DESC`,
    [limit, offset],
  );
  return rows;
}

/**
 * The planner's row estimate, scaled to the table's current size the way the planner itself
 * does it (reltuples per page times pages now), so it follows growth between ANALYZE runs.
 * Null when the table was never analysed.
 */
export async function estimateAuditLogCount(db: Queryable): Promise<number | null> {
  const { rows } = await db.query<{ estimate: number | null }>(
    `SELECT CASE WHEN c.reltuples < 0 OR c.relpages = 0 THEN NULL
                 ELSE (c.reltuples / c.relpages
                       * (pg_relation_size(c.oid) / current_setting('block_size')::int))::bigint
            END AS estimate
       FROM pg_class c WHERE c.oid = 'public.audit_logs'::regclass`,
  );
  return rows[0]?.estimate ?? null;
}

export async function countAuditLogs(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::bigint AS n FROM audit_logs');
  return rows[0]!.n;
}
