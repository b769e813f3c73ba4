import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/**
 * Security headers for every answer. The built app loads only its own scripts, so scripts are
 * 'self' alone; MUI's emotion injects <style> elements at run time, which needs inline styles.
 * In Cognito mode the browser talks to the regional Cognito endpoint directly.
 */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const connectSrc = ["'self'"];
  if (config.cognito) connectSrc.push(`https://cognito-idp.${config.cognito.region}.amazonaws.com`);
  await app.register(helmet, {
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

  // API answers carry patient data: never cached by the browser or a proxy.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') || request.url.startsWith('/cognito')) {
      void reply.header('cache-control', 'no-store');
      void reply.header('pragma', 'no-cache');
    }
    return payload;
  });
}
