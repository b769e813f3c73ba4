import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FHIR_BUNDLE_MAX_ENTRIES, IdParam, INGESTION_BODY_LIMIT_BYTES } from '@rpm/contracts';
import type { FastifyError, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { contextOf } from '../../plugins/context.ts';
import { HttpError } from '../../plugins/errors.ts';
import { operationOutcome, type IssueCode } from '../../presenters/fhir.ts';
import type { ModuleDeps } from '../module-deps.ts';
import {
  createObservation,
  FhirError,
  metadata,
  processBundle,
  readObservation,
  readPatient,
  searchDevices,
  searchObservations,
  type FhirAnswer,
} from './fhir.service.ts';

const FHIR_JSON = 'application/fhir+json; charset=utf-8';

const ObservationSearch = Type.Object({
  patient: Type.Optional(Type.String({ maxLength: 100 })),
  date: Type.Optional(
    Type.Union([Type.String({ maxLength: 40 }), Type.Array(Type.String({ maxLength: 40 }), { maxItems: 2 })]),
  ),
  _count: Type.Optional(Type.Integer({ minimum: 1, maximum: FHIR_BUNDLE_MAX_ENTRIES })),
  _offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
});
const DeviceSearch = Type.Object({ identifier: Type.Optional(Type.String({ maxLength: 200 })) });

const send = (reply: FastifyReply, answer: FhirAnswer) => {
  if (answer.location) void reply.header('location', answer.location);
  return reply.status(answer.status).type(FHIR_JSON).send(answer.body);
};

const ISSUE_BY_STATUS: Record<number, IssueCode> = {
  400: 'invalid',
  401: 'login',
  403: 'security',
  404: 'not-found',
  413: 'too-costly',
  415: 'not-supported',
};

/**
 * FHIR R4: Observations in (from FHIR sources, by Bearer secret) and Patient, Observation and
 * Device out (staff by session with the portal's rules, or a FHIR source's read key). Every
 * answer, errors included, is FHIR JSON: an OperationOutcome when something is wrong.
 */
export const fhirRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db, config }) => {
  const base = config.publicUrl;
  app.addContentTypeParser(
    'application/fhir+json',
    { parseAs: 'string', bodyLimit: INGESTION_BODY_LIMIT_BYTES },
    app.getDefaultJsonParser('error', 'error'),
  );

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
      : error.validation
        ? `Invalid request: ${error.message}`
        : error.message;
    return reply
      .status(clientError ? status : 500)
      .type(FHIR_JSON)
      .send(operationOutcome(clientError ? 'error' : 'fatal', code, message));
  });

  const tags = ['fhir'];
  app.get('/fhir/R4/metadata', { config: { access: 'public' }, schema: { tags } }, async (_request, reply) =>
    send(reply, metadata(base)),
  );

  app.get(
    '/fhir/R4/Patient/:id',
    { config: { access: 'machine' }, schema: { tags, params: IdParam } },
    async (request, reply) =>
      send(reply, await readPatient(db, contextOf(request), request.headers.authorization, request.params.id)),
  );
  app.get(
    '/fhir/R4/Observation/:id',
    { config: { access: 'machine' }, schema: { tags, params: IdParam } },
    async (request, reply) =>
      send(reply, await readObservation(db, contextOf(request), request.headers.authorization, request.params.id)),
  );
  app.get(
    '/fhir/R4/Observation',
    { config: { access: 'machine' }, schema: { tags, querystring: ObservationSearch } },
    async (request, reply) =>
      send(reply, await searchObservations(db, contextOf(request), request.headers.authorization, request.query, base)),
  );
  app.get(
    '/fhir/R4/Device',
    { config: { access: 'machine' }, schema: { tags, querystring: DeviceSearch } },
    async (request, reply) =>
      send(
        reply,
        await searchDevices(db, contextOf(request), request.headers.authorization, request.query.identifier, base),
      ),
  );

  app.post(
    '/fhir/R4/Observation',
    { config: { access: 'machine' }, bodyLimit: INGESTION_BODY_LIMIT_BYTES, schema: { tags } },
    async (request, reply) =>
      send(reply, await createObservation(db, contextOf(request), request.headers.authorization, request.body, base)),
  );
  app.post(
    '/fhir/R4',
    { config: { access: 'machine' }, bodyLimit: INGESTION_BODY_LIMIT_BYTES, schema: { tags } },
    async (request, reply) =>
      send(reply, await processBundle(db, contextOf(request), request.headers.authorization, request.body)),
  );
};
