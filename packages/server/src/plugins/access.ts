import { ApiErrors, CSRF_HEADER, CSRF_HEADER_VALUE, SESSION_COOKIE } from '@rpm/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { mayCallRoute } from '../policies/routes.ts';
import { contextOf, type RequestContext } from '../kernel/request-context.ts';
import type { Access, Actor } from '../policies/actor.ts';

/** Every API route as registered, for the access-matrix and generated-input tests. */
export interface ApiRoute {
  method: string;
  url: string;
  access: Access;
  schema: FastifySchema | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    apiRoutes: ApiRoute[];
  }
}

/**
 * What the hook needs from the modules, passed in by app.ts so that plugins depend on no module:
 * how a session cookie becomes an actor, and how a refused call is recorded.
 */
export interface AccessControlDeps {
  resolveSession: (token: string, opts: { slide: boolean }) => Promise<Actor | null>;
  recordRefusal: (ctx: RequestContext, refusal: { route: string; reason: string }) => Promise<void>;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Access control for the API, run as the first hook of every request, before body parsing and
 * validation: CSRF header, then session, then role. Each /api route must declare its access in
 * `config.access`; a route without one stops the server at start-up rather than being open.
 */
export function installAccessControl(app: FastifyInstance, deps: AccessControlDeps): void {
  app.decorateRequest('actor', null);
  app.decorateRequest('sessionToken', null);
  const apiRoutes: ApiRoute[] = [];
  app.decorate('apiRoutes', apiRoutes);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') && !route.url.startsWith('/fhir/')) return;
    if (!route.config?.access) {
      throw new Error(`route ${String(route.method)} ${route.url} does not declare its access`);
    }
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      apiRoutes.push({ method, url: route.url, access: route.config.access, schema: route.schema });
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    const access = config?.access;
    if (!access) return; // not an API route (static files, the user pool's own endpoint)

    // Machine callers send no browser headers and authenticate with a secret, which a cross-site
    // page cannot attach; their services check it.
    if (STATE_CHANGING.has(request.method) && !config.csrfExempt && access !== 'machine') {
      if (request.headers[CSRF_HEADER] !== CSRF_HEADER_VALUE) {
        return deny(reply, request, 403, ApiErrors.csrf);
      }
    }

    const token = request.cookies[SESSION_COOKIE];
    if (token) {
      request.sessionToken = token;
      request.actor = await deps.resolveSession(token, { slide: config.slidesIdle !== false });
    }
    if (mayCallRoute(request.actor, access)) return;

    // Public and machine routes always pass: a refusal without an actor means "sign in first".
    if (!request.actor) {
      return deny(reply, request, 401, token ? ApiErrors.sessionExpired : ApiErrors.unauthorized);
    }
    await deps.recordRefusal(contextOf(request), {
      route: `${request.method} ${request.routeOptions.url}`,
      reason: 'admin role required',
    });
    return deny(reply, request, 403, ApiErrors.forbidden);
  });
}

function deny(reply: FastifyReply, request: FastifyRequest, status: number, message: string) {
  return reply.status(status).send({
    statusCode: status,
    error: status === 401 ? 'Unauthorized' : 'Forbidden',
    message,
    requestId: request.id,
  });
}
