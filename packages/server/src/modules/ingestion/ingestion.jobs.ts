import { UNMATCHED_RETENTION_CRON } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import { jobQueueDatabase } from '../../db/job-queue.ts';
import { purgeExpiredUnmatched } from './unmatched.service.ts';

/** The queue of the unmatched-readings retention (created by migration 0952). */
export const UNMATCHED_RETENTION_QUEUE = 'ingestion-unmatched-retention';

export interface IngestionJobs {
  boss: PgBoss;
  /** Queues one retention run now; several instances asking for the same key queue one. */
  requestRetention(runKey: string): Promise<string | null>;
  stop(): Promise<void>;
}

/**
 * The unmatched-readings retention, scheduled daily by cron on the job queue (pg-boss, schema
 * installed by the migrations): one job per tick whatever the number of instances, one worker
 * takes it.
 */
export async function startIngestionJobs(deps: {
  pool: pg.Pool;
  log: FastifyBaseLogger;
  retentionDays: number;
  /** Tests: poll often so a queued job starts at once. */
  pollingIntervalSeconds?: number;
}): Promise<IngestionJobs> {
  const boss = new PgBoss({
    db: jobQueueDatabase(deps.pool),
    schema: 'pgboss',
    migrate: false,
  });
  boss.on('error', (err: Error) => deps.log.error({ error: err.message }, 'job queue error'));
  await boss.start();
  await boss.schedule(UNMATCHED_RETENTION_QUEUE, UNMATCHED_RETENTION_CRON, {}, { tz: 'UTC' });
  await boss.work(
    UNMATCHED_RETENTION_QUEUE,
    { pollingIntervalSeconds: deps.pollingIntervalSeconds ?? 60 },
    async ([job]) => {
      const result = await purgeExpiredUnmatched(deps.pool, deps.retentionDays, `job:${job?.id ?? 'unknown'}`);
      deps.log.info({ result }, 'unmatched-readings retention done');
    },
  );
  return {
    boss,
    requestRetention: (runKey) => boss.send(UNMATCHED_RETENTION_QUEUE, {}, { singletonKey: runKey, singletonHours: 1 }),
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 5_000, close: false }),
  };
}
