import { existsSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AppConfig, Health } from '@rpm/contracts';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type pg from 'pg';
import type { Config } from './config.ts';
import type { Identity } from './identity/index.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { startSealer } from './modules/audit/sealer.ts';
import { dbInspectorRoutes } from './modules/db-inspector/db-inspector.routes.ts';
import { devicesRoutes } from './modules/devices/devices.routes.ts';
import { fhirRoutes } from './modules/fhir/fhir.routes.ts';
import { ingestionRoutes } from './modules/ingestion/ingestion.routes.ts';
import { meRoutes } from './modules/me/me.routes.ts';
import type { ModuleDeps } from './modules/module-deps.ts';
import { notesRoutes } from './modules/notes/notes.routes.ts';
import { organizationsRoutes } from './modules/organizations/organizations.routes.ts';
import { patientsRoutes } from './modules/patients/patients.routes.ts';
import { rolesRoutes } from './modules/roles/roles.routes.ts';
import { trackingRoutes } from './modules/tracking/tracking.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { vitalsRoutes } from './modules/vitals/vitals.routes.ts';
import { installAccessControl } from './plugins/access.ts';
import { installErrorHandler } from './plugins/errors.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { registerSecurity } from './plugins/security.ts';
import { installValidators, refuseNulCharacters } from './plugins/validation.ts';

export interface AppDeps {
  config: Config;
  pool: pg.Pool;
  identity: Identity;
  logger?: FastifyServerOptions['logger'] | FastifyServerOptions['loggerInstance'];
  /** The audit chain's key (keys.ts): the app runs the sealer that links audit records. */
  auditHmacKey: Buffer;
}

/** Body size limit for JSON API calls: the largest real body (a patient) is a few KB. */
export const BODY_LIMIT_BYTES = 100 * 1024;

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    // Secrets never reach a log line, whatever a handler logs by mistake.
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        '*.password',
        '*.token',
        '*.sessionToken',
      ],
      censor: '[redacted]',
    },
  };
}

/**
 * Builds the portal's HTTP app. Order matters: security headers and limits first (they must
 * cover everything), then validators and the access hook (which runs before validation on each
 * request), then the user pool, the API routes, and last the web app with its history fallback.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, pool, identity } = deps;
  const isLoggerInstance = deps.logger && typeof deps.logger === 'object' && 'child' in deps.logger;
  const app = Fastify({
    ...(isLoggerInstance
      ? { loggerInstance: deps.logger as FastifyServerOptions['loggerInstance'] }
      : { logger: deps.logger ?? loggerOptions(config.logLevel) }),
    genReqId: () => randomUUID(),
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    routerOptions: { maxParamLength: 200 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onSend', async (request, reply, payload) => {
    void reply.header('x-request-id', request.id);
    return payload;
  });

  await app.register(cookie);
  await registerSecurity(app, config);
  await registerRateLimit(app, config);
  await app.register(swagger, {
    openapi: {
      info: { title: 'RPM portal API', version: '0.1.0' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'rpm_session' } } },
    },
  });
  installValidators(app);
  refuseNulCharacters(app);
  installErrorHandler(app);
  installAccessControl(app, pool);

  const sealer = startSealer({
    pool,
    key: deps.auditHmacKey,
    onError: (err) => app.log.error({ error: err.message }, 'audit sealer failed; it retries'),
  });
  app.addHook('onClose', () => sealer.stop());

  app.get('/api/docs/json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

  app.get(
    '/api/health',
    { config: { access: 'public' }, schema: { tags: ['system'], response: { 200: Health } } },
    async () => {
      await pool.query('SELECT 1');
      return { status: 'ok' as const, database: 'ok' as const };
    },
  );

  app.get('/app-config.json', { schema: { hide: true, response: { 200: AppConfig } } }, async () => identity.appConfig);

  if (identity.plugin) await app.register(identity.plugin);

  const moduleDeps: ModuleDeps = { db: pool, identity, config };
  await app.register(meRoutes, { db: pool, identity, secureCookies: config.secureCookies });
  for (const routes of [
    rolesRoutes,
    organizationsRoutes,
    usersRoutes,
    devicesRoutes,
    patientsRoutes,
    vitalsRoutes,
    notesRoutes,
    trackingRoutes,
    auditRoutes,
    dbInspectorRoutes,
    ingestionRoutes,
    fhirRoutes,
  ]) {
    await app.register(routes, moduleDeps);
  }

  registerWebApp(app, config.webDist);
  return app;
}

/** Serves the built SPA; unknown non-API GETs get index.html so client routes survive a reload. */
function registerWebApp(app: FastifyInstance, webDist: string): void {
  const hasBuild = existsSync(path.join(webDist, 'index.html'));
  if (hasBuild) {
    void app.register(fastifyStatic, { root: webDist, index: false, wildcard: false, maxAge: '1h' });
  }
  app.setNotFoundHandler((request, reply) => {
    const isPage =
      request.method === 'GET' &&
      !request.url.startsWith('/api/') &&
      !request.url.startsWith('/cognito') &&
      !request.url.startsWith('/fhir/') &&
      !path.extname(request.url.split('?')[0] ?? '');
    if (isPage && hasBuild) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', webDist, { maxAge: 0 });
    }
    if (isPage) {
      return reply
        .type('text/plain')
        .status(503)
        .send('The web app is not built. Run `npm run build` (npm start does it for you).');
    }
    return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: 'Not found', requestId: request.id });
  });
}
