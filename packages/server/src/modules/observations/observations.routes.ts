import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, IdParam, Observation, ObservationInput, ObservationPage, ObservationQuery, ObservationSummary } from '@rpm/contracts';
import { signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { addManualObservation, listObservations, summarizePatientObservations } from './observations.service.ts';

/** Observations of any kind of the measurement registry, in canonical units. */
export const observationsRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, deps) => {
  app.get(
    '/api/patients/:id/observations',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['observations'],
        params: IdParam,
        querystring: ObservationQuery,
        response: { 200: ObservationPage, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => listObservations(deps, signedInContextOf(request), request.params.id, request.query),
  );

  app.get(
    '/api/patients/:id/observations/summary',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['observations'],
        params: IdParam,
        response: { 200: ObservationSummary, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => summarizePatientObservations(deps, signedInContextOf(request), request.params.id),
  );

  app.post(
    '/api/patients/:id/observations',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['observations'],
        params: IdParam,
        body: ObservationInput,
        response: { 201: Observation, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await addManualObservation(deps, signedInContextOf(request), request.params.id, request.body)),
  );
};
