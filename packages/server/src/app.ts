import { existsSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AppConfig, SESSION_COOKIE } from '@rpm/contracts';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type pg from 'pg';
import type { Config } from './config.ts';
import type { Identity } from './modules/identity/index.ts';
import { alertsRoutes } from './modules/alerts/index.ts';
import { auditRoutes, startSealer } from './modules/audit/index.ts';
import { billingJobsPlugin, billingRoutes } from './modules/billing/index.ts';
import { audit } from './kernel/audit-writer.ts';
import { dbInspectorRoutes } from './modules/db-inspector/index.ts';
import { devicesRoutes } from './modules/devices/index.ts';
import { ehrLaunchRoutes } from './modules/ehr-launch/index.ts';
import { bulkExportRoutes } from './modules/bulk-export/index.ts';
import { fhirRoutes } from './modules/fhir/index.ts';
import { healthRoutes } from './modules/health/index.ts';
import { ingestionRoutes } from './modules/ingestion/index.ts';
import { meRoutes } from './modules/me/index.ts';
import type { ModuleDeps } from './modules/module-deps.ts';
import { notesRoutes } from './modules/notes/index.ts';
import { outreachRoutes } from './modules/outreach/index.ts';
import { observationsRoutes } from './modules/observations/index.ts';
import { organizationsRoutes } from './modules/organizations/index.ts';
import { patientsRoutes } from './modules/patients/index.ts';
import { programsRoutes } from './modules/programs/index.ts';
import { rolesRoutes } from './modules/roles/index.ts';
import { smartRoutes } from './modules/smart/index.ts';
import { summariesRoutes } from './modules/summaries/index.ts';
import { partitionsPlugin } from './modules/partitions/index.ts';
import { resolveSession } from './modules/sessions/index.ts';
import { tokenRoutes } from './modules/token/index.ts';
import { trackingRoutes } from './modules/tracking/index.ts';
import { usersRoutes } from './modules/users/index.ts';
import { vitalsRoutes } from './modules/vitals/index.ts';
import { installAccessControl } from './plugins/access.ts';
import { answerFrameworkError, installErrorHandler } from './plugins/errors.ts';
import { createMetrics, installMetrics, serveMetrics } from './plugins/metrics.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { registerSecurity } from './plugins/security.ts';
import { attachLazyCompilation, createLazyCompilation, lazySerializers } from './plugins/lazy-compile.ts';
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
  // Validators and response serializers are compiled on first use (plugins/lazy-compile.ts).
  const lazy = createLazyCompilation();
  const app = Fastify({
    ...(isLoggerInstance
      ? { loggerInstance: deps.logger as FastifyServerOptions['loggerInstance'] }
      : { logger: deps.logger ?? loggerOptions(config.logLevel) }),
    genReqId: () => randomUUID(),
    // One line per request instead of two, written when it completes (logRequests below).
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: trustProxyOption(config.trustProxy),
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: answerFrameworkError,
    requestTimeout: config.timeouts.requestMs,
    connectionTimeout: config.timeouts.connectionMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    http: {
      requestTimeout: config.timeouts.requestMs,
      headersTimeout: config.timeouts.headersMs,
      // Node checks the two limits above on this interval (30 s by default): a quarter of the
      // shortest keeps the cut-off close to the limit.
      connectionsCheckingInterval: Math.max(250, Math.floor(config.timeouts.headersMs / 4)),
    },
    schemaController: { compilersFactory: { buildSerializer: lazySerializers(lazy) } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  attachLazyCompilation(app, lazy);

  // While shutting down, answers end their keep-alive connection, so close() does not wait for
  // clients to drop connections that were busy when it began.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  acceptEmptyJsonBodies(app);

  // Hooks that run on every answer take a callback rather than being async: no promise per call.
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('x-request-id', request.id);
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });

  logRequests(app);
  const metrics = createMetrics(pool);
  installMetrics(app, metrics);

  await app.register(cookie);
  await registerSecurity(app, config);
  await registerRateLimit(app, config, metrics);
  serveMetrics(app, metrics, config.metricsToken);
  await app.register(swagger, {
    openapi: {
      info: { title: 'RPM portal API', version: '0.1.0' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'rpm_session' } } },
    },
  });
  installValidators(app, lazy);
  refuseNulCharacters(app);
  installErrorHandler(app);
  installAccessControl(app, {
    resolveSession: (token, opts) => resolveSession(pool, token, opts),
    recordRefusal: (ctx, refusal) =>
      audit(pool, ctx, {
        action: 'access.denied',
        outcome: 'denied',
        resourceType: 'route',
        resourceId: refusal.route,
        reason: refusal.reason,
      }),
  });

  const sealer = startSealer({
    pool,
    key: deps.auditHmacKey,
    onError: (err) => app.log.error({ error: err.message }, 'audit sealer failed; it retries'),
  });
  app.addHook('onClose', () => sealer.stop());

  app.get('/api/docs/json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes, { db: pool, identity, config });

  app.get('/app-config.json', { schema: { hide: true, response: { 200: AppConfig } } }, async () =>
    browserAppConfig(identity.appConfig),
  );

  if (identity.plugin) await app.register(identity.plugin);

  const moduleDeps: ModuleDeps = { db: pool, identity, config };
  await app.register(tokenRoutes, { db: pool, identity, secureCookies: config.secureCookies });
  await app.register(meRoutes, { db: pool, identity });
  for (const routes of [
    rolesRoutes,
    organizationsRoutes,
    usersRoutes,
    devicesRoutes,
    patientsRoutes,
    vitalsRoutes,
    observationsRoutes,
    programsRoutes,
    notesRoutes,
    outreachRoutes,
    trackingRoutes,
    auditRoutes,
    dbInspectorRoutes,
    ingestionRoutes,
    smartRoutes,
    ehrLaunchRoutes,
    alertsRoutes,
    billingRoutes,
    billingJobsPlugin,
    summariesRoutes,
    partitionsPlugin,
  ]) {
    await app.register(routes, moduleDeps);
  }
  // The FHIR server, with the Bulk Data export served under its prefix.
  await app.register(fhirRoutes, { ...moduleDeps, extensions: [bulkExportRoutes] });

  registerWebApp(app, config.webDist);
  return app;
}

/**
 * The built-in pool's endpoint goes to the browser as a path (`/cognito`), which the page resolves
 * against its own origin: the portal then works at whatever address it is reached by (localhost,
 * 127.0.0.1, a host name), with the CSP's 'self'. A real Cognito pool has no endpoint here.
 */
export function browserAppConfig(appConfig: Identity['appConfig']): AppConfig {
  if (!appConfig.userPoolEndpoint) return appConfig;
  return { ...appConfig, userPoolEndpoint: new URL(appConfig.userPoolEndpoint).pathname };
}

/**
 * A hop count trusts that many proxies from the socket outwards, so request.ip is the address the
 * nearest untrusted hop reported, never what the client wrote at the left of X-Forwarded-For.
 */
function trustProxyOption(trust: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/**
 * A body-less POST (logout, enable, resend invite...) often still says `Content-Type:
 * application/json`; an empty body then means "no body", not a parse error.
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}

/**
 * One JSON line per answered request: route template (never the raw URL, which can carry ids),
 * status, duration, request id (the logger's label) and the signed-in user's id. No headers, no
 * bodies, no query strings: those are where secrets and patient data would be.
 */
function logRequests(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        userId: request.actor?.id ?? null,
      },
      'request',
    );
    done();
  });
}

/** Hashed build outputs (under assets/) never change under their name; everything else may. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The web app's sign-in route (its paths.login). */
const SIGN_IN_PATH = '/login';
const REVALIDATE = 'no-cache';

/**
 * Serves the built SPA from the precompressed files the build writes (brotli, gzip), with hashed
 * assets cached for a year and everything else revalidated; unknown non-API GETs get index.html so
 * client routes survive a reload.
 */
function registerWebApp(app: FastifyInstance, webDist: string): void {
  const hasBuild = existsSync(path.join(webDist, 'index.html'));
  const hasSignInShell = existsSync(path.join(webDist, 'login.html'));
  if (hasBuild) {
    void app.register(fastifyStatic, {
      root: webDist,
      index: false,
      wildcard: false,
      preCompressed: true,
      // One route per file is set up at start; the compressed copies are found next to the file
      // they belong to when it is sent, and need no route of their own (that was two thirds of
      // the routes, and of the time this plugin took at start-up).
      globIgnore: ['**/*.br', '**/*.gz'],
      // The build manifest (.vite/) is for the size budgets, not for browsers.
      dotfiles: 'ignore',
      setHeaders: (reply, file) => {
        const inAssets = path.relative(webDist, file).startsWith(`assets${path.sep}`);
        void reply.header('cache-control', inAssets ? IMMUTABLE : REVALIDATE);
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isPage =
      request.method === 'GET' &&
      !request.url.startsWith('/api/') &&
      !request.url.startsWith('/cognito') &&
      !request.url.startsWith('/fhir/') &&
      !path.extname(request.url.split('?')[0] ?? '');
    if (isPage && hasBuild) {
      // A signed-out visit to the sign-in page gets the copy of index.html that already draws
      // that page (the web build's login.html), so it shows before the app's code has arrived.
      // A request with a session may be signed in and is sent elsewhere by the app: the plain
      // page. Both are revalidated; caches keep them apart by the cookie.
      if (hasSignInShell && request.url.split('?')[0] === SIGN_IN_PATH) {
        void reply.header('vary', 'Cookie');
        if (!request.cookies[SESSION_COOKIE]) return reply.sendFile('login.html', webDist);
      }
      return reply.sendFile('index.html', webDist);
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
