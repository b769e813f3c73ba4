import { ApiErrors, BillingErrors, DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '@rpm/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, isClosedMonthRefusal, isDatabaseUnavailable } from '../kernel/errors.ts';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * Every error leaves as `{statusCode, error, message, requestId}`. Client errors keep their
 * message (Fastify's and ours are written for callers); anything else becomes a plain 500 whose
 * details go only to the log, so no stack trace or SQL ever reaches a caller. A database that is
 * away for a moment (restart, failover) is a 503 with Retry-After: nothing of the request was
 * committed, and a device cloud or browser that retries the same call loses nothing (readings
 * are kept once by their measurement key).
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // The services check a closed month first; the database's triggers are the backstop for any
    // path that did not, and their refusal is the caller's conflict, not the server's failure.
    const closedMonth = isClosedMonthRefusal(error);
    const status = closedMonth ? 409 : error instanceof HttpError ? error.statusCode : (error.statusCode ?? 500);
    const clientError = status >= 400 && status < 500;
    if (!clientError && isDatabaseUnavailable(error)) {
      request.log.warn({ error: error.message }, 'request failed: database unavailable');
      void reply
        .header('retry-after', String(DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS))
        .status(503)
        .send(errorBody(503, ApiErrors.unavailable, request));
      return;
    }
    if (!clientError) request.log.error({ err: error }, 'request failed');
    let message = closedMonth ? BillingErrors.monthClosed : clientError ? error.message : ApiErrors.internal;
    if (error.validation) message = `Invalid request: ${error.message}`;
    if (status === 429) message = ApiErrors.rateLimited;
    const answered = clientError ? status : 500;
    void reply.status(answered).send(errorBody(answered, message, request));
  });
}

/** Every error answer's body: status, its name, the message, and the request id to quote. */
function errorBody(status: number, message: string, request: FastifyRequest) {
  return { statusCode: status, error: STATUS_TEXT[status] ?? 'Error', message, requestId: request.id };
}

/**
 * Fastify's own answers for an address its router cannot take (bad percent-encoding, a path part
 * longer than maxParamLength) are written before any hook, in another shape, and repeat the
 * address back. Passed as the server's `frameworkErrors`, they leave like every other error:
 * the shape above, the request id, and nothing of what was sent.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const known: Record<string, [number, string]> = {
    FST_ERR_BAD_URL: [400, ApiErrors.badAddress],
    FST_ERR_MAX_PARAM_LENGTH: [414, ApiErrors.addressPartTooLong],
  };
  const [status, message] = known[error.code] ?? [500, ApiErrors.internal];
  if (status === 500) request.log.error({ err: error }, 'request failed');
  // No hook runs for these answers: the headers every other answer gets are set here.
  void reply
    .headers({ ...reply.server.securityHeaders, 'x-request-id': request.id, 'cache-control': 'no-store' })
    .status(status)
    .send(errorBody(status, message, request));
}
