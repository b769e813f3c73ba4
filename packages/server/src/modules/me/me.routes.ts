import { MeResponse, MfaBody } from '@rpm/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { signedInContextOf } from '../../kernel/request-context.ts';
import { getMe, updateMfa, type MeDeps } from './me.service.ts';

/** The signed-in user's own record. */
export const meRoutes: FastifyPluginAsyncTypebox<MeDeps> = async (app, deps) => {
  app.get(
    '/api/me',
    { config: { access: 'signed-in' }, schema: { tags: ['session'], response: { 200: MeResponse } } },
    async (request) => ({ user: await getMe(deps, signedInContextOf(request)) }),
  );

  app.post(
    '/api/me/mfa',
    { config: { access: 'signed-in' }, schema: { tags: ['session'], body: MfaBody, response: { 200: MeResponse } } },
    async (request) => ({ user: await updateMfa(deps, signedInContextOf(request), request.body.enabled) }),
  );
};
