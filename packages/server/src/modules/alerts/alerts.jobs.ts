import { ESCALATION_CHECK_CRON, STALE_CHECK_CRON } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import { jobQueueDatabase } from '../../db/job-queue.ts';
import { REEVALUATE_QUEUE, type ReevaluationRequest } from './alerts.reevaluation.repository.ts';
import { runReevaluation, type Reevaluate } from './alerts.reevaluation.ts';

/** The queue of the stale-data check (created by migration 0911). */
export const STALE_CHECK_QUEUE = 'alerts-stale-check';
/** The queue of the escalation check (created by migration 0971). */
export const ESCALATION_CHECK_QUEUE = 'alerts-escalation-check';
export { REEVALUATE_QUEUE };

export interface AlertJobs {
  boss: PgBoss;
  /** Queues one stale-data check for `runKey` now; several instances asking for the same key queue one. */
  requestStaleCheck(runKey: string): Promise<string | null>;
  /** Queues one escalation check for `runKey` now (likewise). */
  requestEscalationCheck(runKey: string): Promise<string | null>;
  stop(): Promise<void>;
}

/**
 * The job queue (pg-boss) on the app's own pool: its schema is installed by the migrations, so it
 * runs without creating anything. The stale-data and escalation checks are scheduled by cron;
 * pg-boss's clock sends one job per tick whatever the number of instances, and one worker takes
 * it. Re-evaluations are queued by the changes that need them (thresholds, settings, programs).
 */
export async function startAlertJobs(deps: {
  pool: pg.Pool;
  log: FastifyBaseLogger;
  runStaleCheck: () => Promise<unknown>;
  runEscalationCheck: (requestId: string) => Promise<unknown>;
  /** The engine's re-evaluation of patients (reevaluatePatients), injected by the composition. */
  reevaluate: Reevaluate;
  /** Tests: poll often so a queued job starts at once. */
  pollingIntervalSeconds?: number;
  /** Tests: a schedule that does not tick while they count runs (the default ticks every few minutes). */
  cron?: string;
  /** Tests: likewise for the escalation check (the default ticks every minute). */
  escalationCron?: string;
}): Promise<AlertJobs> {
  const boss = new PgBoss({
    db: jobQueueDatabase(deps.pool),
    schema: 'pgboss',
    migrate: false,
  });
  boss.on('error', (err: Error) => deps.log.error({ error: err.message }, 'job queue error'));
  await boss.start();
  const polling = { pollingIntervalSeconds: deps.pollingIntervalSeconds ?? 30 };
  await boss.schedule(STALE_CHECK_QUEUE, deps.cron ?? STALE_CHECK_CRON, {}, { tz: 'UTC' });
  await boss.work(STALE_CHECK_QUEUE, polling, async () => {
    const result = await deps.runStaleCheck();
    deps.log.info({ result }, 'stale-data check done');
  });
  await boss.schedule(ESCALATION_CHECK_QUEUE, deps.escalationCron ?? ESCALATION_CHECK_CRON, {}, { tz: 'UTC' });
  // Every minute's check should start within the minute: poll more often than the stale check.
  const escalationPolling = { pollingIntervalSeconds: Math.min(deps.pollingIntervalSeconds ?? 10, 10) };
  await boss.work(ESCALATION_CHECK_QUEUE, escalationPolling, async ([job]) => {
    const result = await deps.runEscalationCheck(`job:${job?.id ?? 'unknown'}`);
    deps.log.info({ result }, 'escalation check done');
  });
  await boss.work<ReevaluationRequest>(REEVALUATE_QUEUE, polling, async ([job]) => {
    if (!job) return;
    const result = await runReevaluation(deps.pool, job.data, deps.reevaluate, `job:${job.id}`);
    deps.log.info({ result, cause: job.data.cause }, 'alert re-evaluation done');
  });
  return {
    boss,
    requestStaleCheck: (runKey) => boss.send(STALE_CHECK_QUEUE, {}, { singletonKey: runKey, singletonHours: 1 }),
    requestEscalationCheck: (runKey) =>
      boss.send(ESCALATION_CHECK_QUEUE, {}, { singletonKey: runKey, singletonHours: 1 }),
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 5_000, close: false }),
  };
}
