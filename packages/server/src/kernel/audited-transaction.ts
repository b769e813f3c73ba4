import type pg from 'pg';
import { withTransaction } from '../db/pool.ts';
import type { SignedInContext } from './request-context.ts';
import { HttpError } from './errors.ts';
import { audit, type AuditEvent } from './audit-writer.ts';

/**
 * A refusal that must leave an audit record even though its transaction rolls back: the record
 * is written after the rollback, so nothing of the refused change survives but the fact of it.
 */
export class AuditedRefusal extends HttpError {
  constructor(
    statusCode: number,
    message: string,
    public readonly event: AuditEvent,
  ) {
    super(statusCode, message);
  }
}

/**
 * A request refused for what it asks rather than who asks (a missing name, a duplicate, an
 * unknown id): recorded like a policy refusal, but with outcome `failure`. A policy refusal is
 * thrown by `authorize` (access.ts).
 */
export function failure(statusCode: number, message: string, event: Omit<AuditEvent, 'outcome'>): AuditedRefusal {
  return new AuditedRefusal(statusCode, message, { ...event, outcome: 'failure' });
}

/**
 * Runs `fn`, recording an AuditedRefusal it throws. For work that cannot be one transaction
 * (a call to the user pool between database steps); otherwise use auditedTransaction.
 */
export async function recordingRefusals<T>(db: pg.Pool, ctx: SignedInContext, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AuditedRefusal) await audit(db, ctx, err.event);
    throw err;
  }
}

/** Runs `fn` in one transaction; an AuditedRefusal is recorded once the transaction is undone. */
export async function auditedTransaction<T>(
  db: pg.Pool,
  ctx: SignedInContext,
  fn: (tx: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return recordingRefusals(db, ctx, () => withTransaction(db, fn));
}
