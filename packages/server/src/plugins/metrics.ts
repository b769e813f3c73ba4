import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { poolUsage } from '../db/pool.ts';

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

/**
 * Records every answer, and serves the registry at /metrics only when a token is configured and
 * only to a caller presenting it (`Authorization: Bearer <token>`): the route and status mix of a
 * clinical system is not public.
 */
export function installMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
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

  const expected = token ? Buffer.from(`Bearer ${token}`) : undefined;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    // Not configured: nothing here (and not the web app's page either).
    if (!expected) return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: 'Not found' });
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return reply.status(401).header('www-authenticate', 'Bearer').send({ statusCode: 401, message: 'Unauthorized' });
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
