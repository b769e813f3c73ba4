import { PARTITION_MAINTENANCE_CRON } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import { jobQueueDatabase } from '../../db/job-queue.ts';
import { runPartitionMaintenance } from './partitions.service.ts';

/** The queue of the partition maintenance (created by migration 1000, policy singleton). */
export const PARTITION_MAINTENANCE_QUEUE = 'partitions-maintenance';

export interface PartitionJobs {
  boss: PgBoss;
  /** Queues one maintenance run now; several instances asking for the same key queue one. */
  requestMaintenance(runKey: string): Promise<string | null>;
  stop(): Promise<void>;
}

/** The run key of a start: instances starting within the same hour share it, so they queue one run. */
export const startRunKey = (now = new Date()) => `start:${now.toISOString().slice(0, 13)}`;

/**
 * The partition maintenance on the job queue (pg-boss): daily by cron (pg-boss's clock sends one
 * job per tick whatever the number of instances) and once at start (one job per hour's key, so
 * instances starting together queue one). The queue's singleton policy lets one worker run at a
 * time, and the database functions take an advisory lock besides, so two runs never overlap.
 */
export async function startPartitionJobs(deps: {
  pool: pg.Pool;
  log: FastifyBaseLogger;
  auditRetentionMonths: number | undefined;
  /** Tests: poll often so a queued job starts at once. */
  pollingIntervalSeconds?: number;
  /** Tests: no run at start (they queue their own). */
  runAtStart?: boolean;
}): Promise<PartitionJobs> {
  const boss = new PgBoss({
    db: jobQueueDatabase(deps.pool),
    schema: 'pgboss',
    migrate: false,
  });
  boss.on('error', (err: Error) => deps.log.error({ error: err.message }, 'job queue error'));
  await boss.start();
  await boss.schedule(PARTITION_MAINTENANCE_QUEUE, PARTITION_MAINTENANCE_CRON, {}, { tz: 'UTC' });
  const requestMaintenance = (runKey: string) =>
    boss.send(PARTITION_MAINTENANCE_QUEUE, {}, { singletonKey: runKey, singletonHours: 1 });
  // Queued before the worker starts, so that its first fetch takes it instead of the next poll.
  if (deps.runAtStart ?? true) await requestMaintenance(startRunKey());
  await boss.work(
    PARTITION_MAINTENANCE_QUEUE,
    { pollingIntervalSeconds: deps.pollingIntervalSeconds ?? 60 },
    async ([job]) => {
      const result = await runPartitionMaintenance(
        deps.pool,
        { auditRetentionMonths: deps.auditRetentionMonths },
        `job:${job?.id ?? 'unknown'}`,
      );
      deps.log.info({ result }, 'partition maintenance done');
    },
  );
  return {
    boss,
    requestMaintenance,
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 5_000, close: false }),
  };
}
