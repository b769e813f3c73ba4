import type { Queryable } from '../../../src/db/pool.ts';
import { kysely } from '../../../src/db/kysely.ts';
import { momentSql, type Moment } from './common.ts';

/**
 * Audit records as the portal's audit calls leave them (queued for the sealer), `count` at once,
 * for tests of reading the trail; `of(n)` (n from 1) says what the n-th one is.
 */
export async function buildAuditRecords(
  db: Queryable,
  count: number,
  of: (n: number) => { action: string; outcome?: string; details?: Record<string, unknown>; at?: Moment },
): Promise<void> {
  const records = Array.from({ length: count }, (_, i) => of(i + 1));
  await kysely(db)
    .insertInto('audit_logs')
    .values(
      records.map((r) => ({
        action: r.action,
        outcome: r.outcome ?? 'success',
        details: r.details === undefined ? null : JSON.stringify(r.details),
        ...(r.at === undefined ? {} : { timestamp: momentSql(r.at) }),
      })),
    )
    .execute();
}
