import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RolesResponse } from '@rpm/contracts';
import type { ModuleDeps } from '../module-deps.ts';
import { listRoleNames } from './roles.repository.ts';

/** Roles come from the server (spec section 6); only the registration form needs them. */
export const rolesRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db }) => {
  app.get(
    '/api/roles',
    { config: { access: 'admin' }, schema: { tags: ['users'], response: { 200: RolesResponse } } },
    async () => ({ roles: await listRoleNames(db) }),
  );
};
