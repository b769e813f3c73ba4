import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateOrganizationBody,
  ErrorBody,
  IdParam,
  Organization,
  OrganizationDisplayUnits,
  OrganizationSettings,
  OrganizationsResponse,
  ProvidersResponse,
  UpdateOrganizationSettingsBody,
} from '@rpm/contracts';
import { signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { getDisplayUnits, updateDisplayUnits } from './display-units.service.ts';
import {
  createOrganization,
  getOrganizationSettings,
  getOrganizations,
  getProviders,
  updateOrganizationSettings,
} from './organizations.service.ts';

/** Organizations: listed for every signed-in user (scoped), created by admins. */
export const organizationsRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db }) => {
  app.get(
    '/api/organizations',
    { config: { access: 'signed-in' }, schema: { tags: ['organizations'], response: { 200: OrganizationsResponse } } },
    async (request) => getOrganizations(db, signedInContextOf(request)),
  );

  app.post(
    '/api/organizations',
    {
      config: { access: 'admin' },
      schema: { tags: ['organizations'], body: CreateOrganizationBody, response: { 201: Organization } },
    },
    async (request, reply) => {
      const org = await createOrganization(db, signedInContextOf(request), request.body.name);
      return reply.status(201).send(org);
    },
  );

  app.get(
    '/api/organizations/:id/providers',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['organizations'], params: IdParam, response: { 200: ProvidersResponse } },
    },
    async (request) => getProviders(db, signedInContextOf(request), request.params.id),
  );

  app.get(
    '/api/organizations/:id/settings',
    {
      config: { access: 'admin' },
      schema: { tags: ['organizations'], params: IdParam, response: { 200: OrganizationSettings } },
    },
    async (request) => getOrganizationSettings(db, signedInContextOf(request), request.params.id),
  );

  app.put(
    '/api/organizations/:id/settings',
    {
      config: { access: 'admin' },
      schema: { tags: ['organizations'], params: IdParam, body: UpdateOrganizationSettingsBody, response: { 200: OrganizationSettings } },
    },
    async (request) => updateOrganizationSettings(db, signedInContextOf(request), request.params.id, request.body),
  );

  app.get(
    '/api/organizations/:id/display-units',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['organizations'], params: IdParam, response: { 200: OrganizationDisplayUnits, 401: ErrorBody, 404: ErrorBody } },
    },
    async (request) => getDisplayUnits(db, signedInContextOf(request), request.params.id),
  );

  app.put(
    '/api/organizations/:id/display-units',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['organizations'],
        params: IdParam,
        body: OrganizationDisplayUnits,
        response: { 200: OrganizationDisplayUnits, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => updateDisplayUnits(db, signedInContextOf(request), request.params.id, request.body),
  );
};
