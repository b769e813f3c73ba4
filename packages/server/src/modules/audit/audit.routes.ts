import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AuditLogsQuery, AuditLogsResponse } from '@rpm/contracts';
import { signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { listAuditLogs } from './audit-log-list.service.ts';

/** The audit log, for admins, paged by the server (limit 1..100, any offset). */
export const auditRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db }) => {
  app.get(
    '/api/audit-logs',
    {
      config: { access: 'admin' },
      schema: { tags: ['audit'], querystring: AuditLogsQuery, response: { 200: AuditLogsResponse } },
    },
    async (request) => listAuditLogs(db, signedInContextOf(request), request.query),
  );
};
