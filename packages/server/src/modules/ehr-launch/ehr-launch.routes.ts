import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  EHR_LAUNCH_COOKIE,
  EHR_LAUNCH_TTL_MINUTES,
  EhrCallbackQuery,
  EhrLaunchPaths,
  EhrLaunchQuery,
  EhrLaunchResolveBody,
  EhrLaunchResolved,
  EhrLaunchSettings,
  ErrorBody,
  IdParam,
  UpdateEhrLaunchSettingsBody,
} from '@rpm/contracts';
import type { FastifyReply } from 'fastify';
import { contextOf, signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import {
  LaunchError,
  completeLaunch,
  getLaunchSettings,
  resolveLaunch,
  startLaunch,
  updateLaunchSettings,
} from './ehr-launch.service.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 410: ErrorBody };

/**
 * Launch from the EHR. The two /ehr routes are the SMART app's launch URL and redirect URI: the
 * browser arrives there from the EHR (no portal session yet), so they answer redirects or a plain
 * message, not JSON. The SMART client runs here on the server, so the EHR's tokens never reach
 * the browser.
 */
export const ehrLaunchRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db, config }) => {
  const deps = { db, config };
  const cookieOptions = {
    httpOnly: true,
    // Lax: the EHR's redirect back to the callback is a cross-site top-level GET.
    sameSite: 'lax',
    secure: config.secureCookies,
    path: '/',
  } as const;

  const showLaunchError = (reply: FastifyReply, err: unknown) => {
    if (!(err instanceof LaunchError)) throw err;
    void reply.clearCookie(EHR_LAUNCH_COOKIE, cookieOptions);
    return reply.status(err.statusCode).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(err.message);
  };

  app.get(
    EhrLaunchPaths.launch,
    { config: { access: 'public' }, schema: { tags: ['ehr-launch'], querystring: EhrLaunchQuery } },
    async (request, reply) => {
      try {
        const { redirectTo, cookie } = await startLaunch(deps, contextOf(request), request.query);
        void reply.setCookie(EHR_LAUNCH_COOKIE, cookie, { ...cookieOptions, maxAge: EHR_LAUNCH_TTL_MINUTES * 60 });
        return reply.header('cache-control', 'no-store').redirect(redirectTo, 302);
      } catch (err) {
        return showLaunchError(reply, err);
      }
    },
  );

  app.get(
    EhrLaunchPaths.callback,
    { config: { access: 'public' }, schema: { tags: ['ehr-launch'], querystring: EhrCallbackQuery } },
    async (request, reply) => {
      try {
        const id = await completeLaunch(deps, contextOf(request), request.cookies[EHR_LAUNCH_COOKIE], request.query);
        const to = `${EhrLaunchPaths.complete}?${new URLSearchParams({ launch: id }).toString()}`;
        return reply.header('cache-control', 'no-store').redirect(to, 302);
      } catch (err) {
        return showLaunchError(reply, err);
      }
    },
  );

  app.post(
    EhrLaunchPaths.resolve,
    {
      config: { access: 'signed-in' },
      schema: { tags: ['ehr-launch'], body: EhrLaunchResolveBody, response: { 200: EhrLaunchResolved, ...errors } },
    },
    async (request, reply) => {
      // The launch is used once, whatever the answer: its cookie goes with it.
      void reply.clearCookie(EHR_LAUNCH_COOKIE, cookieOptions);
      return resolveLaunch(db, signedInContextOf(request), request.cookies[EHR_LAUNCH_COOKIE], request.body.launch);
    },
  );

  app.get(
    '/api/organizations/:id/ehr-launch',
    {
      config: { access: 'admin' },
      schema: { tags: ['ehr-launch'], params: IdParam, response: { 200: EhrLaunchSettings, ...errors } },
    },
    async (request) => getLaunchSettings(deps, signedInContextOf(request), request.params.id),
  );

  app.put(
    '/api/organizations/:id/ehr-launch',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['ehr-launch'],
        params: IdParam,
        body: UpdateEhrLaunchSettingsBody,
        response: { 200: EhrLaunchSettings, ...errors },
      },
    },
    async (request) => updateLaunchSettings(deps, signedInContextOf(request), request.params.id, request.body),
  );
};
