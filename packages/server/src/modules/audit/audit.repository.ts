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
