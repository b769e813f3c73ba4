import type { UnmatchedReadingsResponse } from '@rpm/contracts';
import type pg from 'pg';
import { authorize } from '../../kernel/access.ts';
import { auditedTransaction } from '../../kernel/audited-transaction.ts';
import type { SignedInContext } from '../../plugins/context.ts';
import { mayReviewUnmatchedReadings } from '../../policies/ingestion.ts';
import { presentUnmatched } from '../../presenters/unmatched-reading.ts';
import { audit } from '../audit/audit.service.ts';
import { pageUnmatched } from './unmatched.repository.ts';

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
