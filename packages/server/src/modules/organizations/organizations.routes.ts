import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CreateOrganizationBody, IdParam, Organization, OrganizationsResponse, ProvidersResponse } from '@rpm/contracts';
import { signedInContextOf } from '../../plugins/context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { createOrganization, getOrganizations, getProviders } from './organizations.service.ts';

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
};
