import { hash, randomBytes } from 'node:crypto';
import { IDLE_TIMEOUT_MS, MAX_SESSIONS_PER_USER, SESSION_ABSOLUTE_LIFETIME_MS, SESSION_TOUCH_INTERVAL_MS } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';
import type { Actor } from '../../plugins/context.ts';
import { presentActor } from '../../presenters/actor.ts';
import {
  endSessionsBeyond,
  insertSession,
  lockUserSessions,
  pruneSessions,
  revokeSession,
  revokeSessionsOfIdentity,
  revokeUserSessions,
  tokenAlreadyUsed,
  touchLiveSession,
  type EndReason,
  revokeReplacedSession,
} from './sessions.repository.ts';

export type { EndReason } from './sessions.repository.ts';

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
  | { ok: true; token: string; endedForLimit: number }
  | { ok: false; reason: 'replayed' | 'sign_in_too_old' };

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
  return { ok: true, token, endedForLimit };
}

export async function resolveSession(db: Queryable, token: string): Promise<Actor | null> {
  if (!/^[\w-]{20,100}$/.test(token)) return null;
  const row = await touchLiveSession(db, hashToken(token), IDLE_TIMEOUT_MS, SESSION_TOUCH_INTERVAL_MS);
  return row ? presentActor(row) : null;
}

/** Ends the session of this cookie; answers its user and pool sign-in, or null if none was live. */
export async function endSession(db: Queryable, token: string): Promise<{ userId: number; signInId: string | null } | null> {
  if (!/^[\w-]{20,100}$/.test(token)) return null;
  return revokeSession(db, hashToken(token));
}

export async function endAllSessionsOf(db: Queryable, userId: number, reason: EndReason = 'disabled'): Promise<number> {
  return revokeUserSessions(db, userId, reason);
}

/**
 * The user pool's account changes end the portal sessions of that account: a password reset and
 * a global sign-out end all of them, a password change all but those of the sign-in that made it.
 */
export async function endSessionsOfIdentity(
  db: Queryable,
  e: { sub: string; username: string; reason: 'password_reset' | 'password_change' | 'global_sign_out'; keepSignInId?: string },
): Promise<{ userId: number; ended: number } | null> {
  return revokeSessionsOfIdentity(db, e, e.reason, e.reason === 'password_change' ? (e.keepSignInId ?? null) : null);
}

/** Housekeeping: deletes session rows a day past their end. */
export async function pruneEndedSessions(db: Queryable): Promise<number> {
  return pruneSessions(db, IDLE_TIMEOUT_MS);
}
