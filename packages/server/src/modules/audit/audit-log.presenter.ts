import type { AuditLog } from '@rpm/contracts';
import type { AuditLogRow } from './audit.repository.ts';

/** One audit record as GET /api/audit-logs answers it. */
export const presentAuditLog = (r: AuditLogRow): AuditLog => ({
  ...r,
  timestamp: r.timestamp.toISOString(),
  // Records are only ever written with an object or nothing (audit.repository.ts).
  details: (r.details as AuditLog['details']) ?? null,
});
