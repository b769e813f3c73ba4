import type { FastifyRequest } from 'fastify';
import type { Access, Actor } from '../policies/actor.ts';

/** What services need to know about the request for access checks and audit records. */
export interface RequestContext {
  actor: Actor | null;
  ip: string;
  userAgent: string | null;
  requestId: string;
}

export type SignedInContext = RequestContext & { actor: Actor };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** The page-close logout beacon cannot set headers; it is the one CSRF exception. */
    csrfExempt?: boolean;
    /**
     * `false`: the request does not slide the session's idle window (a stream the browser reopens
     * by itself is not the person's activity). Every other request does.
     */
    slidesIdle?: false;
  }
  interface FastifyRequest {
    actor: Actor | null;
    sessionToken: string | null;
  }
}

export function contextOf(request: FastifyRequest): RequestContext {
  return {
    actor: request.actor,
    ip: request.ip,
    userAgent: truncate(request.headers['user-agent'], 512),
    requestId: request.id,
  };
}

/** For handlers behind `signed-in` or `admin` access: the access hook guarantees an actor. */
export function signedInContextOf(request: FastifyRequest): SignedInContext {
  const ctx = contextOf(request);
  if (!ctx.actor) throw new Error('signed-in route reached without an actor');
  return ctx as SignedInContext;
}

function truncate(value: string | undefined, max: number): string | null {
  if (value === undefined) return null;
  return value.length > max ? value.slice(0, max) : value;
}
