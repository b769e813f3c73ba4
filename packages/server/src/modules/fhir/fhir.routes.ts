import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiErrors,
  FHIR_BUNDLE_MAX_ENTRIES,
  FHIR_READ_RATE_LIMIT_PER_MINUTE,
  FHIR_TOTAL_MODES,
  FHIR_WRITE_RATE_LIMIT_PER_MINUTE,
  IdParam,
  INGESTION_BODY_LIMIT_BYTES,
  IngestionErrors,
} from '@rpm/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { contextOf } from '../../kernel/request-context.ts';
import { HttpError } from '../../kernel/errors.ts';
import { sourceRateLimit } from '../../kernel/source-rate-limit.ts';
import { operationOutcome, type IssueCode } from './fhir.presenter.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { smartFhirRoutes } from '../smart/index.ts';
import { FhirError, sourceNamedBy, type FhirAnswer } from './fhir.auth.ts';
import {
  metadata,
  readObservation,
  readPatient,
  searchDevices,
  searchObservations,
  searchPatients,
} from './fhir.read.service.ts';
import { PatientDateParams, type SearchRequest } from './fhir-search.ts';
import { createObservation, processBundle } from './fhir.write.service.ts';
import {
  DiagnosticReportIdParam,
  DiagnosticReportSearch,
  readDiagnosticReport,
  searchDiagnosticReports,
} from './fhir-diagnostic-report.ts';

const FHIR_JSON = 'application/fhir+json; charset=utf-8';

const TotalMode = Type.Union(FHIR_TOTAL_MODES.map((m) => Type.Literal(m)));
const Cursor = Type.String({ maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' });
const ObservationSearch = Type.Object({
  ...PatientDateParams,
  code: Type.Optional(
    Type.Union([Type.String({ maxLength: 500 }), Type.Array(Type.String({ maxLength: 500 }), { maxItems: 5 })]),
  ),
  category: Type.Optional(
    Type.Union([Type.String({ maxLength: 200 }), Type.Array(Type.String({ maxLength: 200 }), { maxItems: 5 })]),
  ),
  _count: Type.Optional(Type.Integer({ minimum: 1, maximum: FHIR_BUNDLE_MAX_ENTRIES })),
  // Links carry a cursor now; an offset from an older link still reads its page.
  _offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  _sort: Type.Optional(Type.String({ maxLength: 100 })),
  _total: Type.Optional(TotalMode),
  _include: Type.Optional(
    Type.Union([Type.String({ maxLength: 100 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 5 })]),
  ),
  _cursor: Type.Optional(Cursor),
});
const NameValues = Type.Union([
  Type.String({ maxLength: 200 }),
  Type.Array(Type.String({ maxLength: 200 }), { maxItems: 5 }),
]);
const PatientSearch = Type.Object({
  _id: Type.Optional(
    Type.Union([Type.String({ maxLength: 1000 }), Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 5 })]),
  ),
  identifier: Type.Optional(
    Type.Union([Type.String({ maxLength: 600 }), Type.Array(Type.String({ maxLength: 600 }), { maxItems: 5 })]),
  ),
  name: Type.Optional(NameValues),
  'name:contains': Type.Optional(NameValues),
  'name:exact': Type.Optional(NameValues),
  _count: Type.Optional(Type.Integer({ minimum: 1, maximum: FHIR_BUNDLE_MAX_ENTRIES })),
  _total: Type.Optional(TotalMode),
  _cursor: Type.Optional(Cursor),
});
const DeviceSearch = Type.Object({ identifier: Type.Optional(Type.String({ maxLength: 200 })) });

/** What a search reads besides its typed parameters: their names as sent, and how to treat unknown ones. */
const searchRequest = (request: FastifyRequest): SearchRequest => ({
  rawQuery: request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '',
  prefer: [request.headers.prefer ?? []].flat().join(','),
});

/**
 * Sends a FHIR answer. One resource with a version (a read, a create) goes with its ETag
 * (`W/"versionId"`) and Last-Modified, as R4's RESTful API asks (http.html, 3.1.0.4 and 3.1.0.5).
 */
const send = (reply: FastifyReply, answer: FhirAnswer) => {
  if (answer.location) void reply.header('location', answer.location);
  const meta = answer.body.resourceType !== 'Bundle' ? answer.body.meta : undefined;
  if (answer.status < 300 && meta?.versionId && meta.lastUpdated) {
    void reply.header('etag', `W/"${meta.versionId}"`);
    void reply.header('last-modified', new Date(meta.lastUpdated).toUTCString());
  }
  return reply.status(answer.status).type(FHIR_JSON).send(answer.body);
};

const ISSUE_BY_STATUS: Record<number, IssueCode> = {
  400: 'invalid',
  401: 'login',
  403: 'security',
  404: 'not-found',
  405: 'not-supported',
  413: 'too-costly',
  415: 'not-supported',
  429: 'throttled',
};

const keyOf = (request: FastifyRequest) => sourceNamedBy(request.headers.authorization);
/** Reads and writes are counted apart (per route), by the source a Bearer key names, else by address. */
const reads = { rateLimit: sourceRateLimit(FHIR_READ_RATE_LIMIT_PER_MINUTE, keyOf) };
const writes = { rateLimit: sourceRateLimit(FHIR_WRITE_RATE_LIMIT_PER_MINUTE, keyOf) };

/** A route's path as a pattern for a concrete path: `:id` matches one segment. */
const pathPattern = (url: string) =>
  new RegExp(`^${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`);

/**
 * FHIR R4: Observations in (from FHIR sources, by Bearer secret) and Patient, Observation and
 * Device out (staff by session with the portal's rules, or a FHIR source's read key). Every
 * answer under /fhir/, errors included, is FHIR JSON: an OperationOutcome when something is
 * wrong, also for a path or method this server does not serve (its own not-found handler, which
 * needs the routes under a prefix of their own).
 */
export const fhirRoutes: FastifyPluginAsyncTypebox<FhirDeps> = async (app, deps) => {
  await app.register(fhirServer, { ...deps, prefix: '/fhir' });
};

/**
 * Other modules' FHIR interactions (the Bulk Data export) are handed in by the composition and
 * served under this prefix, with its error handler and OperationOutcomes: this module need not
 * import them, and they import this one's public API.
 */
export interface FhirDeps extends ModuleDeps {
  extensions?: readonly FastifyPluginAsyncTypebox<ModuleDeps>[];
}

const fhirServer: FastifyPluginAsyncTypebox<FhirDeps> = async (app, deps) => {
  const { db, config } = deps;
  const base = config.publicUrl;
  const rules = { publicUrl: base, maxAgeDays: config.ingestion.readingMaxAgeDays };
  app.addContentTypeParser(
    'application/fhir+json',
    { parseAs: 'string', bodyLimit: INGESTION_BODY_LIMIT_BYTES },
    app.getDefaultJsonParser('error', 'error'),
  );

  // Every method each path answers, for a 405 that names them.
  const served: { pattern: RegExp; method: string }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) served.push({ pattern: pathPattern(route.url), method });
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    const allowed = [...new Set(served.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    if (allowed.length > 0) {
      return reply
        .status(405)
        .header('allow', allowed.join(', '))
        .type(FHIR_JSON)
        .send(
          operationOutcome('error', 'not-supported', IngestionErrors.fhirMethod(request.method, allowed.join(', '))),
        );
    }
    return reply
      .status(404)
      .type(FHIR_JSON)
      .send(operationOutcome('error', 'not-found', IngestionErrors.fhirUnknownPath(path)));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error instanceof HttpError ? error.statusCode : (error.statusCode ?? 500);
    const clientError = status >= 400 && status < 500;
    if (!clientError) request.log.error({ err: error }, 'FHIR request failed');
    const code =
      error instanceof FhirError
        ? error.issueCode
        : (ISSUE_BY_STATUS[status] ?? (clientError ? 'invalid' : 'exception'));
    const message = !clientError
      ? 'Internal server error'
      : status === 429
        ? ApiErrors.rateLimited
        : error.validation
          ? `Invalid request: ${error.message}`
          : error.message;
    return reply
      .status(clientError ? status : 500)
      .type(FHIR_JSON)
      .send(operationOutcome(clientError ? 'error' : 'fatal', code, message));
  });

  // A conditional read (R4 http.html 3.1.0.4.2): the client's copy is current when its
  // If-None-Match names this version: 304 without a body. The read is audited all the same.
  app.addHook('onSend', async (request, reply, payload) => {
    const etag = reply.getHeader('etag');
    const theirs = request.headers['if-none-match'];
    if (request.method !== 'GET' || reply.statusCode !== 200 || typeof etag !== 'string' || !theirs) return payload;
    const weak = (t: string) => t.trim().replace(/^W\//, '');
    if (!theirs.split(',').some((t) => t.trim() === '*' || weak(t) === weak(etag))) return payload;
    void reply.status(304).removeHeader('content-type').removeHeader('content-length');
    return '';
  });

  const tags = ['fhir'];
  app.get('/R4/metadata', { config: { access: 'public', ...reads }, schema: { tags } }, async (_request, reply) =>
    send(reply, metadata(base)),
  );

  app.get(
    '/R4/Patient',
    { config: { access: 'machine', ...reads }, schema: { tags, querystring: PatientSearch } },
    async (request, reply) =>
      send(
        reply,
        await searchPatients(
          db,
          contextOf(request),
          request.headers.authorization,
          request.query,
          searchRequest(request),
          base,
        ),
      ),
  );
  app.get(
    '/R4/Patient/:id',
    { config: { access: 'machine', ...reads }, schema: { tags, params: IdParam } },
    async (request, reply) =>
      send(reply, await readPatient(db, contextOf(request), request.headers.authorization, request.params.id)),
  );
  app.get(
    '/R4/Observation/:id',
    { config: { access: 'machine', ...reads }, schema: { tags, params: IdParam } },
    async (request, reply) =>
      send(reply, await readObservation(db, contextOf(request), request.headers.authorization, request.params.id)),
  );
  app.get(
    '/R4/Observation',
    { config: { access: 'machine', ...reads }, schema: { tags, querystring: ObservationSearch } },
    async (request, reply) =>
      send(
        reply,
        await searchObservations(
          db,
          contextOf(request),
          request.headers.authorization,
          request.query,
          searchRequest(request),
          base,
        ),
      ),
  );
  app.get(
    '/R4/Device',
    { config: { access: 'machine', ...reads }, schema: { tags, querystring: DeviceSearch } },
    async (request, reply) =>
      send(
        reply,
        await searchDevices(
          db,
          contextOf(request),
          request.headers.authorization,
          request.query.identifier,
          base,
          searchRequest(request),
        ),
      ),
  );

  // The monthly summary for the physician (summaries module) as a DiagnosticReport.
  app.get(
    '/R4/DiagnosticReport/:id',
    { config: { access: 'machine', ...reads }, schema: { tags, params: DiagnosticReportIdParam } },
    async (request, reply) =>
      send(reply, await readDiagnosticReport(db, contextOf(request), request.headers.authorization, request.params.id)),
  );
  app.get(
    '/R4/DiagnosticReport',
    { config: { access: 'machine', ...reads }, schema: { tags, querystring: DiagnosticReportSearch } },
    async (request, reply) =>
      send(
        reply,
        await searchDiagnosticReports(
          db,
          contextOf(request),
          request.headers.authorization,
          request.query,
          base,
          searchRequest(request),
        ),
      ),
  );

  app.post(
    '/R4/Observation',
    { config: { access: 'machine', ...writes }, bodyLimit: INGESTION_BODY_LIMIT_BYTES, schema: { tags } },
    async (request, reply) =>
      send(
        reply,
        await createObservation(
          db,
          contextOf(request),
          request.headers.authorization,
          request.body,
          rules,
          // A conditional create (R4 http.html 3.1.0.8.1): `identifier=system|value`.
          request.headers['if-none-exist'] === undefined
            ? undefined
            : [request.headers['if-none-exist']].flat().join(','),
        ),
      ),
  );
  app.post(
    '/R4',
    { config: { access: 'machine', ...writes }, bodyLimit: INGESTION_BODY_LIMIT_BYTES, schema: { tags } },
    async (request, reply) =>
      send(reply, await processBundle(db, contextOf(request), request.headers.authorization, request.body, rules)),
  );

  // Not `deps` itself: it carries this plugin's own prefix, which would apply twice (/fhir/fhir).
  const inner: ModuleDeps = { db, identity: deps.identity, config };
  for (const extension of deps.extensions ?? []) await app.register(extension, inner);
  await app.register(smartFhirRoutes, inner);
};
