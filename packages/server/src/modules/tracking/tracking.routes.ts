import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ErrorBody,
  IdParam,
  PatientPageQuery,
  TrackingEntry,
  TrackingEntryInput,
  TrackingEntryPage,
} from '@rpm/contracts';
import { signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { addTrackingEntry, listTrackingEntries } from './tracking.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/**
 * Tracking entries (minutes spent on a patient per day). The spec names the path `sessions`; it
 * has nothing to do with sign-in sessions.
 */
export const trackingRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, deps) => {
  app.get(
    '/api/patients/:id/sessions',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['tracking'],
        params: IdParam,
        querystring: PatientPageQuery,
        response: { 200: TrackingEntryPage, ...errors },
      },
    },
    async (request) =>
      listTrackingEntries(deps, signedInContextOf(request), request.params.id, request.query.limit ?? 10, request.query.offset ?? 0),
  );

  app.post(
    '/api/patients/:id/sessions',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['tracking'],
        params: IdParam,
        body: TrackingEntryInput,
        response: { 201: TrackingEntry, ...errors },
      },
    },
    async (request, reply) => {
      const entry = await addTrackingEntry(deps, signedInContextOf(request), request.params.id, request.body);
      return reply.status(201).send(entry);
    },
  );
};
