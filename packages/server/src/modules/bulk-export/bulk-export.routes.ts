import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  BULK_NDJSON_CONTENT_TYPE,
  BulkExportIdParam,
  BulkFileParams,
  BulkGroupIdParam,
  BulkGroupSearchQuery,
  BulkKickoffParameters,
  BulkKickoffQuery,
  FHIR_READ_RATE_LIMIT_PER_MINUTE,
} from '@rpm/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contextOf } from '../../kernel/request-context.ts';
import { sourceRateLimit } from '../../kernel/source-rate-limit.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { sourceNamedBy } from '../fhir/index.ts';
import { startBulkExportJobs } from './bulk-export.jobs.ts';
import { kickoff, readGroup, searchGroups, type BulkAnswer } from './bulk-export.service.ts';
import { cancel, downloadFile, exportStatus } from './bulk-export.status.ts';
import { queryOfParameters } from './bulk-export.parameters.ts';

const FHIR_JSON = 'application/fhir+json; charset=utf-8';

const send = (reply: FastifyReply, answer: BulkAnswer) => {
  for (const [name, value] of Object.entries(answer.headers ?? {})) void reply.header(name, value);
  void reply.status(answer.status);
  if (answer.body === undefined) return reply.send();
  return reply.type(answer.json === 'plain' ? 'application/json; charset=utf-8' : FHIR_JSON).send(answer.body);
};

/** A header's value, one string even when the client sent it several times. */
const header = (request: FastifyRequest, name: string) => {
  const v = request.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

/**
 * FHIR Bulk Data export (Bulk Data Access 2.0), registered inside the FHIR server's prefix so
 * that its errors are OperationOutcomes: the kick-offs, the status URL (poll, cancel), the files,
 * and the groups they name. The export worker and the retention schedule start with the routes.
 */
export const bulkExportRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db, config }) => {
  const base = config.publicUrl;
  const jobs = await startBulkExportJobs({ pool: db, log: app.log });
  app.addHook('onClose', async () => jobs.stop());
  const tags = ['fhir'];
  const reads = {
    access: 'machine' as const,
    rateLimit: sourceRateLimit(FHIR_READ_RATE_LIMIT_PER_MINUTE, (r) => sourceNamedBy(r.headers.authorization)),
  };

  const start = async (
    request: FastifyRequest,
    reply: FastifyReply,
    query: BulkKickoffQuery,
    groupId: string | null,
  ) => {
    const answer = await kickoff(
      db,
      contextOf(request),
      {
        authorization: request.headers.authorization,
        prefer: header(request, 'prefer'),
        accept: header(request, 'accept'),
        query,
        requestUrl: `${base}${request.url}`,
        groupId,
      },
      base,
    );
    jobs.wake();
    return send(reply, answer);
  };

  app.get(
    '/R4/Group/:id/$export',
    { config: reads, schema: { tags, params: BulkGroupIdParam, querystring: BulkKickoffQuery } },
    async (request, reply) => start(request, reply, request.query, request.params.id),
  );
  app.get(
    '/R4/Patient/$export',
    { config: reads, schema: { tags, querystring: BulkKickoffQuery } },
    async (request, reply) => start(request, reply, request.query, null),
  );

  // The same kick-offs with the parameters in a Parameters body (the spec's POST form).
  app.post(
    '/R4/Group/:id/$export',
    { config: reads, schema: { tags, params: BulkGroupIdParam, body: BulkKickoffParameters } },
    async (request, reply) => start(request, reply, queryOfParameters(request.body), request.params.id),
  );
  app.post(
    '/R4/Patient/$export',
    { config: reads, schema: { tags, body: BulkKickoffParameters } },
    async (request, reply) => start(request, reply, queryOfParameters(request.body), null),
  );

  app.get(
    '/R4/bulk-status/:exportId',
    { config: reads, schema: { tags, params: BulkExportIdParam } },
    async (request, reply) =>
      send(
        reply,
        await exportStatus(db, contextOf(request), request.headers.authorization, request.params.exportId, base),
      ),
  );
  app.delete(
    '/R4/bulk-status/:exportId',
    { config: reads, schema: { tags, params: BulkExportIdParam } },
    async (request, reply) =>
      send(reply, await cancel(db, contextOf(request), request.headers.authorization, request.params.exportId)),
  );
  app.get(
    '/R4/bulk-files/:exportId/:fileName',
    { config: reads, schema: { tags, params: BulkFileParams } },
    async (request, reply) => {
      const { exportId, fileName } = request.params;
      const stream = await downloadFile(db, contextOf(request), request.headers.authorization, exportId, fileName);
      return reply.type(BULK_NDJSON_CONTENT_TYPE).send(stream);
    },
  );

  app.get('/R4/Group/:id', { config: reads, schema: { tags, params: BulkGroupIdParam } }, async (request, reply) =>
    send(reply, await readGroup(db, contextOf(request), request.headers.authorization, request.params.id)),
  );
  app.get('/R4/Group', { config: reads, schema: { tags, querystring: BulkGroupSearchQuery } }, async (request, reply) =>
    send(
      reply,
      await searchGroups(
        db,
        contextOf(request),
        request.headers.authorization,
        request.query as Record<string, unknown>,
        header(request, 'prefer'),
        base,
      ),
    ),
  );
};
