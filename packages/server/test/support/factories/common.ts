import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Actor } from '../../../src/policies/actor.ts';
import type { SignedInContext } from '../../../src/kernel/request-context.ts';

export const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

/** A moment given as a Date, an ISO text, or an SQL interval back from now (`{ ago: '30 days' }`). */
export type Moment = Date | string | { ago: string };
export const momentSql = (m: Moment) =>
  m instanceof Date || typeof m === 'string'
    ? sql<Date>`${m instanceof Date ? m.toISOString() : m}::timestamptz`
    : sql<Date>`now() - ${m.ago}::interval`;

/** What a service receives for a request of `actor`; the request id finds its audit records. */
export function contextOf(actor: Actor): SignedInContext {
  return { actor, ip: '127.0.0.1', userAgent: 'service-test', requestId: randomUUID() };
}
