import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, IdParam, Outreach, OutreachInput, OutreachPage, PatientPageQuery } from '@rpm/contracts';
import { signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { listOutreach, recordOutreach } from './outreach.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** Outreach to a patient, kept on the patient's record (who may is the outreach policy's answer). */
export const outreachRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, deps) => {
  app.get(
    '/api/patients/:id/outreach',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['patients'], params: IdParam, querystring: PatientPageQuery, response: { 200: OutreachPage, ...errors } },
    },
    async (request) =>
      listOutreach(deps, signedInContextOf(request), request.params.id, request.query.limit ?? 10, request.query.offset ?? 0),
  );

  app.post(
    '/api/patients/:id/outreach',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['patients'], params: IdParam, body: OutreachInput, response: { 201: Outreach, ...errors } },
    },
    async (request, reply) =>
      reply.status(201).send(await recordOutreach(deps, signedInContextOf(request), request.params.id, request.body)),
  );
};
