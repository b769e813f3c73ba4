/** The billing module's public face: its routes, its jobs and the closed-month questions other modules ask. */
import type { FastifyPluginAsync } from 'fastify';
import type { ModuleDeps } from '../module-deps.ts';
import { startBillingJobs } from './billing.jobs.ts';

export { billingRoutes } from './billing.routes.ts';
export { isBillingMonthClosed, readingsInClosedMonths } from './billing.service.ts';
export { getPatientBilling } from './billing.service.ts';

/** The background refresh of the open months' kept lines. No routes. */
export const billingJobsPlugin: FastifyPluginAsync<ModuleDeps> = async (app, { db }) => {
  const jobs = await startBillingJobs({ pool: db, log: app.log });
  app.addHook('onClose', async () => jobs.stop());
};
