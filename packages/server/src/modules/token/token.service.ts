import { ApiErrors, type CurrentUser } from '@rpm/contracts';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import type { Identity, VerifiedAccessToken } from '../identity/index.ts';
import { HttpError } from '../../kernel/errors.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import { actorOf } from '../../policies/actor.ts';
import { mayOpenSession } from '../../policies/sessions.ts';
import { presentCurrentUser } from '../me/index.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { linkIdentity, recordPoolMfa, userOfIdentity } from '../me/index.ts';
import { exchangeBlocked, recordExchangeFailure } from './exchange-failures.ts';
import { createSession, endSession } from '../sessions/index.ts';

export interface TokenDeps {
  db: pg.Pool;
  identity: Identity;
}

/**
 * POST /api/token: trades a user-pool access token for a portal session. One access token opens
 * at most one session, and only while its sign-in is younger than the absolute limit. Failures
 * say no more than "not allowed"; they are rate-limited per address and counted, and audited only
 * when they name a real user (a flood of junk tokens must not become a flood of audit rows).
 */
export async function exchangeToken(
  deps: TokenDeps,
  ctx: RequestContext,
  token: string,
  /** The session the browser's cookie names now, if any: a reload replaces it. */
  replacing: string | null = null,
): Promise<{ sessionToken: string; user: CurrentUser }> {
  if (exchangeBlocked(ctx.ip)) throw new HttpError(429, ApiErrors.rateLimited);
  let identity: VerifiedAccessToken;
  try {
    identity = await deps.identity.verifyAccessToken(token);
  } catch {
    recordExchangeFailure(ctx.ip, 'invalid_token');
    throw new HttpError(401, ApiErrors.unauthorized);
  }
  const poolMfa = await poolMfaState(deps, identity.username);

  const outcome = await withTransaction(deps.db, async (tx) => {
    const user = await userOfIdentity(tx, identity);
    if (!user || !mayOpenSession(user))
      return { ok: false as const, denied: user ? ('user_disabled' as const) : ('unknown_user' as const), user };
    if (!user.cognito_sub) await linkIdentity(tx, user.id, identity.sub);
    const session = await createSession(tx, {
      userId: user.id,
      claims: { jti: identity.jti, authTime: identity.authTime, originJti: identity.originJti },
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      replacing,
    });
    if (!session.ok) return { ok: false as const, denied: session.reason, user };
    // The pool is the truth about MFA: a user who set it up while signing in has it on now.
    const current = poolMfa !== null && poolMfa !== user.mfa_enabled ? await recordPoolMfa(tx, user.id, poolMfa) : null;
    const { id, email, role } = presentCurrentUser(user);
    const actor = actorOf({ id, email, role, organizationId: user.organization_id, cognitoUsername: identity.username });
    await audit(
      tx,
      { ...ctx, actor },
      {
        action: 'auth.token_exchange',
        outcome: 'success',
        resourceType: 'session',
        targetUserId: user.id,
        details: {
          ...(session.endedForLimit ? { sessions_ended_for_limit: session.endedForLimit } : {}),
          ...(current ? { mfa_enabled: current.mfa_enabled } : {}),
        },
      },
    );
    return { ok: true as const, sessionToken: session.token, user: presentCurrentUser(current ?? user) };
  });

  if (outcome.ok) return { sessionToken: outcome.sessionToken, user: outcome.user };
  recordExchangeFailure(ctx.ip, outcome.denied);
  if (outcome.user) {
    await audit(deps.db, ctx, {
      action: 'auth.token_exchange',
      outcome: 'denied',
      targetUserId: outcome.user.id,
      reason: DENIAL_REASONS[outcome.denied],
    });
  }
  throw new HttpError(401, DENIAL_MESSAGES[outcome.denied]);
}

const DENIAL_REASONS = {
  unknown_user: 'no portal user for this identity',
  user_disabled: 'user disabled',
  replayed: 'access token already used for a session',
  sign_in_too_old: 'sign-in older than the absolute session limit',
} as const;

const DENIAL_MESSAGES = {
  unknown_user: ApiErrors.userUnknown,
  user_disabled: ApiErrors.userDisabled,
  replayed: ApiErrors.unauthorized,
  sign_in_too_old: ApiErrors.signInTooOld,
} as const;

/** The pool's MFA state, or null when the pool cannot say right now (the portal's flag stands). */
async function poolMfaState(deps: TokenDeps, username: string): Promise<boolean | null> {
  try {
    return (await deps.identity.directory.getUser(username))?.mfaEnabled ?? null;
  } catch {
    return null;
  }
}

/**
 * Ends the session of the cookie and the pool sign-in it was opened with, so that the sign-in's
 * refresh token cannot mint a new session. The page-close beacon (`keepSignIn`) ends the session
 * only: it cannot tell a reload from a close, and a reload opens a new session from the tab's
 * sign-in (whose tokens live in the tab's own storage and die with it). A logout without a live
 * session changes nothing and leaves no record.
 */
export async function logout(
  deps: TokenDeps,
  ctx: RequestContext,
  sessionToken: string | null,
  { keepSignIn = false }: { keepSignIn?: boolean } = {},
): Promise<void> {
  const ended = sessionToken ? await endSession(deps.db, sessionToken) : null;
  if (!ended) return;
  let signInRevoked = false;
  if (!keepSignIn && ended.signInId && deps.identity.revokeSignIn) {
    try {
      await deps.identity.revokeSignIn(ended.signInId);
      signInRevoked = true;
    } catch {
      signInRevoked = false; // the portal session is over either way; the record says what held
    }
  }
  await audit(
    deps.db,
    { ...ctx, actor: ctx.actor ?? null },
    {
      action: 'auth.logout',
      outcome: 'success',
      targetUserId: ended.userId,
      details: { sign_in_revoked: signInRevoked, ...(keepSignIn ? { page_closed: true } : {}) },
    },
  );
}
