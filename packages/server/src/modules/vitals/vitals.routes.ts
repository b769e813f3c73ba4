import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, IdParam, ManualVitalBody, Vital, VitalPage, VitalSeries, VitalPageQuery, VitalSeriesQuery } from '@rpm/contracts';
import { signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { addManualVital, listVitals, readVitalSeries } from './vitals.service.ts';

/** Blood pressure readings of a patient, paged on the server (the table and the chart use it). */
export const vitalsRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, deps) => {
  app.get(
    '/api/patients/:id/vitals',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['observations'],
        params: IdParam,
        querystring: VitalPageQuery,
        response: { 200: VitalPage, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) =>
      listVitals(deps, signedInContextOf(request), request.params.id, request.query.limit ?? 10, request.query.offset ?? 0, {
        from: request.query.from,
        to: request.query.to,
      }),
  );

  // The Figure view needs a series, not pages: one call with compact columns.
  app.get(
    '/api/patients/:id/vitals/series',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['observations'],
        params: IdParam,
        querystring: VitalSeriesQuery,
        response: { 200: VitalSeries, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => readVitalSeries(deps, signedInContextOf(request), request.params.id, request.query.days ?? 90),
  );

  app.post(
    '/api/patients/:id/vitals',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['observations'],
        params: IdParam,
        body: ManualVitalBody,
        response: { 201: Vital, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await addManualVital(deps, signedInContextOf(request), request.params.id, request.body)),
  );
};
