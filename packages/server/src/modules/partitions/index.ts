/**
 * Monthly partitions of observations and audit records (migration 1000): the maintenance job that
 * creates month tables ahead and applies the retention settings. No routes.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleDeps } from '../module-deps.ts';
import { startPartitionJobs } from './partitions.jobs.ts';

export const partitionsPlugin: FastifyPluginAsync<ModuleDeps> = async (app, { db, config }) => {
  const jobs = await startPartitionJobs({
    pool: db,
    log: app.log,
    auditRetentionMonths: config.partitions.auditRetentionMonths,
  });
  app.addHook('onClose', async () => jobs.stop());
};
