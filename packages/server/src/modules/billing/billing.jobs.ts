import { BILLING_LINES_REFRESH_CRON } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type pg from 'pg';
import { startJobQueue } from '../../db/job-queue.ts';
import { refreshOpenMonths } from './billing-lines.service.ts';

/** The queue of the background refresh of kept billing lines (migration 1060, policy singleton). */
export const BILLING_LINES_REFRESH_QUEUE = 'billing-lines-refresh';

export interface BillingJobs {
  boss: PgBoss;
  stop(): Promise<void>;
}

/**
 * The open months' kept lines refreshed on the job queue (pg-boss) every quarter of an hour: the
 * clock sends one job per tick whatever the number of instances, and the queue's singleton policy
 * runs one at a time. Requests still bring stale lines up to date themselves; this only takes
 * most of that work off them (the first read after a midnight would otherwise compute every line).
 */
export async function startBillingJobs(deps: {
  pool: pg.Pool;
  log: FastifyBaseLogger;
  /** Tests: poll often so a queued job starts at once. */
  pollingIntervalSeconds?: number;
}): Promise<BillingJobs> {
  const boss = await startJobQueue(deps.pool, (err) => deps.log.error({ error: err.message }, 'job queue error'));
  await boss.schedule(BILLING_LINES_REFRESH_QUEUE, BILLING_LINES_REFRESH_CRON, {}, { tz: 'UTC' });
  await boss.work(
    BILLING_LINES_REFRESH_QUEUE,
    { pollingIntervalSeconds: deps.pollingIntervalSeconds ?? 60 },
    async () => {
      const result = await refreshOpenMonths(deps.pool);
      deps.log.info(result, 'billing lines refreshed');
    },
  );
  return { boss, stop: () => boss.stop({ graceful: true, wait: true, timeout: 5_000, close: false }) };
}
