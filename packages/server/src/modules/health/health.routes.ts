import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Health } from '@rpm/contracts';
import { pendingMigrations } from '../../db/migrate.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { pingDatabase } from './health.repository.ts';

/** Health for load balancers and orchestrators: open to everyone, never touching patient data. */
export const healthRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db }) => {
  app.get(
    '/api/health',
    { config: { access: 'public' }, schema: { tags: ['system'], response: { 200: Health } } },
    async () => {
      await pingDatabase(db);
      return { status: 'ok' as const, database: 'ok' as const };
    },
  );

  // Liveness: the process answers. Readiness: the database answers and has every migration.
  app.get('/api/health/live', { config: { access: 'public' }, schema: { tags: ['system'] } }, async () => ({
    status: 'ok' as const,
  }));
  app.get(
    '/api/health/ready',
    { config: { access: 'public' }, schema: { tags: ['system'] } },
    async (_request, reply) => {
      try {
        const pending = await pendingMigrations(db);
        if (pending.length) return reply.status(503).send({ status: 'starting', pendingMigrations: pending.length });
        return { status: 'ok' as const, database: 'ok' as const };
      } catch {
        return reply.status(503).send({ status: 'unavailable', database: 'unreachable' });
      }
    },
  );
};
