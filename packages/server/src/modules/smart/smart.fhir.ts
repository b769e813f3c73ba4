import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SmartConfiguration } from '@rpm/contracts';
import type { ModuleDeps } from '../module-deps.ts';
import { smartConfiguration } from './smart.presenter.ts';

/**
 * What SMART adds inside the FHIR server's prefix (registered there, so its paths are '/R4/...'):
 * the discovery document at the FHIR base, where clients look first, and the
 * `WWW-Authenticate: Bearer` challenge on every 401 (RFC 6750 §3), naming `invalid_token` when
 * a Bearer token was presented (unknown, expired, revoked, or a retired static key).
 */
const smartFhir: FastifyPluginAsyncTypebox<ModuleDeps> = async (app, { config }) => {
  app.get(
    '/R4/.well-known/smart-configuration',
    { config: { access: 'public' }, schema: { tags: ['smart'], response: { 200: SmartConfiguration } } },
    async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').send(smartConfiguration(config.publicUrl)),
  );
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode === 401) {
      const presented = /^Bearer\s+\S/i.test(request.headers.authorization ?? '');
      void reply.header(
        'www-authenticate',
        presented ? 'Bearer realm="fhir", error="invalid_token"' : 'Bearer realm="fhir"',
      );
    }
    done(null, payload);
  });
};
// Not encapsulated: the hook must cover every route of the FHIR plugin that registers this one.
(smartFhir as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;

export const smartFhirRoutes = smartFhir;
