import type { UnmatchedReadingsResponse } from '@rpm/contracts';
import type pg from 'pg';
import { authorize } from '../../kernel/access.ts';
import { auditedTransaction } from '../../kernel/audited-transaction.ts';
import { withTransaction } from '../../db/pool.ts';
import type { RequestContext, SignedInContext } from '../../plugins/context.ts';
import { mayReviewUnmatchedReadings } from '../../policies/ingestion.ts';
import { presentUnmatched } from '../../presenters/unmatched-reading.ts';
import { audit } from '../audit/audit.service.ts';
import { deleteUnmatchedBefore, pageUnmatched } from './unmatched.repository.ts';

export async function listUnmatched(
  db: pg.Pool,
  ctx: SignedInContext,
  limit: number,
  offset: number,
): Promise<UnmatchedReadingsResponse> {
  return auditedTransaction(db, ctx, async (tx) => {
    authorize(mayReviewUnmatchedReadings(ctx.actor), {
      action: 'unmatched.list',
      resourceType: 'unmatched_reading',
      reason: 'admin role required',
    });
    const { rows, total } = await pageUnmatched(tx, limit, offset);
    await audit(tx, ctx, {
      action: 'unmatched.list',
      outcome: 'success',
      resourceType: 'unmatched_reading',
      details: { limit, offset, count: rows.length },
    });
    return { items: rows.map(presentUnmatched), total };
  });
}

/** The retention job acts for nobody: its audit records say so (no user, no address). */
export const systemContext = (requestId: string): RequestContext => ({
  actor: null,
  ip: 'system',
  userAgent: 'unmatched-retention job',
  requestId,
});

const RETENTION_BATCH = 5_000;

/**
 * Deletes unmatched readings received more than `retentionDays` ago, a batch per transaction so
 * that a large backlog never holds one long lock; each batch is audited as a system action in its
 * own transaction, with the count per source (never the readings).
 */
export async function purgeExpiredUnmatched(
  db: pg.Pool,
  retentionDays: number,
  requestId: string,
  now = Date.now(),
): Promise<{ deleted: number }> {
  const before = new Date(now - retentionDays * 86_400_000);
  const ctx = systemContext(requestId);
  let deleted = 0;
  for (;;) {
    const n = await withTransaction(db, async (tx) => {
      const lost = await deleteUnmatchedBefore(tx, before, RETENTION_BATCH);
      const count = [...lost.values()].reduce((a, b) => a + b, 0);
      if (count > 0) {
        await audit(tx, ctx, {
          action: 'unmatched.retention',
          outcome: 'success',
          resourceType: 'unmatched_reading',
          details: {
            deleted: count,
            retention_days: retentionDays,
            received_before: before.toISOString(),
            by_source: Object.fromEntries([...lost].map(([source, k]) => [source ?? 'none', k])),
          },
        });
      }
      return count;
    });
    deleted += n;
    if (n < RETENTION_BATCH) return { deleted };
  }
}
