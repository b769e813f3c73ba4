import rateLimit, { type FastifyRateLimitOptions, type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { createRequire } from 'node:module';
import type { Config } from '../config.ts';
import type { Metrics } from './metrics.ts';

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1];
type RouteOptions = Parameters<FastifyRateLimitStore['child']>[0];
interface StoreCtor {
  new (...args: unknown[]): FastifyRateLimitStore;
}

// The package's own stores (not in its typings): the shared one, and the per-process one.
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreCtor;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreCtor;

const NAMESPACE = 'rpm-rl-';

/**
 * A per-IP ceiling on API calls, answered with a clear 429. With REDIS_URL the counters are
 * shared by every instance behind the load balancer; otherwise each process counts alone.
 */
export async function registerRateLimit(app: FastifyInstance, config: Config, metrics: Metrics): Promise<void> {
  // Loaded only when configured: a single instance without Redis need not pay for the client.
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, {
        connectTimeout: 2000,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        // Keep trying for ever, at most every 2 s: Redis coming back must need no restart.
        retryStrategy: (times) => Math.min(times * 100, 2000),
      })
    : undefined;
  if (redis) app.addHook('onClose', async () => void redis.disconnect());
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: '1 minute',
    ...(redis ? { store: sharedWithFallback(redis, app.log, metrics) } : {}),
    skipOnError: false,
    allowList: (request) => !request.url.startsWith('/api/'),
  });
}

/**
 * Redis only shares the counters; it must never take the portal down. While it cannot be reached
 * each instance counts on its own (said once in the log, counted in the metrics), and the shared
 * counters take over again when it answers.
 */
function sharedWithFallback(redis: Redis, log: FastifyBaseLogger, metrics: Metrics) {
  let degraded = false;
  const countLocally = () => metrics.rateLimitFallbacks.inc();
  // Said when Redis fails (a connection or a command error), not while the first connect is made.
  const degrade = (reason: string) => {
    if (degraded) return;
    degraded = true;
    log.warn({ reason }, 'Redis unreachable: rate limits are counted per instance until it is back');
  };
  redis.on('error', (err: Error) => degrade(err.message));
  redis.on('ready', () => {
    if (!degraded) return;
    degraded = false;
    log.info('Redis reachable again: rate limits are shared again');
  });

  class FallbackStore implements FastifyRateLimitStore {
    private readonly shared: FastifyRateLimitStore;
    private readonly local: FastifyRateLimitStore;

    constructor(
      options: FastifyRateLimitOptions,
      inner?: { shared: FastifyRateLimitStore; local: FastifyRateLimitStore },
    ) {
      // The plugin passes its resolved settings, which carry these two flags.
      const { continueExceeding, exponentialBackoff } = options as {
        continueExceeding?: boolean;
        exponentialBackoff?: boolean;
      };
      this.shared = inner?.shared ?? new RedisStore(continueExceeding, exponentialBackoff, redis, NAMESPACE);
      this.local = inner?.local ?? new LocalStore(continueExceeding, exponentialBackoff);
    }

    incr(key: string, callback: IncrCallback, timeWindow: number, max: number): void {
      if (redis.status !== 'ready') {
        countLocally();
        this.local.incr(key, callback, timeWindow, max);
        return;
      }
      this.shared.incr(
        key,
        (err, result) => {
          if (!err) return callback(null, result);
          degrade(err.message);
          countLocally();
          this.local.incr(key, callback, timeWindow, max);
        },
        timeWindow,
        max,
      );
    }

    child(routeOptions: RouteOptions): FastifyRateLimitStore {
      return new FallbackStore({}, { shared: this.shared.child(routeOptions), local: this.local.child(routeOptions) });
    }
  }
  return FallbackStore;
}
