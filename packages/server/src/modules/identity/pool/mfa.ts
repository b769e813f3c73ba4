import { withTransaction } from '../../../db/pool.ts';
import { CognitoError, Errors, type Body } from '../protocol.ts';
import * as attempts from '../repositories/attempts.repository.ts';
import * as pendingChallenges from '../repositories/pending-challenges.repository.ts';
import * as users from '../repositories/users.repository.ts';
import { hashToken, seal, unseal } from '../secrets.ts';
import { checkTotp, newTotpSecret } from '../totp.ts';
import { recordEvent, type CallerInfo, type PoolContext } from './context.ts';
import type {
  AssociateSoftwareTokenInput,
  MfaSettingsInput,
  SetUserMFAPreferenceInput,
  VerifySoftwareTokenInput,
} from './schemas.ts';
import { newChallenge, pendingChallenge } from './sign-in.ts';
import { checkDelay, guardIp, recordFailure, throttleBucket } from './throttle.ts';
import { authenticateToken } from './tokens.ts';

/**
 * TOTP MFA: a secret is associated (pending), proven by a first code (then it is the user's),
 * and switched on or off. Either signed in (access token) or inside the sign-in's MFA_SETUP
 * challenge (session), whose stages go start → associated → verified.
 */

export async function associateSoftwareToken(ctx: PoolContext, input: AssociateSoftwareTokenInput): Promise<Body> {
  const secret = newTotpSecret();
  if (input.AccessToken) {
    const { user } = await authenticateToken(ctx, input.AccessToken);
    await users.setPendingTotp(ctx.db, user.username, seal(ctx.dataKey, secret));
    return { SecretCode: secret };
  }
  const session = input.Session;
  if (!session) throw Errors.invalidSession();
  return withTransaction(ctx.db, async (tx) => {
    const s = await pendingChallenges.consumeChallenge(tx, hashToken(session));
    if (!s || s.challenge !== 'MFA_SETUP' || !s.username) throw Errors.invalidSession();
    await users.setPendingTotp(tx, s.username, seal(ctx.dataKey, secret));
    const next = await newChallenge(tx, s.username, 'MFA_SETUP', { ...s.state, stage: 'associated' });
    return { SecretCode: secret, Session: next };
  });
}

export async function verifySoftwareToken(
  ctx: PoolContext,
  input: VerifySoftwareTokenInput,
  caller: CallerInfo,
): Promise<Body> {
  await guardIp(ctx, caller.ip);
  const code = input.UserCode.replace(/\s+/g, '');
  const accessToken = input.AccessToken;
  let user: users.UserRow | null;
  let sessionHash: Buffer | null = null;
  let sessionState: Record<string, string> = {};
  if (accessToken) {
    ({ user } = await authenticateToken(ctx, accessToken));
  } else {
    const pending = await pendingChallenge(ctx, input.Session, 'MFA_SETUP', 'associated');
    sessionHash = pending.hash;
    sessionState = pending.state;
    user = await users.findUser(ctx.db, pending.username);
    if (!user) throw Errors.invalidSession();
    if (!user.enabled) throw Errors.userDisabled();
  }
  if (!user.totp_pending_secret) {
    throw new CognitoError('InvalidParameterException', 'No software token has been associated with this user.');
  }
  const username = user.username;
  await checkDelay(ctx, 'totp', username, caller, username);
  const result = await checkTotp(unseal(ctx.dataKey, user.totp_pending_secret), code, null);
  if (!result.valid) {
    await recordFailure(
      ctx,
      'totp',
      username,
      caller,
      { action: 'auth.mfa_verify', username, byUser: accessToken !== undefined, reason: 'wrong MFA code' },
      sessionHash,
    );
    throw new CognitoError('EnableSoftwareTokenMFAException', 'Code mismatch and fail enable Software Token MFA');
  }
  const hash = sessionHash;
  return withTransaction(ctx.db, async (tx) => {
    if (hash && !(await pendingChallenges.consumeChallenge(tx, hash))) throw Errors.invalidSession();
    await users.promotePendingTotp(tx, username, result.step);
    await attempts.clearAttempts(tx, throttleBucket('totp', 'account', username));
    if (!hash) return { Status: 'SUCCESS' };
    const next = await newChallenge(tx, username, 'MFA_SETUP', { ...sessionState, stage: 'verified' });
    return { Status: 'SUCCESS', Session: next };
  });
}

export async function setUserMfaPreference(
  ctx: PoolContext,
  input: SetUserMFAPreferenceInput,
  caller: CallerInfo,
): Promise<Body> {
  const { user } = await authenticateToken(ctx, input.AccessToken);
  const settings = input.SoftwareTokenMfaSettings;
  if (!settings) return {};
  const { Enabled: enabled, PreferredMfa: preferred } = settings;
  const nextEnabled = enabled ?? user.mfa_enabled;
  if (nextEnabled && !user.totp_secret) throw Errors.invalidParameter('User has not verified software token mfa');
  const nextPreferred = nextEnabled ? (preferred ?? (enabled === true ? true : user.mfa_preferred)) : false;
  await withTransaction(ctx.db, async (tx) => {
    await users.setMfa(tx, user.username, nextEnabled, nextPreferred);
    if (nextEnabled !== user.mfa_enabled) {
      const action = nextEnabled ? 'auth.mfa_enable' : 'auth.mfa_disable';
      await recordEvent(ctx, tx, caller, { action, outcome: 'success', username: user.username, byUser: true });
    }
  });
  return {};
}

/**
 * The administrator's side: `Enabled: true` needs a verified secret; `Enabled: false` is the
 * portal's "reset MFA" (lost phone). Unlike Cognito, which keeps the device, the local pool then
 * forgets the secret, so that the next set-up starts afresh.
 */
export async function adminSetMfa(
  ctx: PoolContext,
  user: users.UserRow,
  settings: MfaSettingsInput | undefined,
): Promise<void> {
  if (settings?.Enabled === true) {
    if (!user.totp_secret) throw Errors.invalidParameter('User has not verified software token mfa');
    await users.setMfa(ctx.db, user.username, true, settings.PreferredMfa ?? true);
  } else if (settings?.Enabled === false) {
    await users.clearMfa(ctx.db, user.username);
  }
}
