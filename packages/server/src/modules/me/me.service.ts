import { ApiErrors, type CurrentUser } from '@rpm/contracts';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import type { Identity } from '../identity/index.ts';
import { HttpError, conflict } from '../../kernel/errors.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { presentCurrentUser } from './current-user.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import type { Queryable } from '../../db/pool.ts';
import { findCurrentUser, findUserByIdentity, linkSubject, setMfaEnabled, syncMfaEnabled } from './me.repository.ts';

export interface MeDeps {
  db: pg.Pool;
  identity: Identity;
}

export async function getMe(deps: MeDeps, ctx: SignedInContext): Promise<CurrentUser> {
  const user = await findCurrentUser(deps.db, ctx.actor.id);
  if (!user) throw new HttpError(401, ApiErrors.unauthorized);
  return presentCurrentUser(user);
}

/**
 * Keeps the portal's MFA flag in step with the user pool. The pool is asked first, so the flag
 * can only ever say what is true there.
 */
export async function updateMfa(deps: MeDeps, ctx: SignedInContext, enabled: boolean): Promise<CurrentUser> {
  const username = ctx.actor.cognitoUsername;
  const poolUser = username ? await deps.identity.directory.getUser(username) : null;
  if (!poolUser || poolUser.mfaEnabled !== enabled) {
    // The portal's flag follows the pool even when the request got it wrong.
    if (poolUser) await syncMfaEnabled(deps.db, ctx.actor.id, poolUser.mfaEnabled);
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
    return presentCurrentUser(user!);
  });
}

/** The portal user behind a pool identity (by subject, then by the pool's username), for the token exchange. */
export async function userOfIdentity(tx: Queryable, identity: { sub: string; username: string }) {
  return findUserByIdentity(tx, identity.sub, identity.username);
}

/** Links the pool's subject to the user on their first sign-in (never replaces one). */
export async function linkIdentity(tx: Queryable, userId: number, sub: string): Promise<void> {
  await linkSubject(tx, userId, sub);
}

/** Records the pool's MFA state as the portal's copy; the user as it is then (null if gone). */
export async function recordPoolMfa(tx: Queryable, userId: number, enabled: boolean) {
  return setMfaEnabled(tx, userId, enabled);
}
