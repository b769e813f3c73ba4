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
 * One page, newest committed first, at any offset in constant time: every committed record has a
 * gapless position in the hash chain (migrations 0500 and 0600), so an offset is a range of that
 * unique index rather than a walk past the skipped rows.
 */
export async function listAuditLogPage(db: Queryable, limit: number, offset: number): Promise<AuditLogRow[]> {
  const { rows } = await db.query<AuditLogRow>(
    `SELECT a.id, a."timestamp", a.user_id, a.ip_address, a.action, a.resource_type, a.resource_id,
            a.details, a.target_user_id, a.outcome, a.reason, a.user_agent, a.request_id
       FROM audit_chain c JOIN audit_logs a ON a.id = c.log_id
      WHERE c.position <= (SELECT coalesce(max(position), 0) FROM audit_chain) - $2
      ORDER BY c.position DESC
      LIMIT $1`,
    [limit, offset],
  );
  return rows;
}

/** The number of committed audit records: the last position, read from the index. */
export async function auditLogTotal(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT coalesce(max(position), 0)::bigint AS n FROM audit_chain');
  return rows[0]!.n;
}
