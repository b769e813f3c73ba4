import { TOKEN_EXCHANGE_FAILURES_PER_MINUTE } from '@rpm/contracts';

/**
 * Failed token exchanges: counted in process and limited per address, instead of one audit row
 * each (a flood of junk tokens would otherwise be a flood of writes to the audit chain).
 * Exchanges that name a real user (disabled, replayed, too old) are still audited by the caller.
 */

export type ExchangeFailure = 'invalid_token' | 'unknown_user' | 'user_disabled' | 'replayed' | 'sign_in_too_old' | 'rate_limited';

const counts: Record<ExchangeFailure, number> = {
  invalid_token: 0,
  unknown_user: 0,
  user_disabled: 0,
  replayed: 0,
  sign_in_too_old: 0,
  rate_limited: 0,
};

/** Totals since the process started, by reason (for the metrics endpoint). */
export function tokenExchangeFailureCounts(): Readonly<Record<ExchangeFailure, number>> {
  return { ...counts };
}

const WINDOW_MS = 60_000;
/** Bounds memory under a spray of addresses; expired windows are dropped first. */
const MAX_TRACKED_ADDRESSES = 10_000;
const windows = new Map<string, { start: number; failures: number }>();

function windowOf(ip: string, now: number) {
  const w = windows.get(ip);
  return w && now - w.start < WINDOW_MS ? w : null;
}

/** True when this address has used up its failures for the current minute (counted as such). */
export function exchangeBlocked(ip: string, now = Date.now()): boolean {
  const blocked = (windowOf(ip, now)?.failures ?? 0) >= TOKEN_EXCHANGE_FAILURES_PER_MINUTE;
  if (blocked) counts.rate_limited++;
  return blocked;
}

export function recordExchangeFailure(ip: string, reason: Exclude<ExchangeFailure, 'rate_limited'>, now = Date.now()): void {
  counts[reason]++;
  const w = windowOf(ip, now);
  if (w) {
    w.failures++;
    return;
  }
  if (windows.size >= MAX_TRACKED_ADDRESSES) {
    for (const [key, value] of windows) if (now - value.start >= WINDOW_MS) windows.delete(key);
    // Still full: forget the oldest windows (Map keeps insertion order).
    for (const key of windows.keys()) {
      if (windows.size < MAX_TRACKED_ADDRESSES) break;
      windows.delete(key);
    }
  }
  windows.delete(ip);
  windows.set(ip, { start: now, failures: 1 });
}
