import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';

/**
 * A per-IP ceiling on API calls, answered with a clear 429. With REDIS_URL the counters are
 * shared by every instance behind the load balancer; otherwise each process counts alone.
 */
export async function registerRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  if (redis) app.addHook('onClose', async () => void redis.disconnect());
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: '1 minute',
    redis,
    nameSpace: 'rpm-rl-',
    skipOnError: false,
    allowList: (request) => !request.url.startsWith('/api/'),
  });
}
