import { hash, timingSafeEqual } from 'node:crypto';
import { METRICS_RATE_LIMIT_PER_MINUTE } from '@rpm/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { poolUsage } from '../db/pool.ts';
import { sourceRateLimit } from '../kernel/source-rate-limit.ts';

/** The portal's Prometheus metrics, one registry per app (tests run several apps in one process). */
export interface Metrics {
  registry: Registry;
  requestDuration: Histogram<'method' | 'route' | 'status'>;
  signInFailures: Counter<'stage'>;
  rateLimitFallbacks: Counter;
}

export function createMetrics(pool: pg.Pool): Metrics {
  const registry = new Registry();
  const requestDuration = new Histogram({
    name: 'rpm_http_request_duration_seconds',
    help: 'HTTP request duration by route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const signInFailures = new Counter({
    name: 'rpm_sign_in_failures_total',
    help: 'Refused sign-in steps: at the user pool, or trading its token for a portal session',
    labelNames: ['stage'] as const,
    registers: [registry],
  });
  const rateLimitFallbacks = new Counter({
    name: 'rpm_rate_limit_local_fallback_total',
    help: 'Rate-limit checks counted per instance because Redis could not be reached',
    registers: [registry],
  });
  new Gauge({
    name: 'rpm_db_pool_connections_in_use',
    help: 'Database connections checked out of the pool',
    registers: [registry],
    collect() {
      this.set(poolUsage(pool).inUse);
    },
  });
  new Gauge({
    name: 'rpm_db_pool_waiting',
    help: 'Requests waiting for a database connection',
    registers: [registry],
    collect() {
      this.set(poolUsage(pool).waiting);
    },
  });
  return { registry, requestDuration, signInFailures, rateLimitFallbacks };
}

const SIGN_IN_TARGETS = /InitiateAuth|RespondToAuthChallenge/;

function signInStage(request: FastifyRequest): string | null {
  const route = request.routeOptions.url;
  if (route === '/api/token') return 'token_exchange';
  if (route?.startsWith('/cognito') && SIGN_IN_TARGETS.test(String(request.headers['x-amz-target'] ?? ''))) {
    return 'user_pool';
  }
  return null;
}

/** Records every answer, from the first hook on, so that refusals by later hooks count too. */
export function installMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    metrics.requestDuration.observe(
      { method: request.method, route, status: String(status) },
      reply.elapsedTime / 1000,
    );
    if (status >= 400 && status !== 429) {
      const stage = signInStage(request);
      if (stage) metrics.signInFailures.inc({ stage });
    }
    done();
  });
}

// Digests of equal length: the comparison takes the same time whatever was sent, its length too.
const digest = (value: string): Buffer => hash('sha256', value, 'buffer');

/**
 * Serves the registry at /metrics only when a token is configured and only to a caller presenting
 * it (`Authorization: Bearer <token>`, the scheme in any case as RFC 7235 says): the route and
 * status mix of a clinical system is not public. Registered after the rate-limit plugin, which
 * only limits routes added after it; counted per address, since a scraper sends no session.
 */
export function serveMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  const expected = token ? digest(token) : undefined;
  app.get(
    '/metrics',
    { schema: { hide: true }, config: { rateLimit: sourceRateLimit(METRICS_RATE_LIMIT_PER_MINUTE, () => null) } },
    async (request, reply) => {
      // Not configured: nothing here (and not the web app's page either).
      if (!expected) return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: 'Not found' });
      const credentials = /^bearer +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (credentials === undefined || !timingSafeEqual(digest(credentials), expected)) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer')
          .send({ statusCode: 401, message: 'Unauthorized' });
      }
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    },
  );
}
