import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The headers every answer carries, for answers written outside the hooks (errors.ts). */
    securityHeaders: Readonly<Record<string, string>>;
  }
}

/**
 * Security headers for every answer. The built app loads only its own scripts, so scripts are
 * 'self' alone; MUI's emotion injects <style> elements at run time, which needs inline styles.
 * In Cognito mode the browser talks to the regional Cognito endpoint directly.
 *
 * Helmet's headers are worked out once, at start: its Fastify wrapper rebuilt the whole middleware
 * (parsing the policy again) on every request, and even a prebuilt middleware sets each header
 * through Node's checks, together about a tenth of the CPU an API read costs. The headers do not
 * depend on the request (no nonces), so the same list goes on every answer.
 */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const connectSrc = ["'self'"];
  if (config.cognito) connectSrc.push(`https://cognito-idp.${config.cognito.region}.amazonaws.com`);
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc,
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
      },
    },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  });
  const headers = helmetHeaders(middleware);
  app.decorate('securityHeaders', headers);
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(headers);
    done();
  });

  // API answers carry patient data: never cached by the browser or a proxy.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api/') || request.url.startsWith('/cognito')) {
      void reply.header('cache-control', 'no-store');
      void reply.header('pragma', 'no-cache');
    }
    done(null, payload);
  });
}

/** The headers a helmet middleware sets, read by running it once against a recording response. */
function helmetHeaders(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    // It removes X-Powered-By, which Node never sets.
    removeHeader: () => {},
  };
  let finished = false;
  middleware({} as never, recorder as never, () => (finished = true));
  if (!finished) throw new Error('helmet did not finish synchronously');
  return headers;
}
