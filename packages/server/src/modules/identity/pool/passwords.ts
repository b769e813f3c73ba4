import { setTimeout as sleep } from 'node:timers/promises';
import { withTransaction } from '../../../db/pool.ts';
import { resetCodeMessage } from '../mailer.ts';
import { meetsPasswordPolicy } from '../password.ts';
import { Errors, type Body } from '../protocol.ts';
import * as attempts from '../repositories/attempts.repository.ts';
import * as refreshTokens from '../repositories/refresh-tokens.repository.ts';
import * as resetCodes from '../repositories/reset-codes.repository.ts';
import * as resetDecoys from '../repositories/reset-decoys.repository.ts';
import * as users from '../repositories/users.repository.ts';
import { buffersEqual, keyedHash, sixDigitCode } from '../secrets.ts';
import { createVerifier, passwordMatches } from '../srp.ts';
import { normalizeLogin, recordEvent, signedOut, type CallerInfo, type PoolContext } from './context.ts';
import type { ChangePasswordInput, ConfirmForgotPasswordInput, ForgotPasswordInput } from './schemas.ts';
import { checkDelay, guardIp, recordFailure, throttleBucket } from './throttle.ts';
import { authenticateToken, revokeEverything } from './tokens.ts';

/**
 * Passwords: a signed-in user's change, and the reset by a code sent by mail.
 *
 * Cognito's "prevent user existence errors": for an unknown address, an invited user who has
 * no password yet, a disabled and a confirmed user, both reset calls answer alike (same shape,
 * status, error type and message, and no sooner than RESET_ANSWER_FLOOR_MS). Only the mailbox
 * owner learns whether a code was sent. A reset that cannot send a code stores a decoy in its
 * place, so that ConfirmForgotPassword then answers "wrong code" and later "expired" as for a
 * real one.
 */

/** ForgotPassword and ConfirmForgotPassword answer no sooner than this: their timing tells nothing. */
export const RESET_ANSWER_FLOOR_MS = 250;

const RESET_CODE_TTL_SECONDS = 3600;
const RESET_SENDS_PER_HOUR = 5;

export async function changePassword(ctx: PoolContext, input: ChangePasswordInput, caller: CallerInfo): Promise<Body> {
  await guardIp(ctx, caller.ip);
  const { user, claims } = await authenticateToken(ctx, input.AccessToken);
  if (!meetsPasswordPolicy(input.ProposedPassword)) throw Errors.invalidPassword();
  await checkDelay(ctx, 'password', user.username, caller, user.username);
  if (!passwordMatches(ctx.poolName, user.username, input.PreviousPassword, user.srp_salt, user.srp_verifier)) {
    await recordFailure(ctx, 'password', user.username, caller, {
      action: 'auth.password_change',
      username: user.username,
      byUser: true,
      reason: 'wrong previous password',
    });
    throw Errors.notAuthorized();
  }
  const verifier = createVerifier(ctx.poolName, user.username, input.ProposedPassword);
  await withTransaction(ctx.db, async (tx) => {
    await users.findUser(tx, user.username, { forUpdate: true });
    await users.setPassword(tx, user.username, { ...verifier, permanent: true });
    // Whoever knew the old password may hold another sign-in; the one making the change stays.
    await refreshTokens.revokeOtherSignIns(tx, user.username, claims.originJti);
    await attempts.clearAttempts(tx, throttleBucket('password', 'account', user.username));
    await recordEvent(ctx, tx, caller, {
      action: 'auth.password_change',
      outcome: 'success',
      username: user.username,
      byUser: true,
    });
  });
  await signedOut(ctx, user, 'password_change', claims.originJti);
  return {};
}

export async function forgotPassword(ctx: PoolContext, input: ForgotPasswordInput, caller: CallerInfo): Promise<Body> {
  await guardIp(ctx, caller.ip);
  const login = normalizeLogin(input.Username);
  return atLeast(ctx.options.resetAnswerFloorMs ?? RESET_ANSWER_FLOOR_MS, async () => {
    const user = await users.findUser(ctx.db, login);
    const accountKey = user ? user.username : `login:${login}`;
    const delivery = {
      CodeDeliveryDetails: {
        AttributeName: 'email',
        DeliveryMedium: 'EMAIL',
        Destination: user ? maskEmail(user.email) : decoyDestination(ctx, login),
      },
    };
    const sendBucket = `reset-send:${accountKey}`;
    if ((await attempts.countAttempts(ctx.db, sendBucket, 3600)) >= RESET_SENDS_PER_HOUR) {
      await recordEvent(ctx, ctx.db, caller, {
        action: 'auth.password_reset_request',
        outcome: 'failure',
        username: user?.username ?? null,
        byUser: false,
        reason: 'too many requests',
      });
      throw Errors.limitExceeded();
    }
    const reason = !user
      ? 'unknown account'
      : !user.enabled
        ? 'disabled'
        : user.status === 'FORCE_CHANGE_PASSWORD'
          ? 'invitation not accepted'
          : null;
    await withTransaction(ctx.db, async (tx) => {
      await attempts.recordAttempt(tx, sendBucket);
      if (user && reason === null) {
        const code = sixDigitCode();
        await resetCodes.storeResetCode(
          tx,
          user.username,
          resetCodeHash(ctx, user.username, code),
          RESET_CODE_TTL_SECONDS,
        );
        await ctx.mailer.send(resetCodeMessage(ctx.publicUrl, user.email, code), tx);
      } else {
        await resetDecoys.storeResetDecoy(tx, accountKey, RESET_CODE_TTL_SECONDS);
      }
      await recordEvent(ctx, tx, caller, {
        action: 'auth.password_reset_request',
        outcome: reason === null ? 'success' : 'failure',
        username: user?.username ?? null,
        byUser: false,
        ...(reason ? { reason: `no code sent: ${reason}` } : {}),
      });
    });
    return delivery;
  });
}

export async function confirmForgotPassword(
  ctx: PoolContext,
  input: ConfirmForgotPasswordInput,
  caller: CallerInfo,
): Promise<Body> {
  await guardIp(ctx, caller.ip);
  const login = normalizeLogin(input.Username);
  const code = input.ConfirmationCode.trim();
  const password = input.Password;
  return atLeast(ctx.options.resetAnswerFloorMs ?? RESET_ANSWER_FLOOR_MS, async () => {
    const found = await users.findUser(ctx.db, login);
    const accountKey = found ? found.username : `login:${login}`;
    const user = found && found.enabled && found.status !== 'FORCE_CHANGE_PASSWORD' ? found : null;
    await checkDelay(ctx, 'reset-code', accountKey, caller, found?.username ?? null);
    const failuresToday = await attempts.countAttempts(
      ctx.db,
      throttleBucket('reset-code', 'account', accountKey),
      24 * 3600,
    );
    if (failuresToday >= ctx.throttle.resetCodeGuessesPerDay) {
      await recordEvent(ctx, ctx.db, caller, {
        action: 'auth.password_reset',
        outcome: 'failure',
        username: found?.username ?? null,
        byUser: false,
        reason: 'daily limit of wrong codes reached',
      });
      throw Errors.limitExceeded();
    }
    if (!meetsPasswordPolicy(password)) throw Errors.invalidPassword();
    const stored = user ? await resetCodes.findResetCode(ctx.db, user.username) : null;
    const decoy = stored ? null : await resetDecoys.findResetDecoy(ctx.db, accountKey);
    if (!(stored?.live ?? decoy?.live ?? false)) throw Errors.expiredCode();
    const hash = resetCodeHash(ctx, user?.username ?? accountKey, code);
    if (!user || !stored || !buffersEqual(hash, stored.code_hash)) {
      await recordFailure(ctx, 'reset-code', accountKey, caller, {
        action: 'auth.password_reset',
        username: found?.username ?? null,
        reason: 'wrong code',
      });
      // A code (or its decoy) is void after a few wrong guesses: a new one must be asked for.
      const perCode =
        stored && user
          ? await resetCodes.countResetCodeFailure(ctx.db, user.username)
          : await resetDecoys.countResetDecoyFailure(ctx.db, accountKey);
      if (perCode >= ctx.throttle.resetCodeGuessesPerCode) {
        if (stored && user) await resetCodes.deleteResetCode(ctx.db, user.username);
        else await resetDecoys.deleteResetDecoy(ctx.db, accountKey);
      }
      throw Errors.codeMismatch();
    }
    const verifier = createVerifier(ctx.poolName, user.username, password);
    // One transaction: the code is used up only together with the new password, the end of
    // every sign-in, the cleared counters and the audit record.
    await withTransaction(ctx.db, async (tx) => {
      await users.findUser(tx, user.username, { forUpdate: true });
      if (!(await resetCodes.consumeResetCode(tx, user.username, hash))) throw Errors.expiredCode();
      await users.setPassword(tx, user.username, { ...verifier, permanent: true });
      // Whoever made the reset necessary may hold a session: end them all.
      await revokeEverything(tx, user.username);
      await attempts.clearAttempts(tx, throttleBucket('password', 'account', user.username));
      await attempts.clearAttempts(tx, throttleBucket('reset-code', 'account', user.username));
      await recordEvent(ctx, tx, caller, {
        action: 'auth.password_reset',
        outcome: 'success',
        username: user.username,
        byUser: false,
      });
    });
    await signedOut(ctx, user, 'password_reset');
    return {};
  });
}

function resetCodeHash(ctx: PoolContext, username: string, code: string): Buffer {
  return keyedHash(ctx.dataKey, 'reset-code', username, code);
}

function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***`;
}

/** Looks like maskEmail of a real address: for a login that is not one (an unknown UUID). */
function decoyDestination(ctx: PoolContext, login: string): string {
  if (login.includes('@')) return maskEmail(login);
  const h = keyedHash(ctx.dataKey, 'decoy-destination', login);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  return maskEmail(`${letters[h[0]! % 26]}@${letters[h[1]! % 26]}`);
}

/** Runs `fn`, then answers (or fails) no sooner than `floorMs` after the start. */
async function atLeast<T>(floorMs: number, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const settled = await fn().then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const left = floorMs - (Date.now() - started);
  if (left > 0) await sleep(left);
  if (!settled.ok) throw settled.error;
  return settled.value;
}
