import type { Queryable } from '../db/pool.ts';
import type { RequestContext } from './request-context.ts';
import { insertAuditLog, type AuditEntry } from './audit-writer.repository.ts';

export type AuditEvent = Omit<AuditEntry, 'userId' | 'ipAddress' | 'userAgent' | 'requestId'>;

/**
 * Writes one audit record for a request. Pass the transaction client of the change being
 * recorded, so that the change and its record commit (or roll back) together.
 */
export async function audit(db: Queryable, ctx: RequestContext, event: AuditEvent): Promise<void> {
  await insertAuditLog(db, auditEntryOf(ctx, event));
}

/** The record of `event` in this request: who, from where, which request. */
export function auditEntryOf(ctx: RequestContext, event: AuditEvent): AuditEntry {
  return {
    ...event,
    userId: ctx.actor?.id ?? null,
    ipAddress: ctx.ip,
    userAgent: ctx.userAgent,
    requestId: ctx.requestId,
  };
}
