import { BULK_EXPORT_RETENTION_CRON } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import { jobQueueDatabase } from '../../db/job-queue.ts';
import { withTransaction } from '../../db/pool.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { runExport } from './bulk-export.job.ts';
import { BULK_EXPORT_QUEUE, BULK_EXPORT_RETENTION_QUEUE, deleteExpiredExports } from './bulk-export.repository.ts';

export interface BulkExportJobs {
  /** Wakes this instance's export worker now rather than at its next poll (after a kick-off). */
  wake(): void;
  /** Queues one retention run now; several instances asking for the same key queue one. */
  requestRetention(runKey: string): Promise<string | null>;
  stop(): Promise<void>;
}

/** Deletes expired exports and their files, with one audit record naming them. */
export async function purgeExpiredExports(db: pg.Pool, requestId: string): Promise<{ deleted: number }> {
  return withTransaction(db, async (tx) => {
    const gone = await deleteExpiredExports(tx);
    if (gone.length > 0) {
      await audit(
        tx,
        { actor: null, ip: '', userAgent: null, requestId },
        {
          action: 'fhir.export.cancel',
          outcome: 'success',
          resourceType: 'bulk_export',
          reason: 'retention',
          details: { deleted: gone.map((e) => ({ id: e.id, organization_id: e.organization_id, status: e.status })) },
        },
      );
    }
    return { deleted: gone.length };
  });
}

/**
 * The export worker and the retention schedule on the job queue (pg-boss, schema installed by
 * the migrations). An instance runs one export at a time (each is a long read of a program): the
 * others wait in the queue, and any instance may take them.
 */
export async function startBulkExportJobs(deps: {
  pool: pg.Pool;
  log: FastifyBaseLogger;
  pollingIntervalSeconds?: number;
}): Promise<BulkExportJobs> {
  const boss = new PgBoss({ db: jobQueueDatabase(deps.pool), schema: 'pgboss', migrate: false });
  boss.on('error', (err: Error) => deps.log.error({ error: err.message }, 'job queue error'));
  await boss.start();
  let stopping = false;
  const workerId = await boss.work<{ export_id: string }>(
    BULK_EXPORT_QUEUE,
    { pollingIntervalSeconds: deps.pollingIntervalSeconds ?? 2 },
    async ([job]) => {
      if (!job) return;
      const result = await runExport(deps.pool, job.data.export_id, job.id, () => stopping);
      deps.log.info({ exportId: job.data.export_id, result }, 'bulk export done');
    },
  );
  await boss.schedule(BULK_EXPORT_RETENTION_QUEUE, BULK_EXPORT_RETENTION_CRON, {}, { tz: 'UTC' });
  await boss.work(BULK_EXPORT_RETENTION_QUEUE, { pollingIntervalSeconds: 60 }, async ([job]) => {
    const result = await purgeExpiredExports(deps.pool, `job:${job?.id ?? 'unknown'}`);
    deps.log.info({ result }, 'bulk export retention done');
  });
  return {
    wake: () => boss.notifyWorker(workerId),
    requestRetention: (runKey) =>
      boss.send(BULK_EXPORT_RETENTION_QUEUE, {}, { singletonKey: runKey, singletonHours: 1 }),
    stop: async () => {
      // A running export stops at its next page and is retried from the start by another instance.
      stopping = true;
      await boss.stop({ graceful: true, wait: true, timeout: 5_000, close: false });
    },
  };
}
