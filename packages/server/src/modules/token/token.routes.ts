import { LogoutQuery, MeResponse, SESSION_COOKIE, TokenBody } from '@rpm/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../kernel/request-context.ts';
import { pruneEndedSessions } from '../sessions/index.ts';
import { exchangeToken, logout, type TokenDeps } from './token.service.ts';

const SESSION_HOUSEKEEPING_MS = 10 * 60 * 1000;

/** The exchange of a user-pool token for a portal session cookie, and its end at logout. */
export const tokenRoutes: FastifyPluginAsyncTypebox<TokenDeps & { secureCookies: boolean }> = async (app, deps) => {
  // Ended sessions are kept a day (replayed tokens stay refused, the admin can look), then go.
  const housekeeping = setInterval(() => {
    pruneEndedSessions(deps.db).catch((err: Error) =>
      app.log.warn({ error: err.message }, 'session housekeeping failed'),
    );
  }, SESSION_HOUSEKEEPING_MS);
  housekeeping.unref();
  app.addHook('onClose', async () => clearInterval(housekeeping));

  app.post(
    '/api/token',
    { config: { access: 'public' }, schema: { tags: ['session'], body: TokenBody, response: { 200: MeResponse } } },
    async (request, reply) => {
      const { sessionToken, user } = await exchangeToken(
        deps,
        contextOf(request),
        request.body.token,
        request.sessionToken,
      );
      // No Max-Age: the cookie dies with the browser; the server enforces idle and absolute limits.
      void reply.setCookie(SESSION_COOKIE, sessionToken, {
        httpOnly: true,
        sameSite: 'strict',
        secure: deps.secureCookies,
        path: '/',
      });
      return { user };
    },
  );

  app.post(
    '/api/logout',
    // The page-close beacon cannot send custom headers; SameSite=Strict keeps it same-origin.
    { config: { access: 'public', csrfExempt: true }, schema: { tags: ['session'], querystring: LogoutQuery } },
    async (request, reply) => {
      await logout(deps, contextOf(request), request.sessionToken, { keepSignIn: request.query.page_closed === '1' });
      void reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.status(204).send();
    },
  );
};
