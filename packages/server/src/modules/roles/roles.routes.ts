import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RolesResponse } from '@rpm/contracts';
import { signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { getRoles } from './roles.service.ts';

/** Roles come from the server (spec section 6); only the registration form needs them. */
export const rolesRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db }) => {
  app.get(
    '/api/roles',
    { config: { access: 'admin' }, schema: { tags: ['users'], response: { 200: RolesResponse } } },
    async (request) => ({ roles: await getRoles(db, signedInContextOf(request)) }),
  );
};
