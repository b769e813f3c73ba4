import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, IdParam, PatientPrograms, PatientProgramsInput, ProgramInfo, ProgramInput, ProgramList } from '@rpm/contracts';
import { signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { createProgram, getPatientPrograms, getPrograms, updatePatientPrograms } from './programs.service.ts';

/** Care programs (listed to staff, added by admins) and each patient's enrollment in them. */
export const programsRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, deps) => {
  app.get(
    '/api/programs',
    { config: { access: 'signed-in' }, schema: { tags: ['programs'], response: { 200: ProgramList, 401: ErrorBody } } },
    async (request) => getPrograms(deps, signedInContextOf(request)),
  );

  app.post(
    '/api/programs',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['programs'],
        body: ProgramInput,
        response: { 201: ProgramInfo, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => reply.status(201).send(await createProgram(deps, signedInContextOf(request), request.body)),
  );

  app.get(
    '/api/patients/:id/programs',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['programs'], params: IdParam, response: { 200: PatientPrograms, 401: ErrorBody, 404: ErrorBody } },
    },
    async (request) => getPatientPrograms(deps, signedInContextOf(request), request.params.id),
  );

  app.put(
    '/api/patients/:id/programs',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['programs'],
        params: IdParam,
        body: PatientProgramsInput,
        response: { 200: PatientPrograms, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => updatePatientPrograms(deps, signedInContextOf(request), request.params.id, request.body),
  );
};
