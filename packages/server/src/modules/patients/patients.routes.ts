import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorBody, IdParam, InsuranceList, PatientDetail, PatientInput, PatientList, PatientListQuery, PatientUpdate } from '@rpm/contracts';
import { signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { createPatient, listPatientInsurances, listPatientsFor, readPatient, savePatient } from './patients.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * Patients. Every route is open to any signed-in user; which patients they reach is decided per
 * object in the service (admins: all; providers: their organization's).
 */
export const patientsRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, deps) => {
  app.get(
    '/api/patients',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['patients'], querystring: PatientListQuery, response: { 200: PatientList, ...errors } },
    },
    async (request) => listPatientsFor(deps, signedInContextOf(request), request.query),
  );

  app.post(
    '/api/patients',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['patients'], body: PatientInput, response: { 201: PatientDetail, ...errors } },
    },
    async (request, reply) => {
      const patient = await createPatient(deps, signedInContextOf(request), request.body);
      return reply.status(201).send(patient);
    },
  );

  app.get(
    '/api/patients/:id',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['patients'], params: IdParam, response: { 200: PatientDetail, ...errors } },
    },
    async (request) => readPatient(deps, signedInContextOf(request), request.params.id),
  );

  app.put(
    '/api/patients/:id',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['patients'], params: IdParam, body: PatientUpdate, response: { 200: PatientDetail, ...errors } },
    },
    async (request) => savePatient(deps, signedInContextOf(request), request.params.id, request.body),
  );

  app.get(
    '/api/patients/:id/insurance',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['patients'], params: IdParam, response: { 200: InsuranceList, ...errors } },
    },
    async (request) => listPatientInsurances(deps, signedInContextOf(request), request.params.id),
  );
};
