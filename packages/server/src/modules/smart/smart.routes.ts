import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateSmartClientBody,
  ErrorBody,
  OAuthErrorBody,
  SMART_CLIENTS_PATH,
  SMART_CONFIGURATION_PATH,
  SMART_TOKEN_PATH,
  SmartClient,
  SmartClientIdParam,
  SmartClientsResponse,
  SmartConfiguration,
  SmartTokenResponse,
} from '@rpm/contracts';
import type { FastifyError, FastifyReply } from 'fastify';
import { contextOf, signedInContextOf } from '../../kernel/request-context.ts';
import type { ModuleDeps } from '../module-deps.ts';
import { smartConfiguration } from './smart.presenter.ts';
import { createClient, getClients, revokeSmartClient } from './smart.service.ts';
import { issueToken, refuseUnreadableRequest, type TokenAnswer } from './smart.token.service.ts';

/** A token request is a few short form fields and one JWT of a few KB. */
const TOKEN_BODY_LIMIT_BYTES = 16 * 1024;

/** SMART Backend Services: client registration (admins), the token endpoint and discovery (issue 27). */
export const smartRoutes: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, deps) => {
  const { db, config } = deps;
  const tags = ['smart'];

  app.get(
    SMART_CLIENTS_PATH,
    { config: { access: 'admin' }, schema: { tags, response: { 200: SmartClientsResponse } } },
    async (request) => getClients(db, signedInContextOf(request)),
  );
  app.post(
    SMART_CLIENTS_PATH,
    {
      config: { access: 'admin' },
      schema: { tags, body: CreateSmartClientBody, response: { 201: SmartClient, 400: ErrorBody } },
    },
    async (request, reply) =>
      reply.status(201).send(
        await createClient(db, signedInContextOf(request), request.body, {
          allowLoopbackHttp: config.smartJwksAllowLoopbackHttp,
        }),
      ),
  );
  app.post(
    `${SMART_CLIENTS_PATH}/:id/revoke`,
    {
      config: { access: 'admin' },
      schema: { tags, params: SmartClientIdParam, response: { 200: SmartClient, 404: ErrorBody } },
    },
    async (request) => revokeSmartClient(db, signedInContextOf(request), request.params.id),
  );

  app.get(
    SMART_CONFIGURATION_PATH,
    { config: { access: 'public' }, schema: { tags, response: { 200: SmartConfiguration } } },
    async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').send(smartConfiguration(config.publicUrl)),
  );

  await app.register(tokenEndpoint, deps);
};

const sendToken = (reply: FastifyReply, answer: TokenAnswer) =>
  // RFC 6749 §5.1: token answers, errors included, are never cached.
  reply.status(answer.status).header('cache-control', 'no-store').header('pragma', 'no-cache').send(answer.body);

/**
 * The token endpoint in a plugin of its own: it alone reads form bodies (RFC 6749 §4.4), and it
 * answers every error, its own and Fastify's (wrong content type, body too large), the OAuth way.
 */
const tokenEndpoint: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { db, config }) => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: TOKEN_BODY_LIMIT_BYTES },
    (_request, body, done) => done(null, new URLSearchParams(body as string)),
  );
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'token request failed');
      return reply
        .status(500)
        .header('cache-control', 'no-store')
        .send({ error: 'server_error', error_description: 'Internal server error' });
    }
    return sendToken(
      reply,
      await refuseUnreadableRequest(db, contextOf(request), (error.code ?? 'unreadable request').slice(0, 80)),
    );
  });
  app.post(
    SMART_TOKEN_PATH,
    {
      config: { access: 'machine' },
      bodyLimit: TOKEN_BODY_LIMIT_BYTES,
      schema: {
        tags: ['smart'],
        response: { 200: SmartTokenResponse, 400: OAuthErrorBody, 401: OAuthErrorBody },
      },
    },
    async (request, reply) => {
      const params = request.body instanceof URLSearchParams ? request.body : null;
      return sendToken(reply, await issueToken(db, contextOf(request), params, config.publicUrl));
    },
  );
};
