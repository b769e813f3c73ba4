import { STALE_CHECK_CRON } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import { jobQueueDatabase } from '../../db/job-queue.ts';

/** The queue of the stale-data check (created by migration 0911). */
export const STALE_CHECK_QUEUE = 'alerts-stale-check';

export interface AlertJobs {
  boss: PgBoss;
  /** Queues one stale-data check for `runKey` now; several instances asking for the same key queue one. */
  requestStaleCheck(runKey: string): Promise<string | null>;
  stop(): Promise<void>;
}

/**
 * The job queue (pg-boss) on the app's own pool: its schema is installed by the migrations, so it
 * runs without creating anything. The stale-data check is scheduled by cron; pg-boss's clock
 * sends one job per tick whatever the number of instances, and one worker takes it.
 */
export async function startAlertJobs(deps: {
  pool: pg.Pool;
  log: FastifyBaseLogger;
  runStaleCheck: () => Promise<unknown>;
  /** Tests: poll often so a queued job starts at once. */
  pollingIntervalSeconds?: number;
  /** Tests: a schedule that does not tick while they count runs (the default ticks every few minutes). */
  cron?: string;
}): Promise<AlertJobs> {
  const boss = new PgBoss({
    db: jobQueueDatabase(deps.pool),
    schema: 'pgboss',
    migrate: false,
  });
  boss.on('error', (err: Error) => deps.log.error({ error: err.message }, 'job queue error'));
  await boss.start();
  await boss.schedule(STALE_CHECK_QUEUE, deps.cron ?? STALE_CHECK_CRON, {}, { tz: 'UTC' });
  await boss.work(
    STALE_CHECK_QUEUE,
    { pollingIntervalSeconds: deps.pollingIntervalSeconds ?? 30 },
    async () => {
      const result = await deps.runStaleCheck();
      deps.log.info({ result }, 'stale-data check done');
    },
  );
  return {
    boss,
    requestStaleCheck: (runKey) => boss.send(STALE_CHECK_QUEUE, {}, { singletonKey: runKey, singletonHours: 1 }),
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 5_000, close: false }),
  };
}
