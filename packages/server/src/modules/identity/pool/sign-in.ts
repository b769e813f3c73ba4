import { withTransaction, type Queryable } from '../../../db/pool.ts';
import { meetsPasswordPolicy } from '../password.ts';
import { CognitoError, Errors, type Body } from '../protocol.ts';
import * as attempts from '../repositories/attempts.repository.ts';
import * as pendingChallenges from '../repositories/pending-challenges.repository.ts';
import * as users from '../repositories/users.repository.ts';
import { hashToken, keyedHash, opaqueToken, unseal } from '../secrets.ts';
import {
  claimSignature,
  createServerValues,
  createVerifier,
  deriveSessionKey,
  padHex,
  parseClientValue,
  parseTimestamp,
  signaturesEqual,
} from '../srp.ts';
import { checkTotp } from '../totp.ts';
import { normalizeLogin, recordEvent, type CallerInfo, type PoolContext } from './context.ts';
import type { InitiateAuthInput, RespondToAuthChallengeInput } from './schemas.ts';
import { checkDelay, guardIp, recordFailure, throttleBucket } from './throttle.ts';
import { completeSignIn, refresh } from './tokens.ts';

/**
 * The sign-in flow, a state machine of challenges: USER_SRP_AUTH starts PASSWORD_VERIFIER; a
 * proven password leads to NEW_PASSWORD_REQUIRED (invited user), SOFTWARE_TOKEN_MFA (MFA on),
 * MFA_SETUP (MFA required but not set up: see mfa.ts for its steps) or tokens. Each step is a
 * single-use challenge session, stored by its hash.
 */

const CHALLENGE_TTL_SECONDS = 180;
const TIMESTAMP_SKEW_MS = 15 * 60 * 1000;

export async function initiateAuth(ctx: PoolContext, input: InitiateAuthInput, caller: CallerInfo): Promise<Body> {
  const params = input.AuthParameters ?? {};
  if (input.AuthFlow === 'USER_SRP_AUTH') return startSrp(ctx, params, caller);
  if (input.AuthFlow === 'REFRESH_TOKEN_AUTH' || input.AuthFlow === 'REFRESH_TOKEN') {
    const token = params.REFRESH_TOKEN;
    if (!token) throw Errors.invalidParameter('Missing required parameter REFRESH_TOKEN');
    return { ChallengeParameters: {}, AuthenticationResult: await refresh(ctx, token) };
  }
  throw Errors.invalidParameter(`${input.AuthFlow} flow not enabled for this client`);
}

async function startSrp(ctx: PoolContext, params: Record<string, string>, caller: CallerInfo): Promise<Body> {
  await guardIp(ctx, caller.ip);
  const raw = params.USERNAME?.trim();
  if (!raw || raw.length > 254) throw Errors.invalidParameter('Missing required parameter USERNAME');
  const login = normalizeLogin(raw);
  const A = parseClientValue(params.SRP_A ?? '');
  if (A === null) throw Errors.invalidParameter('SRP_A is invalid.');
  const user = await users.findUser(ctx.db, login);
  // Unknown users get a decoy challenge that is answered like a wrong password: the two cannot
  // be told apart (no user enumeration), and both are delayed alike after repeated failures.
  const accountKey = user ? user.username : `login:${login}`;
  await checkDelay(ctx, 'password', accountKey, caller, user?.username ?? null);
  const userId = user ? user.username : decoyUserId(ctx, login);
  const salt = user
    ? user.srp_salt
    : padHex(BigInt(`0x${keyedHash(ctx.dataKey, 'decoy-salt', login).subarray(0, 16).toString('hex')}`));
  const verifier = user ? user.srp_verifier : keyedHash(ctx.dataKey, 'decoy-verifier', login).toString('hex');
  const { b, B } = createServerValues(verifier, ctx.pickServerPrivate);
  const secretBlock = opaqueToken(64).replace(/-/g, '+').replace(/_/g, '/');
  await pendingChallenges.insertChallenge(ctx.db, {
    hash: hashToken(secretBlock),
    username: user?.username ?? null,
    challenge: 'PASSWORD_VERIFIER',
    state: { A: A.toString(16), B: B.toString(16), b: b.toString(16), userId, accountKey },
    ttlSeconds: CHALLENGE_TTL_SECONDS,
  });
  return {
    ChallengeName: 'PASSWORD_VERIFIER',
    ChallengeParameters: {
      SALT: salt,
      SECRET_BLOCK: secretBlock,
      SRP_B: B.toString(16),
      USERNAME: userId,
      USER_ID_FOR_SRP: userId,
    },
  };
}

/**
 * A stable stand-in username for an unknown login, shaped exactly like randomUUID(): version 4
 * and the RFC 4122 variant (8, 9, a or b), chosen by the keyed hash like every other bit.
 */
function decoyUserId(ctx: PoolContext, login: string): string {
  const b = Buffer.from(keyedHash(ctx.dataKey, 'decoy-user', login).subarray(0, 16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export async function respondToAuthChallenge(
  ctx: PoolContext,
  input: RespondToAuthChallengeInput,
  caller: CallerInfo,
): Promise<Body> {
  const responses = input.ChallengeResponses ?? {};
  await guardIp(ctx, caller.ip);
  switch (input.ChallengeName) {
    case 'PASSWORD_VERIFIER':
      return passwordVerifier(ctx, responses, caller);
    case 'NEW_PASSWORD_REQUIRED':
      return newPasswordRequired(ctx, input.Session, responses, caller);
    case 'SOFTWARE_TOKEN_MFA':
      return softwareTokenMfa(ctx, input.Session, responses, caller);
    case 'MFA_SETUP':
      return mfaSetupComplete(ctx, input.Session, caller);
    default:
      throw Errors.invalidParameter(`Unsupported challenge ${input.ChallengeName}`);
  }
}

async function passwordVerifier(
  ctx: PoolContext,
  responses: Record<string, string>,
  caller: CallerInfo,
): Promise<Body> {
  const secretBlock = responses.PASSWORD_CLAIM_SECRET_BLOCK;
  const signature = responses.PASSWORD_CLAIM_SIGNATURE;
  const timestamp = responses.TIMESTAMP;
  if (!secretBlock || !signature || !timestamp) throw Errors.invalidParameter('Missing PASSWORD_VERIFIER responses');
  // The secret block is the key of the challenge: taking it makes it single use.
  const s = await pendingChallenges.consumeChallenge(ctx.db, hashToken(secretBlock));
  if (!s || s.challenge !== 'PASSWORD_VERIFIER') throw Errors.invalidSession();
  const accountKey = s.state.accountKey ?? '';
  await checkDelay(ctx, 'password', accountKey, caller, s.username);
  const user = s.username ? await users.findUser(ctx.db, s.username) : null;
  const when = parseTimestamp(timestamp);
  let ok = false;
  if (user && when && Math.abs(Date.now() - when.getTime()) <= TIMESTAMP_SKEW_MS) {
    const key = deriveSessionKey({
      A: BigInt(`0x${s.state.A}`),
      B: BigInt(`0x${s.state.B}`),
      b: BigInt(`0x${s.state.b}`),
      verifierHex: user.srp_verifier,
    });
    ok =
      key !== null &&
      signaturesEqual(claimSignature(key, ctx.poolName, user.username, secretBlock, timestamp), signature);
  }
  if (!ok || !user) {
    await recordFailure(ctx, 'password', accountKey, caller, {
      action: 'auth.sign_in',
      username: user?.username ?? null,
      reason: user ? 'wrong password' : 'unknown account',
    });
    throw Errors.notAuthorized();
  }
  await attempts.clearAttempts(ctx.db, throttleBucket('password', 'account', accountKey));
  if (!user.enabled) {
    await recordEvent(ctx, ctx.db, caller, {
      action: 'auth.sign_in',
      outcome: 'failure',
      username: user.username,
      byUser: false,
      reason: 'disabled',
    });
    throw Errors.userDisabled();
  }
  if (user.status === 'RESET_REQUIRED') {
    throw new CognitoError('PasswordResetRequiredException', 'Password reset required for the user');
  }
  const authTime = new Date();
  if (user.status === 'FORCE_CHANGE_PASSWORD') {
    if (user.temporary_password_expires_at && user.temporary_password_expires_at.getTime() < Date.now()) {
      await recordEvent(ctx, ctx.db, caller, {
        action: 'auth.sign_in',
        outcome: 'failure',
        username: user.username,
        byUser: false,
        reason: 'temporary password expired',
      });
      throw Errors.notAuthorized('Temporary password has expired and must be reset by an administrator.');
    }
    const session = await newChallenge(ctx.db, user.username, 'NEW_PASSWORD_REQUIRED', {
      authTime: authTime.toISOString(),
    });
    return {
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      Session: session,
      ChallengeParameters: {
        USER_ID_FOR_SRP: user.username,
        requiredAttributes: '[]',
        userAttributes: JSON.stringify({ email_verified: String(user.email_verified), email: user.email }),
      },
    };
  }
  return withTransaction(ctx.db, (tx) => afterPassword(ctx, tx, user, authTime, caller));
}

/**
 * What follows a proven password: the TOTP code, MFA set-up (the pool, or the user's
 * organization, requires MFA), or tokens.
 */
async function afterPassword(
  ctx: PoolContext,
  db: Queryable,
  user: users.UserRow,
  authTime: Date,
  caller: CallerInfo,
): Promise<Body> {
  const state = { authTime: authTime.toISOString() };
  if (user.mfa_enabled && user.totp_secret) {
    const session = await newChallenge(db, user.username, 'SOFTWARE_TOKEN_MFA', state);
    return { ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: session, ChallengeParameters: {} };
  }
  if (ctx.mfa === 'required' || (await ctx.hooks.mfaRequiredFor(db, user.username))) {
    const session = await newChallenge(db, user.username, 'MFA_SETUP', { ...state, stage: 'start' });
    return {
      ChallengeName: 'MFA_SETUP',
      Session: session,
      ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' },
    };
  }
  return { ChallengeParameters: {}, AuthenticationResult: await completeSignIn(ctx, db, user, authTime, caller) };
}

async function newPasswordRequired(
  ctx: PoolContext,
  session: string | undefined,
  responses: Record<string, string>,
  caller: CallerInfo,
): Promise<Body> {
  const { hash, username, state } = await pendingChallenge(ctx, session, 'NEW_PASSWORD_REQUIRED');
  const password = responses.NEW_PASSWORD;
  if (!password) throw Errors.invalidParameter('Missing required parameter NEW_PASSWORD');
  // Checked before the session is used up, so that the person can try a better password.
  if (password.length > 256 || !meetsPasswordPolicy(password)) throw Errors.invalidPassword();
  const verifier = createVerifier(ctx.poolName, username, password);
  // One transaction: the challenge is used up only if the password is set and the next step made.
  return withTransaction(ctx.db, async (tx) => {
    if (!(await pendingChallenges.consumeChallenge(tx, hash))) throw Errors.invalidSession();
    const user = await users.findUser(tx, username, { forUpdate: true });
    if (!user) throw Errors.invalidSession();
    if (!user.enabled) throw Errors.userDisabled();
    await users.setPassword(tx, user.username, { ...verifier, permanent: true });
    await recordEvent(ctx, tx, caller, {
      action: 'auth.password_change',
      outcome: 'success',
      username: user.username,
      byUser: true,
      details: { via: 'new_password_required' },
    });
    return afterPassword(ctx, tx, { ...user, status: 'CONFIRMED' }, new Date(state.authTime ?? Date.now()), caller);
  });
}

async function softwareTokenMfa(
  ctx: PoolContext,
  session: string | undefined,
  responses: Record<string, string>,
  caller: CallerInfo,
): Promise<Body> {
  const { hash, username, state } = await pendingChallenge(ctx, session, 'SOFTWARE_TOKEN_MFA');
  const user = await users.findUser(ctx.db, username);
  if (!user || !user.totp_secret) throw Errors.invalidSession();
  if (!user.enabled) throw Errors.userDisabled();
  await checkDelay(ctx, 'totp', user.username, caller, user.username);
  const code = (responses.SOFTWARE_TOKEN_MFA_CODE ?? '').replace(/\s+/g, '');
  const result = await checkTotp(unseal(ctx.dataKey, user.totp_secret), code, user.totp_last_step);
  const authTime = new Date(state.authTime ?? Date.now());
  const signedIn = result.valid
    ? await withTransaction(ctx.db, async (tx) => {
        // The time step is claimed atomically: one code cannot be used twice, even at once.
        if (!(await users.claimTotpStep(tx, user.username, result.step))) return null;
        if (!(await pendingChallenges.consumeChallenge(tx, hash))) throw Errors.invalidSession();
        await attempts.clearAttempts(tx, throttleBucket('totp', 'account', user.username));
        return completeSignIn(ctx, tx, user, authTime, caller);
      })
    : null;
  if (!signedIn) {
    await recordFailure(
      ctx,
      'totp',
      user.username,
      caller,
      { action: 'auth.sign_in', username: user.username, reason: 'wrong MFA code' },
      hash,
    );
    throw new CognitoError('CodeMismatchException', 'Invalid code received for user');
  }
  return { ChallengeParameters: {}, AuthenticationResult: signedIn };
}

/** The MFA_SETUP challenge's answer, once its secret was associated and verified (mfa.ts). */
async function mfaSetupComplete(ctx: PoolContext, session: string | undefined, caller: CallerInfo): Promise<Body> {
  if (!session) throw Errors.invalidSession();
  return withTransaction(ctx.db, async (tx) => {
    const s = await pendingChallenges.consumeChallenge(tx, hashToken(session));
    if (!s || s.challenge !== 'MFA_SETUP' || s.state.stage !== 'verified' || !s.username) throw Errors.invalidSession();
    const user = await users.findUser(tx, s.username, { forUpdate: true });
    if (!user || !user.totp_secret) throw Errors.invalidSession();
    if (!user.enabled) throw Errors.userDisabled();
    await users.setMfa(tx, user.username, true, true);
    await recordEvent(ctx, tx, caller, {
      action: 'auth.mfa_enable',
      outcome: 'success',
      username: user.username,
      byUser: true,
    });
    return {
      ChallengeParameters: {},
      AuthenticationResult: await completeSignIn(
        ctx,
        tx,
        { ...user, mfa_enabled: true },
        new Date(s.state.authTime ?? Date.now()),
        caller,
      ),
    };
  });
}

/**
 * The live challenge a session token names, of the expected kind (and stage) and for a user;
 * anything else is an invalid session. The token itself is never stored, only its hash.
 */
export async function pendingChallenge(
  ctx: PoolContext,
  session: string | undefined,
  challenge: string,
  stage?: string,
): Promise<{ hash: Buffer; username: string; state: Record<string, string> }> {
  const hash = hashToken(session ?? '');
  const s = session ? await pendingChallenges.findChallenge(ctx.db, hash) : null;
  if (!s || s.challenge !== challenge || !s.username || (stage !== undefined && s.state.stage !== stage))
    throw Errors.invalidSession();
  return { hash, username: s.username, state: s.state };
}

/** A new single-use challenge session; the caller hands out the token, the pool keeps its hash. */
export async function newChallenge(
  db: Queryable,
  username: string,
  challenge: string,
  state: Record<string, string>,
): Promise<string> {
  const session = opaqueToken(96);
  await pendingChallenges.insertChallenge(db, {
    hash: hashToken(session),
    username,
    challenge,
    state,
    ttlSeconds: CHALLENGE_TTL_SECONDS,
  });
  return session;
}
