import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { LocalPool } from './local-pool.ts';
import { isAdminOperation } from './pool/dispatcher.ts';
import { AMZ_JSON, CognitoError, Errors, TARGET_PREFIX, parseBody, type Body } from './protocol.ts';

/**
 * HTTP face of the local pool: `POST /cognito` speaking Cognito's JSON protocol (the operation is
 * named by X-Amz-Target), and the public keys at `/<poolId>/.well-known/jwks.json`.
 * Request bodies are never logged: they carry passwords.
 */
export function localPoolPlugin(pool: LocalPool): FastifyPluginAsync {
  return async (app) => {
    // Raw bytes: admin calls are signed over the exact body. Scoped to this plugin only.
    if (app.hasContentTypeParser(AMZ_JSON)) app.removeContentTypeParser(AMZ_JSON);
    app.addContentTypeParser(AMZ_JSON, { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const target = request.headers['x-amz-target'];
      const op = typeof target === 'string' && target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : '';
      try {
        const { json, raw } = parseBody(request.body);
        if (isAdminOperation(op)) {
          const signed =
            raw !== null &&
            (await pool.verifyAdminSignature({ method: request.method, url: request.url, headers: request.headers, body: raw }));
          if (!signed) throw Errors.unrecognizedClient();
        }
        const userAgent = request.headers['user-agent'];
        const result = await pool.operation(op, json, {
          ip: request.ip,
          userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null,
          requestId: request.id,
        });
        return send(request, reply, 200, result);
      } catch (err) {
        if (err instanceof CognitoError) {
          request.log.info({ op, error: err.type }, 'user pool call refused');
          return send(request, reply, err.statusCode, { __type: err.type, message: err.message }, err.type);
        }
        // Only the message: an error object may carry the values of the failed query.
        request.log.error({ op, error: (err as Error).message }, 'user pool call failed');
        const internal = Errors.internal();
        return send(request, reply, internal.statusCode, { __type: internal.type, message: internal.message }, internal.type);
      }
    };
    app.post('/cognito', handler);
    app.post('/cognito/', handler);

    app.get(`/${pool.poolId}/.well-known/jwks.json`, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').send(pool.jwks()),
    );
  };
}

function send(request: FastifyRequest, reply: FastifyReply, status: number, body: Body, errorType?: string) {
  void reply.code(status).header('content-type', AMZ_JSON).header('x-amzn-requestid', request.id);
  if (errorType) void reply.header('x-amzn-errortype', errorType);
  return reply.send(JSON.stringify(body));
}
