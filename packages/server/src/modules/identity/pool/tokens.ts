import { randomUUID } from 'node:crypto';
import { withTransaction, type Queryable } from '../../../db/pool.ts';
import { Errors, type Body } from '../protocol.ts';
import * as refreshTokens from '../repositories/refresh-tokens.repository.ts';
import * as users from '../repositories/users.repository.ts';
import { hashToken, opaqueToken } from '../secrets.ts';
import { issueTokens, readAccessToken, type AccessClaims } from '../tokens.ts';
import { recordEvent, signedOut, type CallerInfo, type PoolContext } from './context.ts';
import { attributesOf, mfaSettingsOf } from './presenters.ts';

/**
 * Tokens: a sign-in's refresh token and the access and ID tokens it yields, their revocation
 * (one sign-in, or all of them: global sign-out), and the operations a signed-in user makes with
 * an access token alone.
 */

const REFRESH_TTL_SECONDS = 30 * 24 * 3600;

export type AuthResult = Record<string, string | number>;

/** A proven sign-in: its refresh token, its audit record and its first tokens. */
export async function completeSignIn(
  ctx: PoolContext,
  db: Queryable,
  user: users.UserRow,
  authTime: Date,
  caller: CallerInfo,
): Promise<AuthResult> {
  const refreshToken = opaqueToken(96);
  const id = randomUUID();
  await refreshTokens.insertRefreshToken(db, {
    id,
    hash: hashToken(refreshToken),
    username: user.username,
    clientId: ctx.clientId,
    authTime,
    ttlSeconds: REFRESH_TTL_SECONDS,
  });
  await recordEvent(ctx, db, caller, {
    action: 'auth.sign_in',
    outcome: 'success',
    username: user.username,
    byUser: true,
    details: { mfa: user.mfa_enabled && user.totp_secret !== null },
  });
  const tokens = await tokensFor(ctx, user, id, authTime);
  return { ...tokens, RefreshToken: refreshToken };
}

async function tokensFor(
  ctx: PoolContext,
  user: users.UserRow,
  originJti: string,
  authTime: Date,
): Promise<AuthResult> {
  const t = await issueTokens(
    ctx.key,
    { username: user.username, email: user.email, emailVerified: user.email_verified },
    { issuer: ctx.issuer, clientId: ctx.clientId, originJti, authTime },
  );
  return { AccessToken: t.accessToken, ExpiresIn: t.expiresIn, IdToken: t.idToken, TokenType: 'Bearer' };
}

export async function refresh(ctx: PoolContext, token: string): Promise<AuthResult> {
  const row = await refreshTokens.findRefreshToken(ctx.db, hashToken(token));
  if (!row || row.client_id !== ctx.clientId) throw Errors.notAuthorized('Invalid Refresh Token');
  if (row.revoked_at) throw Errors.notAuthorized('Refresh Token has been revoked');
  if (row.expires_at.getTime() < Date.now()) throw Errors.notAuthorized('Refresh Token has expired');
  const user = await users.findUser(ctx.db, row.username);
  if (!user) throw Errors.notAuthorized('Invalid Refresh Token');
  if (!user.enabled) throw Errors.userDisabled();
  return tokensFor(ctx, user, row.id, row.auth_time);
}

/**
 * Revocation has two parts: the token's own sign-in (origin_jti) must not be revoked, which is
 * exact, and it must not be older than the user's last global sign-out, compared in whole
 * seconds because `iat` has no finer grain (a token of the very second of a sign-out is caught
 * by the first part).
 */
export async function tokenStillValid(
  db: Queryable,
  claims: { iat: number; originJti: string },
  validAfter: Date | null,
): Promise<boolean> {
  if (validAfter && claims.iat < Math.floor(validAfter.getTime() / 1000)) return false;
  return refreshTokens.isOriginLive(db, claims.originJti);
}

/** An access token is good if it verifies, its sign-in was not revoked, and its user may sign in. */
export async function authenticateToken(
  ctx: PoolContext,
  token: string,
): Promise<{ user: users.UserRow; claims: AccessClaims }> {
  const claims = await readAccessToken(ctx.key, token, { issuer: ctx.issuer, clientId: ctx.clientId });
  if (claims === 'expired') throw Errors.notAuthorized('Access Token has expired');
  if (claims === 'invalid') throw Errors.notAuthorized('Invalid Access Token');
  const user = await users.findUser(ctx.db, claims.username);
  if (!user || user.username !== claims.sub) throw Errors.notAuthorized('Invalid Access Token');
  if (!(await tokenStillValid(ctx.db, claims, user.tokens_valid_after)))
    throw Errors.notAuthorized('Access Token has been revoked');
  if (!user.enabled) throw Errors.userDisabled();
  return { user, claims };
}

/** Global sign-out: every refresh token dies and every access token issued so far is refused. */
export async function revokeEverything(db: Queryable, username: string): Promise<void> {
  await users.refuseTokensIssuedUntilNow(db, username);
  await refreshTokens.revokeAllSignIns(db, username);
}

// ---- operations ------------------------------------------------------------------------------

export async function getTokensFromRefreshToken(ctx: PoolContext, input: { RefreshToken: string }): Promise<Body> {
  return { AuthenticationResult: await refresh(ctx, input.RefreshToken) };
}

export async function revokeToken(ctx: PoolContext, input: { Token: string }): Promise<Body> {
  await refreshTokens.revokeRefreshToken(ctx.db, hashToken(input.Token), ctx.clientId);
  return {};
}

export async function getUser(ctx: PoolContext, input: { AccessToken: string }): Promise<Body> {
  const { user } = await authenticateToken(ctx, input.AccessToken);
  return { Username: user.username, UserAttributes: attributesOf(user, false), MFAOptions: [], ...mfaSettingsOf(user) };
}

export async function globalSignOut(
  ctx: PoolContext,
  input: { AccessToken: string },
  caller: CallerInfo,
): Promise<Body> {
  const { user } = await authenticateToken(ctx, input.AccessToken);
  await withTransaction(ctx.db, async (tx) => {
    await revokeEverything(tx, user.username);
    await recordEvent(ctx, tx, caller, {
      action: 'auth.global_sign_out',
      outcome: 'success',
      username: user.username,
      byUser: true,
    });
  });
  await signedOut(ctx, user, 'global_sign_out');
  return {};
}
