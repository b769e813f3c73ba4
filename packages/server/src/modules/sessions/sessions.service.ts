import { hash, randomBytes } from 'node:crypto';
import {
  IDLE_TIMEOUT_MS,
  MAX_SESSIONS_PER_USER,
  SESSION_ABSOLUTE_LIFETIME_MS,
  SESSION_TOUCH_INTERVAL_MS,
} from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';
import type { Actor } from '../../policies/actor.ts';
import { presentActor } from './sessions.presenter.ts';
import {
  announceSessionsEnded,
  endSessionsBeyond,
  insertSession,
  lockUserSessions,
  pruneSessions,
  readSessionWindow,
  revokeSession,
  revokeSessionsOfIdentity,
  revokeUserSessions,
  tokenAlreadyUsed,
  touchLiveSession,
  type EndReason,
  revokeReplacedSession,
} from './sessions.repository.ts';

export type { EndReason } from './sessions.repository.ts';
/** The channel on which every instance hears of ended sessions (the alert streams close theirs). */
export { SESSION_END_CHANNEL } from './sessions.repository.ts';

/** Only this hash is stored: a leaked sessions table cannot be turned back into cookies. */
// One-shot hashing: no Hash object per request (this runs on every API call).
const hashToken = (token: string): Buffer => hash('sha256', token, 'buffer');

/** The sign-in an access token stands for, as the pool's verifier read it. */
export interface SignInClaims {
  /** The access token's own id: one token opens at most one session. */
  jti: string;
  /** When the person proved who they are; the session cannot outlive it by more than the limit. */
  authTime: Date;
  /** The pool's sign-in (refresh token) the access token descends from, when the pool says. */
  originJti: string | null;
}

export type OpenSessionResult =
  { ok: true; token: string; endedForLimit: number } | { ok: false; reason: 'replayed' | 'sign_in_too_old' };

/**
 * Opens a portal session for one sign-in: at most one per access token, ending at the sign-in's
 * time plus the absolute limit (not the cookie's), and at most MAX_SESSIONS_PER_USER live ones
 * per user (the oldest ends). Call inside the transaction that audits the exchange.
 */
export async function createSession(
  tx: Queryable,
  input: { userId: number; claims: SignInClaims; ip: string; userAgent: string | null; replacing?: string | null },
): Promise<OpenSessionResult> {
  await lockUserSessions(tx, input.userId);
  if (await tokenAlreadyUsed(tx, input.claims.jti)) return { ok: false, reason: 'replayed' };
  const token = randomBytes(32).toString('base64url'); // 256 bits
  const inserted = await insertSession(tx, {
    idHash: hashToken(token),
    userId: input.userId,
    authTime: input.claims.authTime,
    lifetimeMs: SESSION_ABSOLUTE_LIFETIME_MS,
    tokenJti: input.claims.jti,
    signInId: input.claims.originJti,
    ip: input.ip,
    userAgent: input.userAgent,
  });
  // No row: either the sign-in is too old, or a concurrent exchange of the same token won.
  if (!inserted) {
    return { ok: false, reason: (await tokenAlreadyUsed(tx, input.claims.jti)) ? 'replayed' : 'sign_in_too_old' };
  }
  // The page-close beacon is best effort: a reload that opens a new session with the same sign-in
  // ends the session its cookie still names, whether or not the beacon arrived.
  if (input.replacing && input.claims.originJti) {
    await revokeReplacedSession(tx, hashToken(input.replacing), input.userId, input.claims.originJti);
  }
  const endedForLimit = await endSessionsBeyond(tx, input.userId, MAX_SESSIONS_PER_USER, IDLE_TIMEOUT_MS);
  if (endedForLimit > 0 || input.replacing) await announceSessionsEnded(tx, input.userId);
  return { ok: true, token, endedForLimit };
}

const wellFormed = (token: string): boolean => /^[\w-]{20,100}$/.test(token);

/**
 * The actor of a live session. `slide: false` leaves its idle window where it is: a request that
 * is not the person's activity (the alerts stream, which the browser reopens by itself) must not
 * keep a session alive.
 */
export async function resolveSession(
  db: Queryable,
  token: string,
  opts: { slide?: boolean } = {},
): Promise<Actor | null> {
  if (!wellFormed(token)) return null;
  // A touch interval longer than the idle window never touches a live session: the same prepared
  // statement, without the write.
  const touchMs = opts.slide === false ? IDLE_TIMEOUT_MS + 1 : SESSION_TOUCH_INTERVAL_MS;
  const row = await touchLiveSession(db, hashToken(token), IDLE_TIMEOUT_MS, touchMs);
  return row ? presentActor(row) : null;
}

/** A key for the session of this cookie, to group what belongs to it in memory; never the cookie. */
export function sessionKeyOf(token: string): string {
  return hashToken(token).toString('base64url');
}

/**
 * The milliseconds left before the session of this cookie idles out or reaches its absolute end,
 * or null when it is not live (ended, expired, or its user disabled). Does not slide it.
 */
export async function sessionTimeLeft(db: Queryable, token: string): Promise<number | null> {
  if (!wellFormed(token)) return null;
  const row = await readSessionWindow(db, hashToken(token), IDLE_TIMEOUT_MS);
  return row ? Math.max(0, row.remaining_ms) : null;
}

/** Ends the session of this cookie; answers its user and pool sign-in, or null if none was live. */
export async function endSession(
  db: Queryable,
  token: string,
): Promise<{ userId: number; signInId: string | null } | null> {
  if (!wellFormed(token)) return null;
  const ended = await revokeSession(db, hashToken(token));
  if (ended) await announceSessionsEnded(db, ended.userId);
  return ended;
}

export async function endAllSessionsOf(db: Queryable, userId: number, reason: EndReason = 'disabled'): Promise<number> {
  const ended = await revokeUserSessions(db, userId, reason);
  // Also when none was live: a disabled user's streams must read their session again.
  await announceSessionsEnded(db, userId);
  return ended;
}

/**
 * The user pool's account changes end the portal sessions of that account: a password reset and
 * a global sign-out end all of them, a password change all but those of the sign-in that made it.
 */
export async function endSessionsOfIdentity(
  db: Queryable,
  e: {
    sub: string;
    username: string;
    reason: 'password_reset' | 'password_change' | 'global_sign_out';
    keepSignInId?: string;
  },
): Promise<{ userId: number; ended: number } | null> {
  const ended = await revokeSessionsOfIdentity(
    db,
    e,
    e.reason,
    e.reason === 'password_change' ? (e.keepSignInId ?? null) : null,
  );
  if (ended?.ended) await announceSessionsEnded(db, ended.userId);
  return ended;
}

/** Housekeeping: deletes session rows a day past their end. */
export async function pruneEndedSessions(db: Queryable): Promise<number> {
  return pruneSessions(db, IDLE_TIMEOUT_MS);
}
