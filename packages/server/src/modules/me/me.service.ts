import { ApiErrors, type CurrentUser } from '@rpm/contracts';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import type { Identity } from '../../identity/index.ts';
import { HttpError, conflict } from '../../plugins/errors.ts';
import type { RequestContext, SignedInContext } from '../../plugins/context.ts';
import { audit } from '../audit/audit.service.ts';
import { createSession, endSession } from '../sessions/sessions.service.ts';
import { findCurrentUser, findUserByIdentity, linkSubject, setMfaEnabled } from './me.repository.ts';

export interface MeDeps {
  db: pg.Pool;
  identity: Identity;
}

/**
 * POST /api/token: trades a user-pool access token for a portal session. Every outcome is
 * audited; a failure never says more than "not allowed" to the caller.
 */
export async function exchangeToken(
  deps: MeDeps,
  ctx: RequestContext,
  token: string,
): Promise<{ sessionToken: string; user: CurrentUser }> {
  let identity: { sub: string; username: string };
  try {
    identity = await deps.identity.verifyAccessToken(token);
  } catch (err) {
    await audit(deps.db, ctx, {
      action: 'auth.token_exchange',
      outcome: 'failure',
      reason: `invalid access token: ${(err as Error).name}`,
    });
    throw new HttpError(401, ApiErrors.unauthorized);
  }

  return withTransaction(deps.db, async (tx) => {
    const user = await findUserByIdentity(tx, identity.sub, identity.username);
    if (!user || user.status !== 'active') {
      await audit(tx, ctx, {
        action: 'auth.token_exchange',
        outcome: 'denied',
        targetUserId: user?.id ?? null,
        reason: user ? 'user disabled' : 'no portal user for this identity',
      });
      throw new HttpError(401, user ? ApiErrors.userDisabled : ApiErrors.userUnknown);
    }
    if (!user.cognito_sub) await linkSubject(tx, user.id, identity.sub);
    const sessionToken = await createSession(tx, { userId: user.id, ip: ctx.ip, userAgent: ctx.userAgent });
    await audit(tx, { ...ctx, actor: { id: user.id, email: user.email, role: user.role, organizationId: user.organization_id, cognitoUsername: identity.username } }, {
      action: 'auth.token_exchange',
      outcome: 'success',
      resourceType: 'session',
      targetUserId: user.id,
    });
    const { cognito_sub: _sub, ...currentUser } = user;
    return { sessionToken, user: currentUser };
  });
}

export async function logout(deps: MeDeps, ctx: RequestContext, sessionToken: string | null): Promise<void> {
  const userId = sessionToken ? await endSession(deps.db, sessionToken) : null;
  await audit(deps.db, ctx, {
    action: 'auth.logout',
    outcome: userId ? 'success' : 'failure',
    targetUserId: userId,
    reason: userId ? null : 'no live session',
  });
}

export async function getMe(deps: MeDeps, ctx: SignedInContext): Promise<CurrentUser> {
  const user = await findCurrentUser(deps.db, ctx.actor.id);
  if (!user) throw new HttpError(401, ApiErrors.unauthorized);
  return user;
}

/**
 * Keeps the portal's MFA flag in step with the user pool. The pool is asked first, so the flag
 * can only ever say what is true there.
 */
export async function updateMfa(deps: MeDeps, ctx: SignedInContext, enabled: boolean): Promise<CurrentUser> {
  const username = ctx.actor.cognitoUsername;
  const poolUser = username ? await deps.identity.directory.getUser(username) : null;
  if (!poolUser || poolUser.mfaEnabled !== enabled) {
    await audit(deps.db, ctx, {
      action: 'user.mfa_update',
      outcome: 'failure',
      targetUserId: ctx.actor.id,
      details: { enabled },
      reason: 'user pool disagrees',
    });
    throw conflict(`MFA is ${poolUser?.mfaEnabled ? 'enabled' : 'not enabled'} in the user pool`);
  }
  return withTransaction(deps.db, async (tx) => {
    const user = await setMfaEnabled(tx, ctx.actor.id, enabled);
    await audit(tx, ctx, {
      action: 'user.mfa_update',
      outcome: 'success',
      targetUserId: ctx.actor.id,
      details: { enabled },
    });
    return user!;
  });
}
