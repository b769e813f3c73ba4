import type { FastifyRateLimitOptions } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';

/**
 * A route's ceiling for machine callers (device clouds, EHRs), which the per-address API ceiling
 * above does not fit: one vendor posts for a whole fleet from a few addresses. Counted per source
 * the request names (`sourceOf`: the webhook's path, a FHIR Bearer key), together with the
 * sending address so that nobody else can use up a source's allowance by naming it; per address
 * when it names none (staff sessions, anonymous calls). Applies to /fhir too, outside /api/.
 */
export function sourceRateLimit(
  max: number,
  sourceOf: (request: FastifyRequest) => string | null,
): FastifyRateLimitOptions {
  return {
    max,
    timeWindow: '1 minute',
    allowList: () => false,
    keyGenerator: (request: FastifyRequest) => {
      const source = sourceOf(request);
      return source ? `source:${source}:${request.ip}` : `address:${request.ip}`;
    },
  };
}
