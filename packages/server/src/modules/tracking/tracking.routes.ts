import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorBody,
  IdParam,
  PatientPageQuery,
  TrackingSession,
  TrackingSessionInput,
  TrackingSessionPage,
} from '@rpm/contracts';
import { signedInContextOf } from '../../plugins/context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { addTracking, listTracking } from './tracking.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** Tracking time (minutes spent on a patient per day). */
export const trackingRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, deps) => {
  app.get(
    '/api/patients/:id/sessions',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['tracking'],
        params: IdParam,
        querystring: PatientPageQuery,
        response: { 200: TrackingSessionPage, ...errors },
      },
    },
    async (request) =>
      listTracking(deps, signedInContextOf(request), request.params.id, request.query.limit ?? 10, request.query.offset ?? 0),
  );

  app.post(
    '/api/patients/:id/sessions',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['tracking'],
        params: IdParam,
        body: TrackingSessionInput,
        response: { 201: TrackingSession, ...errors },
      },
    },
    async (request, reply) => {
      const session = await addTracking(deps, signedInContextOf(request), request.params.id, request.body);
      return reply.status(201).send(session);
    },
  );
};
