import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AdminUserResponse, AdminUsersResponse, CreateUserBody, CreateUserResponse, IdParam } from '@rpm/contracts';
import { signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { createUser, disableUser, enableUser, getUsers, resendInvite, resetMfa } from './users.service.ts';

/** Staff accounts: every route is admin-only (checked by the access hook before validation). */
export const usersRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, deps) => {
  const admin = { access: 'admin' as const };

  app.get(
    '/api/admin/users',
    { config: admin, schema: { tags: ['users'], response: { 200: AdminUsersResponse } } },
    async (request) => ({ users: await getUsers(deps, signedInContextOf(request)) }),
  );

  app.post(
    '/api/admin/users',
    { config: admin, schema: { tags: ['users'], body: CreateUserBody, response: { 201: CreateUserResponse } } },
    async (request, reply) => reply.status(201).send(await createUser(deps, signedInContextOf(request), request.body)),
  );

  const actions = [
    ['resend-invite', resendInvite],
    ['enable', enableUser],
    ['disable', disableUser],
    // Path and answer: resetMfaPath and AdminUserResponse in contracts.
    ['reset-mfa', resetMfa],
  ] as const;
  for (const [path, act] of actions) {
    app.post(
      `/api/admin/users/:id/${path}`,
      { config: admin, schema: { tags: ['users'], params: IdParam, response: { 200: AdminUserResponse } } },
      async (request) => ({ user: await act(deps, signedInContextOf(request), request.params.id) }),
    );
  }
};
