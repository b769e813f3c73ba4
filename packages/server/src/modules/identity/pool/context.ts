import { AUTH_THROTTLE, normalizeEmail, type AuditAction } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Queryable } from '../../../db/pool.ts';
import type { Mailer } from '../mailer.ts';
import type { SettingsRow } from '../repositories/settings.repository.ts';
import { isUsername, type UserRow } from '../repositories/users.repository.ts';
import { poolNameOf, randomPrivateValue } from '../srp.ts';
import type { SigningKey } from '../tokens.ts';

/**
 * What every capability of the local pool shares: its ids and keys, the database, the portal's
 * hooks and the options. Built once per pool; the capabilities are functions of it.
 */

export interface ThrottleLimits {
  /** Calls to sign-in, code and reset operations per IP and minute. */
  ipPerMinute: number;
  /** Progressive delays (see AUTH_THROTTLE in contracts). */
  freeFailures: number;
  baseDelayMs: number;
  accountMaxDelayMs: number;
  addressMaxDelayMs: number;
  failureWindowSeconds: number;
  resetCodeGuessesPerDay: number;
  resetCodeGuessesPerCode: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { ipPerMinute: 60, ...AUTH_THROTTLE };

/** An account change after which the user's other sessions must end (see `onSignOut`). */
export interface SignOutEvent {
  sub: string;
  username: string;
  reason: 'password_reset' | 'password_change' | 'global_sign_out';
  /** password_change: the sign-in (origin_jti) that made the change, which may stay signed in. */
  keepSignInId?: string;
}

export interface LocalPoolOptions {
  throttle?: Partial<ThrottleLimits>;
  /**
   * Called after a password reset, a password change and a global sign-out have revoked the
   * pool's own tokens, so that sessions built on them (the portal's) end too. A failure fails
   * the operation: the caller must not believe the other sessions ended when they did not.
   */
  onSignOut?: (e: SignOutEvent) => Promise<void>;
  /** Tests only: chooses the server's private SRP value b, to force edge cases. */
  pickServerPrivate?: () => bigint;
  resetAnswerFloorMs?: number;
}

/** An authentication event for the portal's audit log. Never a password, code or token. */
export interface AuthEvent {
  action: AuditAction;
  outcome: 'success' | 'failure';
  /** The pool user concerned, when there is one. */
  username: string | null;
  /** True when the caller proved to be that user (signed in, or holding their access token). */
  byUser: boolean;
  reason?: string;
  details?: Record<string, unknown>;
}

export interface CallerInfo {
  ip: string;
  userAgent?: string | null;
  requestId?: string | null;
}

/**
 * What the pool asks of the portal around it. The portal owns organizations and the audit log;
 * the pool stays free of their tables and calls these (with its transaction, when it has one).
 */
export interface PoolHooks {
  audit(db: Queryable, caller: CallerInfo, event: AuthEvent): Promise<void>;
  /** Whether the user's organization requires MFA (then MFA set-up is asked at sign-in). */
  mfaRequiredFor(db: Queryable, username: string): Promise<boolean>;
}

export const NO_HOOKS: PoolHooks = { audit: async () => {}, mfaRequiredFor: async () => false };

export interface LocalPoolDeps {
  db: pg.Pool;
  log: FastifyBaseLogger;
  settings: SettingsRow;
  key: SigningKey;
  publicUrl: string;
  issuer: string;
  mfa: 'optional' | 'required';
  mailer: Mailer;
  hooks?: PoolHooks;
  options?: LocalPoolOptions;
}

export interface PoolContext {
  readonly db: pg.Pool;
  readonly poolId: string;
  readonly clientId: string;
  /** The pool id's part after the underscore, which SRP mixes into every proof. */
  readonly poolName: string;
  /** Keys the hashes of codes and the decoys of unknown accounts, and seals TOTP secrets. */
  readonly dataKey: Buffer;
  readonly key: SigningKey;
  readonly issuer: string;
  readonly publicUrl: string;
  readonly mfa: 'optional' | 'required';
  readonly mailer: Mailer;
  readonly hooks: PoolHooks;
  readonly throttle: ThrottleLimits;
  readonly pickServerPrivate: () => bigint;
  readonly options: LocalPoolOptions;
}

export function createPoolContext(deps: LocalPoolDeps): PoolContext {
  return {
    db: deps.db,
    poolId: deps.settings.pool_id,
    clientId: deps.settings.client_id,
    poolName: poolNameOf(deps.settings.pool_id),
    dataKey: deps.settings.data_key,
    key: deps.key,
    issuer: deps.issuer,
    publicUrl: deps.publicUrl,
    mfa: deps.mfa,
    mailer: deps.mailer,
    hooks: deps.hooks ?? NO_HOOKS,
    throttle: { ...DEFAULT_THROTTLE, ...deps.options?.throttle },
    pickServerPrivate: deps.options?.pickServerPrivate ?? randomPrivateValue,
    options: deps.options ?? {},
  };
}

export function recordEvent(ctx: PoolContext, db: Queryable, caller: CallerInfo, event: AuthEvent): Promise<void> {
  return ctx.hooks.audit(db, caller, event);
}

/** Tells the portal that the user's other sessions must end (after the pool's own revocation). */
export async function signedOut(
  ctx: PoolContext,
  user: UserRow,
  reason: SignOutEvent['reason'],
  keepSignInId?: string,
): Promise<void> {
  await ctx.options.onSignOut?.({ sub: user.username, username: user.username, reason, keepSignInId });
}

/** A login is a username (UUID, compared as is) or an address (normalised like every address). */
export function normalizeLogin(login: string): string {
  const trimmed = login.trim();
  return isUsername(trimmed) ? trimmed.toLowerCase() : normalizeEmail(trimmed);
}
