import type { AuditAction } from '@rpm/contracts';
import { withTransaction } from '../../../db/pool.ts';
import { Errors } from '../protocol.ts';
import * as attempts from '../repositories/attempts.repository.ts';
import * as pendingChallenges from '../repositories/pending-challenges.repository.ts';
import { recordEvent, type CallerInfo, type PoolContext } from './context.ts';

/**
 * Throttling: a per-address call budget, and progressive delays (never a lock-out) after failed
 * passwords and codes, counted for the account and the address apart.
 */

/** A challenge session is void after this many wrong codes. */
const SESSION_CODE_FAILURES = 3;

/** The three failure counters: a wrong reset code never delays an MFA sign-in, and so on. */
export type Counter = 'password' | 'reset-code' | 'totp';

export function throttleBucket(counter: Counter, scope: 'account' | 'address', key: string): string {
  return `${counter}:${scope}:${key}`;
}

export async function guardIp(ctx: PoolContext, ip: string): Promise<void> {
  const bucket = `ip:${ip}`;
  if ((await attempts.countAttempts(ctx.db, bucket, 60)) >= ctx.throttle.ipPerMinute) throw Errors.tooManyRequests();
  await attempts.recordAttempt(ctx.db, bucket);
}

/**
 * No lock-out, a delay: after `freeFailures` failures the account, and separately the address,
 * must wait `baseDelayMs`·2^(n − free), capped, since its latest failure. Answered with
 * Cognito's TooManyRequestsException (and audited) while waiting.
 */
export async function checkDelay(
  ctx: PoolContext,
  counter: Counter,
  accountKey: string,
  caller: CallerInfo,
  username: string | null,
): Promise<void> {
  const t = ctx.throttle;
  for (const [scope, key, cap] of [
    ['account', accountKey, t.accountMaxDelayMs],
    ['address', caller.ip, t.addressMaxDelayMs],
  ] as const) {
    const { count, sinceLastMs } = await attempts.failureState(
      ctx.db,
      throttleBucket(counter, scope, key),
      t.failureWindowSeconds,
    );
    if (count < t.freeFailures) continue;
    const waitMs = Math.min(t.baseDelayMs * 2 ** (count - t.freeFailures), cap);
    if (sinceLastMs >= waitMs) continue;
    await recordEvent(ctx, ctx.db, caller, {
      action: 'auth.throttle',
      outcome: 'failure',
      username,
      byUser: false,
      reason: `${counter} attempts delayed (${scope})`,
      details: { counter, scope, failures: count, retry_after_ms: Math.ceil(waitMs - sinceLastMs) },
    });
    throw Errors.tooManyRequests();
  }
}

/** One failed password or code: counted for the account and the address, and audited, together. */
export async function recordFailure(
  ctx: PoolContext,
  counter: Counter,
  accountKey: string,
  caller: CallerInfo,
  event: { action: AuditAction; username: string | null; reason: string; byUser?: boolean },
  sessionHash: Buffer | null = null,
): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    await attempts.recordAttempt(tx, throttleBucket(counter, 'account', accountKey));
    await attempts.recordAttempt(tx, throttleBucket(counter, 'address', caller.ip));
    if (sessionHash && (await pendingChallenges.countChallengeFailure(tx, sessionHash)) >= SESSION_CODE_FAILURES) {
      await pendingChallenges.deleteChallenge(tx, sessionHash);
    }
    await recordEvent(ctx, tx, caller, { byUser: false, ...event, outcome: 'failure' });
  });
}
