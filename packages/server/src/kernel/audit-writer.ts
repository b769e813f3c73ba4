import type { AuditAction } from '@rpm/contracts';
import type { Queryable } from '../db/pool.ts';
import type { RequestContext } from './request-context.ts';
import { insertAuditLog, type AuditEntry } from './audit-writer.repository.ts';

/**
 * What a request records: its action is one of the portal's AuditActions, so a misspelt action
 * does not compile. (The repository's AuditEntry takes any stored action string.)
 */
export type AuditEvent = Omit<AuditEntry, 'userId' | 'ipAddress' | 'userAgent' | 'requestId' | 'action'> & {
  action: AuditAction;
};

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
