import type { UnmatchedReadingsResponse } from '@rpm/contracts';
import type pg from 'pg';
import type { SignedInContext } from '../../plugins/context.ts';
import { mayReviewUnmatchedReadings } from '../../policies/ingestion.ts';
import { audit } from '../audit/audit.service.ts';
import { requireAllowed } from './access.ts';
import { pageUnmatched, presentUnmatched } from './unmatched.repository.ts';

export async function listUnmatched(
  db: pg.Pool,
  ctx: SignedInContext,
  limit: number,
  offset: number,
): Promise<UnmatchedReadingsResponse> {
  await requireAllowed(db, ctx, mayReviewUnmatchedReadings(ctx.actor), 'unmatched.list', 'unmatched_reading');
  const { rows, total } = await pageUnmatched(db, limit, offset);
  await audit(db, ctx, {
    action: 'unmatched.list',
    outcome: 'success',
    resourceType: 'unmatched_reading',
    details: { limit, offset, count: rows.length },
  });
  return { items: rows.map(presentUnmatched), total };
}
