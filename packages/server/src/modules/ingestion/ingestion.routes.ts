import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AssignSourceOrganizationBody,
  CreateIngestionSourceBody,
  ErrorBody,
  INGESTION_BODY_LIMIT_BYTES,
  INGEST_RATE_LIMIT_PER_MINUTE,
  IngestResult,
  IngestSourceParam,
  IngestionSource,
  IngestionSourcesResponse,
  IngestionSourceWithSecret,
  PageQuery,
  SourceIdParam,
  UnmatchedReadingsResponse,
  AttachUnmatchedBody,
  AttachUnmatchedResult,
  unmatchedAttachPath,
} from '@rpm/contracts';
import { contextOf, signedInContextOf } from '../../kernel/request-context.ts';
import { sourceRateLimit } from '../../kernel/source-rate-limit.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { ingestTenovi } from './ingest.service.ts';
import { startIngestionJobs } from './ingestion.jobs.ts';
import {
  assignSourceOrganization,
  createSource,
  getSources,
  revokeIngestionSource,
  rotateSource,
} from './ingestion-sources.service.ts';
import { attachUnmatched, listUnmatched } from './unmatched.service.ts';

/** Ingestion sources (admins), the Tenovi webhook (device clouds, by secret) and unmatched readings. */
export const ingestionRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db, config }) => {
  const tags = ['integrations'];
  const jobs = await startIngestionJobs({
    pool: db,
    log: app.log,
    retentionDays: config.ingestion.unmatchedRetentionDays,
  });
  app.addHook('onClose', async () => jobs.stop());
  app.get(
    '/api/integrations',
    { config: { access: 'admin' }, schema: { tags, response: { 200: IngestionSourcesResponse } } },
    async (request) => getSources(db, signedInContextOf(request), config.ingestion),
  );
  app.post(
    '/api/integrations',
    {
      config: { access: 'admin' },
      schema: { tags, body: CreateIngestionSourceBody, response: { 201: IngestionSourceWithSecret } },
    },
    async (request, reply) => reply.status(201).send(await createSource(db, signedInContextOf(request), request.body)),
  );
  app.post(
    '/api/integrations/:id/rotate',
    {
      config: { access: 'admin' },
      schema: { tags, params: SourceIdParam, response: { 200: IngestionSourceWithSecret, 404: ErrorBody } },
    },
    async (request) => rotateSource(db, signedInContextOf(request), request.params.id),
  );
  app.put(
    '/api/integrations/:id/organization',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        params: SourceIdParam,
        body: AssignSourceOrganizationBody,
        response: { 200: IngestionSource, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) =>
      assignSourceOrganization(db, signedInContextOf(request), request.params.id, request.body.organization_id),
  );
  app.delete(
    '/api/integrations/:id',
    {
      config: { access: 'admin' },
      schema: { tags, params: SourceIdParam, response: { 200: IngestionSource, 404: ErrorBody } },
    },
    async (request) => revokeIngestionSource(db, signedInContextOf(request), request.params.id),
  );

  app.get(
    '/api/unmatched-readings',
    {
      config: { access: 'admin' },
      schema: { tags: ['devices'], querystring: PageQuery, response: { 200: UnmatchedReadingsResponse } },
    },
    async (request) =>
      listUnmatched(db, signedInContextOf(request), request.query.limit ?? 50, request.query.offset ?? 0),
  );
  app.post(
    unmatchedAttachPath,
    {
      config: { access: 'admin' },
      schema: {
        tags: ['devices'],
        body: AttachUnmatchedBody,
        response: { 200: AttachUnmatchedResult, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => attachUnmatched(db, signedInContextOf(request), request.body),
  );

  // The body is read as any JSON: the service checks each measurement against its schema
  // (TenoviMeasurement) itself, so that a refusal names the field and rule and is recorded in
  // the source's recent rejections, which a route-level 400 would not be.
  app.post(
    '/api/ingest/tenovi/:sourceId',
    {
      config: {
        access: 'machine',
        // A vendor cloud posts every clinic's cuffs from a few addresses: count per source, with
        // room for a fleet, instead of the per-person ceiling of the browser API.
        rateLimit: sourceRateLimit(
          INGEST_RATE_LIMIT_PER_MINUTE,
          (request) => (request.params as { sourceId?: string }).sourceId ?? null,
        ),
      },
      bodyLimit: INGESTION_BODY_LIMIT_BYTES,
      schema: {
        tags: ['ingestion'],
        params: IngestSourceParam,
        response: { 200: IngestResult, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody },
      },
    },
    async (request) =>
      ingestTenovi(db, contextOf(request), request.params.sourceId, request.headers, request.body, config.ingestion),
  );
};
