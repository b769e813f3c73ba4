import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AUTH_THROTTLE, isValidEmail, normalizeEmail } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { withTransaction, type Queryable } from '../db/pool.ts';
import { invitationMessage, resetCodeMessage, type Mailer } from './mailer.ts';
import { generateTemporaryPassword, meetsPasswordPolicy } from './password.ts';
import {
  Errors,
  CognitoError,
  attributeList,
  optionalBoolean,
  optionalNumber,
  optionalRecord,
  optionalString,
  requiredString,
  stringMap,
  type Body,
} from './protocol.ts';
import * as repo from './repository.ts';
import { buffersEqual, hashToken, keyedHash, opaqueToken, seal, sixDigitCode, unseal } from './secrets.ts';
import { verifySigV4, type AdminCredentials, type SignedRequest } from './sigv4.ts';
import {
  claimSignature,
  createServerValues,
  createVerifier,
  deriveSessionKey,
  padHex,
  parseClientValue,
  parseTimestamp,
  passwordMatches,
  poolNameOf,
  randomPrivateValue,
  signaturesEqual,
} from './srp.ts';
import { checkTotp, newTotpSecret } from './totp.ts';
import { issueTokens, jwksOf, readAccessToken, type AccessClaims, type SigningKey } from './tokens.ts';

/**
 * The local user pool's behaviour, operation by operation, with Cognito's names, shapes and error
 * types. The HTTP plugin only routes to `userOperation` / `adminOperation`.
 */

const SESSION_TTL_SECONDS = 180;
const REFRESH_TTL_SECONDS = 30 * 24 * 3600;
const TEMPORARY_PASSWORD_TTL_MS = 7 * 24 * 3600 * 1000;
const RESET_CODE_TTL_SECONDS = 3600;
const RESET_SENDS_PER_HOUR = 5;
const SESSION_CODE_FAILURES = 3;
const TIMESTAMP_SKEW_MS = 15 * 60 * 1000;

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

/** ForgotPassword and ConfirmForgotPassword answer no sooner than this: their timing tells nothing. */
export const RESET_ANSWER_FLOOR_MS = 250;

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

/** The three failure counters: a wrong reset code never delays an MFA sign-in, and so on. */
type Counter = 'password' | 'reset-code' | 'totp';

/** An authentication event for the portal's audit log. Never a password, code or token. */
export interface AuthEvent {
  action: string;
  outcome: 'success' | 'failure';
  /** The pool user concerned, when there is one. */
  username: string | null;
  /** True when the caller proved to be that user (signed in, or holding their access token). */
  byUser: boolean;
  reason?: string;
  details?: Record<string, unknown>;
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
  settings: repo.SettingsRow;
  key: SigningKey;
  publicUrl: string;
  issuer: string;
  mfa: 'optional' | 'required';
  mailer: Mailer;
  hooks?: PoolHooks;
  options?: LocalPoolOptions;
}

export interface CallerInfo {
  ip: string;
  userAgent?: string | null;
  requestId?: string | null;
}

const ADMIN_OPERATIONS = new Set([
  'AdminCreateUser',
  'AdminSetUserPassword',
  'AdminGetUser',
  'ListUsers',
  'AdminEnableUser',
  'AdminDisableUser',
  'AdminUserGlobalSignOut',
  'AdminSetUserMFAPreference',
]);

export function isAdminOperation(op: string): boolean {
  return ADMIN_OPERATIONS.has(op) || op.startsWith('Admin');
}

type AuthResult = Record<string, string | number>;

export class LocalPool {
  readonly poolId: string;
  readonly clientId: string;
  private readonly poolName: string;
  private readonly db: pg.Pool;
  private readonly hooks: PoolHooks;
  private readonly dataKey: Buffer;
  private readonly throttle: ThrottleLimits;
  private readonly pickB: () => bigint;
  private readonly admin: AdminCredentials;

  constructor(private readonly deps: LocalPoolDeps) {
    this.poolId = deps.settings.pool_id;
    this.clientId = deps.settings.client_id;
    this.poolName = poolNameOf(this.poolId);
    this.db = deps.db;
    this.hooks = deps.hooks ?? NO_HOOKS;
    this.dataKey = deps.settings.data_key;
    this.throttle = { ...DEFAULT_THROTTLE, ...deps.options?.throttle };
    this.pickB = deps.options?.pickServerPrivate ?? randomPrivateValue;
    this.admin = { accessKeyId: deps.settings.admin_access_key_id, secretAccessKey: deps.settings.admin_secret_access_key };
  }

  jwks() {
    return jwksOf(this.deps.key);
  }

  verifyAdminSignature(req: SignedRequest): Promise<boolean> {
    return verifySigV4(req, this.admin);
  }

  // ---- dispatch ------------------------------------------------------------------------------

  async userOperation(op: string, body: Body, caller: CallerInfo): Promise<Body> {
    switch (op) {
      case 'InitiateAuth':
        return this.initiateAuth(body, caller);
      case 'RespondToAuthChallenge':
        return this.respondToAuthChallenge(body, caller);
      case 'GetTokensFromRefreshToken':
        this.checkClient(body);
        return { AuthenticationResult: await this.refresh(requiredString(body, 'RefreshToken', 8192)) };
      case 'AssociateSoftwareToken':
        return this.associateSoftwareToken(body);
      case 'VerifySoftwareToken':
        return this.verifySoftwareToken(body, caller);
      case 'SetUserMFAPreference':
        return this.setUserMfaPreference(body, caller);
      case 'GetUser':
        return this.getUser(body);
      case 'ChangePassword':
        return this.changePassword(body, caller);
      case 'ForgotPassword':
        return this.forgotPassword(body, caller);
      case 'ConfirmForgotPassword':
        return this.confirmForgotPassword(body, caller);
      case 'GlobalSignOut':
        return this.globalSignOut(body, caller);
      case 'RevokeToken':
        this.checkClient(body);
        await repo.revokeRefreshToken(this.db, hashToken(requiredString(body, 'Token', 8192)), this.clientId);
        return {};
      default:
        throw Errors.unknownOperation();
    }
  }

  async adminOperation(op: string, body: Body): Promise<Body> {
    const poolId = requiredString(body, 'UserPoolId', 200);
    if (poolId !== this.poolId) throw Errors.resourceNotFound(`User pool ${poolId} does not exist.`);
    switch (op) {
      case 'AdminCreateUser':
        return this.adminCreateUser(body);
      case 'AdminSetUserPassword': {
        const user = await this.adminUser(body);
        const password = requiredString(body, 'Password', 256);
        if (!meetsPasswordPolicy(password)) throw Errors.invalidPassword();
        const permanent = optionalBoolean(body, 'Permanent') ?? false;
        await repo.setPassword(this.db, user.username, {
          ...createVerifier(this.poolName, user.username, password),
          permanent,
          temporaryPasswordExpiresAt: new Date(Date.now() + TEMPORARY_PASSWORD_TTL_MS),
        });
        return {};
      }
      case 'AdminGetUser': {
        const user = await this.adminUser(body);
        return {
          Username: user.username,
          UserAttributes: this.attributes(user, true),
          UserCreateDate: epoch(user.created_at),
          UserLastModifiedDate: epoch(user.updated_at),
          Enabled: user.enabled,
          UserStatus: user.status,
          MFAOptions: [],
          ...this.mfaSettings(user),
        };
      }
      case 'ListUsers':
        return this.listUsers(body);
      case 'AdminEnableUser':
      case 'AdminDisableUser': {
        const user = await this.adminUser(body);
        await repo.setEnabled(this.db, user.username, op === 'AdminEnableUser');
        return {};
      }
      case 'AdminUserGlobalSignOut': {
        const user = await this.adminUser(body);
        await repo.revokeEverything(this.db, user.username);
        await this.signedOut(user, 'global_sign_out');
        return {};
      }
      case 'AdminSetUserMFAPreference': {
        // The portal's "reset MFA" (lost phone) turns TOTP off: unlike Cognito, which keeps the
        // device, the local pool forgets the secret so that the next set-up starts afresh.
        const user = await this.adminUser(body);
        const settings = optionalRecord(body, 'SoftwareTokenMfaSettings');
        const enabled = settings ? optionalBoolean(settings, 'Enabled') : undefined;
        if (enabled === true) {
          if (!user.totp_secret) throw Errors.invalidParameter('User has not verified software token mfa');
          await repo.setMfa(this.db, user.username, true, optionalBoolean(settings ?? {}, 'PreferredMfa') ?? true);
        } else if (enabled === false) {
          await repo.clearMfa(this.db, user.username);
        }
        return {};
      }
      default:
        throw Errors.unknownOperation();
    }
  }

  // ---- sign-in ---------------------------------------------------------------------------------

  private checkClient(body: Body): void {
    const clientId = requiredString(body, 'ClientId', 200);
    if (clientId !== this.clientId) throw Errors.resourceNotFound(`User pool client ${clientId} does not exist.`);
  }

  private async initiateAuth(body: Body, caller: CallerInfo): Promise<Body> {
    this.checkClient(body);
    const flow = requiredString(body, 'AuthFlow', 100);
    const params = stringMap(body, 'AuthParameters');
    if (flow === 'USER_SRP_AUTH') return this.startSrp(params, caller);
    if (flow === 'REFRESH_TOKEN_AUTH' || flow === 'REFRESH_TOKEN') {
      const token = params.REFRESH_TOKEN;
      if (!token) throw Errors.invalidParameter('Missing required parameter REFRESH_TOKEN');
      return { ChallengeParameters: {}, AuthenticationResult: await this.refresh(token) };
    }
    throw Errors.invalidParameter(`${flow} flow not enabled for this client`);
  }

  private async startSrp(params: Record<string, string>, caller: CallerInfo): Promise<Body> {
    await this.guardIp(caller.ip);
    const raw = params.USERNAME?.trim();
    if (!raw || raw.length > 254) throw Errors.invalidParameter('Missing required parameter USERNAME');
    const login = normalizeLogin(raw);
    const A = parseClientValue(params.SRP_A ?? '');
    if (A === null) throw Errors.invalidParameter('SRP_A is invalid.');
    const user = await repo.findUser(this.db, login);
    // Unknown users get a decoy challenge that is answered like a wrong password: the two cannot
    // be told apart (no user enumeration), and both are delayed alike after repeated failures.
    const accountKey = user ? user.username : `login:${login}`;
    await this.checkDelay('password', accountKey, caller, user?.username ?? null);
    const userId = user ? user.username : this.decoyUserId(login);
    const salt = user ? user.srp_salt : padHex(BigInt(`0x${keyedHash(this.dataKey, 'decoy-salt', login).subarray(0, 16).toString('hex')}`));
    const verifier = user ? user.srp_verifier : keyedHash(this.dataKey, 'decoy-verifier', login).toString('hex');
    const { b, B } = createServerValues(verifier, this.pickB);
    const secretBlock = opaqueToken(64).replace(/-/g, '+').replace(/_/g, '/');
    await repo.insertSession(this.db, {
      hash: hashToken(secretBlock),
      username: user?.username ?? null,
      challenge: 'PASSWORD_VERIFIER',
      state: { A: A.toString(16), B: B.toString(16), b: b.toString(16), userId, accountKey },
      ttlSeconds: SESSION_TTL_SECONDS,
    });
    return {
      ChallengeName: 'PASSWORD_VERIFIER',
      ChallengeParameters: { SALT: salt, SECRET_BLOCK: secretBlock, SRP_B: B.toString(16), USERNAME: userId, USER_ID_FOR_SRP: userId },
    };
  }

  /**
   * A stable stand-in username for an unknown login, shaped exactly like randomUUID(): version 4
   * and the RFC 4122 variant (8, 9, a or b), chosen by the keyed hash like every other bit.
   */
  private decoyUserId(login: string): string {
    return uuidV4From(keyedHash(this.dataKey, 'decoy-user', login));
  }

  private async respondToAuthChallenge(body: Body, caller: CallerInfo): Promise<Body> {
    this.checkClient(body);
    const name = requiredString(body, 'ChallengeName', 100);
    const responses = stringMap(body, 'ChallengeResponses');
    const session = optionalString(body, 'Session', 4096);
    await this.guardIp(caller.ip);
    switch (name) {
      case 'PASSWORD_VERIFIER':
        return this.passwordVerifier(responses, caller);
      case 'NEW_PASSWORD_REQUIRED':
        return this.newPasswordRequired(session, responses, caller);
      case 'SOFTWARE_TOKEN_MFA':
        return this.softwareTokenMfa(session, responses, caller);
      case 'MFA_SETUP':
        return this.mfaSetupComplete(session, caller);
      default:
        throw Errors.invalidParameter(`Unsupported challenge ${name}`);
    }
  }

  private async passwordVerifier(responses: Record<string, string>, caller: CallerInfo): Promise<Body> {
    const secretBlock = responses.PASSWORD_CLAIM_SECRET_BLOCK;
    const signature = responses.PASSWORD_CLAIM_SIGNATURE;
    const timestamp = responses.TIMESTAMP;
    if (!secretBlock || !signature || !timestamp) throw Errors.invalidParameter('Missing PASSWORD_VERIFIER responses');
    // The secret block is the key of the challenge: taking it makes it single use.
    const s = await repo.consumeSession(this.db, hashToken(secretBlock));
    if (!s || s.challenge !== 'PASSWORD_VERIFIER') throw Errors.invalidSession();
    const accountKey = s.state.accountKey ?? '';
    await this.checkDelay('password', accountKey, caller, s.username);
    const user = s.username ? await repo.findUser(this.db, s.username) : null;
    const when = parseTimestamp(timestamp);
    let ok = false;
    if (user && when && Math.abs(Date.now() - when.getTime()) <= TIMESTAMP_SKEW_MS) {
      const key = deriveSessionKey({
        A: BigInt(`0x${s.state.A}`),
        B: BigInt(`0x${s.state.B}`),
        b: BigInt(`0x${s.state.b}`),
        verifierHex: user.srp_verifier,
      });
      ok = key !== null && signaturesEqual(claimSignature(key, this.poolName, user.username, secretBlock, timestamp), signature);
    }
    if (!ok || !user) {
      await this.failure('password', accountKey, caller, {
        action: 'auth.sign_in',
        username: user?.username ?? null,
        reason: user ? 'wrong password' : 'unknown account',
      });
      throw Errors.notAuthorized();
    }
    await repo.clearAttempts(this.db, throttleBucket('password', 'account', accountKey));
    if (!user.enabled) {
      await this.event(this.db, caller, { action: 'auth.sign_in', outcome: 'failure', username: user.username, byUser: false, reason: 'disabled' });
      throw Errors.userDisabled();
    }
    if (user.status === 'RESET_REQUIRED') {
      throw new CognitoError('PasswordResetRequiredException', 'Password reset required for the user');
    }
    const authTime = new Date();
    if (user.status === 'FORCE_CHANGE_PASSWORD') {
      if (user.temporary_password_expires_at && user.temporary_password_expires_at.getTime() < Date.now()) {
        await this.event(this.db, caller, {
          action: 'auth.sign_in',
          outcome: 'failure',
          username: user.username,
          byUser: false,
          reason: 'temporary password expired',
        });
        throw Errors.notAuthorized('Temporary password has expired and must be reset by an administrator.');
      }
      const session = await this.newSession(this.db, user.username, 'NEW_PASSWORD_REQUIRED', { authTime: authTime.toISOString() });
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
    return withTransaction(this.db, (tx) => this.afterPassword(tx, user, authTime, caller));
  }

  /**
   * What follows a proven password: the TOTP code, MFA set-up (the pool, or the user's
   * organization, requires MFA), or tokens.
   */
  private async afterPassword(db: Queryable, user: repo.UserRow, authTime: Date, caller: CallerInfo): Promise<Body> {
    const state = { authTime: authTime.toISOString() };
    if (user.mfa_enabled && user.totp_secret) {
      const session = await this.newSession(db, user.username, 'SOFTWARE_TOKEN_MFA', state);
      return { ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: session, ChallengeParameters: {} };
    }
    if (this.deps.mfa === 'required' || (await this.hooks.mfaRequiredFor(db, user.username))) {
      const session = await this.newSession(db, user.username, 'MFA_SETUP', { ...state, stage: 'start' });
      return { ChallengeName: 'MFA_SETUP', Session: session, ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' } };
    }
    return { ChallengeParameters: {}, AuthenticationResult: await this.signIn(db, user, authTime, caller) };
  }

  private async newPasswordRequired(
    session: string | undefined,
    responses: Record<string, string>,
    caller: CallerInfo,
  ): Promise<Body> {
    const hash = hashToken(session ?? '');
    const s = session ? await repo.findSession(this.db, hash) : null;
    if (!s || s.challenge !== 'NEW_PASSWORD_REQUIRED' || !s.username) throw Errors.invalidSession();
    const username = s.username;
    const password = responses.NEW_PASSWORD;
    if (!password) throw Errors.invalidParameter('Missing required parameter NEW_PASSWORD');
    // Checked before the session is used up, so that the person can try a better password.
    if (password.length > 256 || !meetsPasswordPolicy(password)) throw Errors.invalidPassword();
    const verifier = createVerifier(this.poolName, username, password);
    // One transaction: the challenge is used up only if the password is set and the next step made.
    return withTransaction(this.db, async (tx) => {
      if (!(await repo.consumeSession(tx, hash))) throw Errors.invalidSession();
      const user = await repo.findUser(tx, username, { forUpdate: true });
      if (!user) throw Errors.invalidSession();
      if (!user.enabled) throw Errors.userDisabled();
      await repo.setPassword(tx, user.username, { ...verifier, permanent: true });
      await this.event(tx, caller, {
        action: 'auth.password_change',
        outcome: 'success',
        username: user.username,
        byUser: true,
        details: { via: 'new_password_required' },
      });
      return this.afterPassword(tx, { ...user, status: 'CONFIRMED' }, new Date(s.state.authTime ?? Date.now()), caller);
    });
  }

  private async softwareTokenMfa(session: string | undefined, responses: Record<string, string>, caller: CallerInfo): Promise<Body> {
    const hash = hashToken(session ?? '');
    const s = session ? await repo.findSession(this.db, hash) : null;
    if (!s || s.challenge !== 'SOFTWARE_TOKEN_MFA' || !s.username) throw Errors.invalidSession();
    const user = await repo.findUser(this.db, s.username);
    if (!user || !user.totp_secret) throw Errors.invalidSession();
    if (!user.enabled) throw Errors.userDisabled();
    await this.checkDelay('totp', user.username, caller, user.username);
    const code = (responses.SOFTWARE_TOKEN_MFA_CODE ?? '').replace(/\s+/g, '');
    const result = await checkTotp(unseal(this.dataKey, user.totp_secret), code, user.totp_last_step);
    const authTime = new Date(s.state.authTime ?? Date.now());
    const signedIn = result.valid
      ? await withTransaction(this.db, async (tx) => {
          // The time step is claimed atomically: one code cannot be used twice, even at once.
          if (!(await repo.claimTotpStep(tx, user.username, result.step))) return null;
          if (!(await repo.consumeSession(tx, hash))) throw Errors.invalidSession();
          await repo.clearAttempts(tx, throttleBucket('totp', 'account', user.username));
          return this.signIn(tx, user, authTime, caller);
        })
      : null;
    if (!signedIn) {
      await this.failure('totp', user.username, caller, { action: 'auth.sign_in', username: user.username, reason: 'wrong MFA code' }, hash);
      throw new CognitoError('CodeMismatchException', 'Invalid code received for user');
    }
    return { ChallengeParameters: {}, AuthenticationResult: signedIn };
  }

  private async mfaSetupComplete(session: string | undefined, caller: CallerInfo): Promise<Body> {
    if (!session) throw Errors.invalidSession();
    return withTransaction(this.db, async (tx) => {
      const s = await repo.consumeSession(tx, hashToken(session));
      if (!s || s.challenge !== 'MFA_SETUP' || s.state.stage !== 'verified' || !s.username) throw Errors.invalidSession();
      const user = await repo.findUser(tx, s.username, { forUpdate: true });
      if (!user || !user.totp_secret) throw Errors.invalidSession();
      if (!user.enabled) throw Errors.userDisabled();
      await repo.setMfa(tx, user.username, true, true);
      await this.event(tx, caller, { action: 'auth.mfa_enable', outcome: 'success', username: user.username, byUser: true });
      return {
        ChallengeParameters: {},
        AuthenticationResult: await this.signIn(tx, { ...user, mfa_enabled: true }, new Date(s.state.authTime ?? Date.now()), caller),
      };
    });
  }

  private async newSession(db: Queryable, username: string, challenge: string, state: Record<string, string>): Promise<string> {
    const session = opaqueToken(96);
    await repo.insertSession(db, { hash: hashToken(session), username, challenge, state, ttlSeconds: SESSION_TTL_SECONDS });
    return session;
  }

  private async signIn(db: Queryable, user: repo.UserRow, authTime: Date, caller: CallerInfo): Promise<AuthResult> {
    const refreshToken = opaqueToken(96);
    const id = randomUUID();
    await repo.insertRefreshToken(db, {
      id,
      hash: hashToken(refreshToken),
      username: user.username,
      clientId: this.clientId,
      authTime,
      ttlSeconds: REFRESH_TTL_SECONDS,
    });
    await this.event(db, caller, {
      action: 'auth.sign_in',
      outcome: 'success',
      username: user.username,
      byUser: true,
      details: { mfa: user.mfa_enabled && user.totp_secret !== null },
    });
    const tokens = await this.tokensFor(user, id, authTime);
    return { ...tokens, RefreshToken: refreshToken };
  }

  private async tokensFor(user: repo.UserRow, originJti: string, authTime: Date): Promise<AuthResult> {
    const t = await issueTokens(
      this.deps.key,
      { username: user.username, email: user.email, emailVerified: user.email_verified },
      { issuer: this.deps.issuer, clientId: this.clientId, originJti, authTime },
    );
    return { AccessToken: t.accessToken, ExpiresIn: t.expiresIn, IdToken: t.idToken, TokenType: 'Bearer' };
  }

  private async refresh(token: string): Promise<AuthResult> {
    const row = await repo.findRefreshToken(this.db, hashToken(token));
    if (!row || row.client_id !== this.clientId) throw Errors.notAuthorized('Invalid Refresh Token');
    if (row.revoked_at) throw Errors.notAuthorized('Refresh Token has been revoked');
    if (row.expires_at.getTime() < Date.now()) throw Errors.notAuthorized('Refresh Token has expired');
    const user = await repo.findUser(this.db, row.username);
    if (!user) throw Errors.notAuthorized('Invalid Refresh Token');
    if (!user.enabled) throw Errors.userDisabled();
    return this.tokensFor(user, row.id, row.auth_time);
  }

  // ---- signed-in user operations ---------------------------------------------------------

  /** An access token is good if it verifies, its sign-in was not revoked, and its user may sign in. */
  async authenticateToken(token: string): Promise<{ user: repo.UserRow; claims: AccessClaims }> {
    const claims = await readAccessToken(this.deps.key, token, { issuer: this.deps.issuer, clientId: this.clientId });
    if (claims === 'expired') throw Errors.notAuthorized('Access Token has expired');
    if (claims === 'invalid') throw Errors.notAuthorized('Invalid Access Token');
    const user = await repo.findUser(this.db, claims.username);
    if (!user || user.username !== claims.sub) throw Errors.notAuthorized('Invalid Access Token');
    if (!(await this.tokenStillValid(claims, user.tokens_valid_after))) throw Errors.notAuthorized('Access Token has been revoked');
    if (!user.enabled) throw Errors.userDisabled();
    return { user, claims };
  }

  /**
   * Revocation has two parts: the token's own sign-in (origin_jti) must not be revoked, which is
   * exact, and it must not be older than the user's last global sign-out, compared in whole
   * seconds because `iat` has no finer grain (a token of the very second of a sign-out is caught
   * by the first part).
   */
  async tokenStillValid(claims: { iat: number; originJti: string }, validAfter: Date | null): Promise<boolean> {
    if (validAfter && claims.iat < Math.floor(validAfter.getTime() / 1000)) return false;
    return repo.isOriginLive(this.db, claims.originJti);
  }

  private async authenticate(body: Body) {
    return this.authenticateToken(requiredString(body, 'AccessToken', 8192));
  }

  private async getUser(body: Body): Promise<Body> {
    const { user } = await this.authenticate(body);
    return { Username: user.username, UserAttributes: this.attributes(user, false), MFAOptions: [], ...this.mfaSettings(user) };
  }

  private async changePassword(body: Body, caller: CallerInfo): Promise<Body> {
    await this.guardIp(caller.ip);
    const { user, claims } = await this.authenticate(body);
    const previous = requiredString(body, 'PreviousPassword', 256);
    const proposed = requiredString(body, 'ProposedPassword', 256);
    if (!meetsPasswordPolicy(proposed)) throw Errors.invalidPassword();
    await this.checkDelay('password', user.username, caller, user.username);
    if (!passwordMatches(this.poolName, user.username, previous, user.srp_salt, user.srp_verifier)) {
      await this.failure('password', user.username, caller, {
        action: 'auth.password_change',
        username: user.username,
        byUser: true,
        reason: 'wrong previous password',
      });
      throw Errors.notAuthorized();
    }
    const verifier = createVerifier(this.poolName, user.username, proposed);
    await withTransaction(this.db, async (tx) => {
      await repo.findUser(tx, user.username, { forUpdate: true });
      await repo.setPassword(tx, user.username, { ...verifier, permanent: true });
      // Whoever knew the old password may hold another sign-in; the one making the change stays.
      await repo.revokeOtherSignIns(tx, user.username, claims.originJti);
      await repo.clearAttempts(tx, throttleBucket('password', 'account', user.username));
      await this.event(tx, caller, { action: 'auth.password_change', outcome: 'success', username: user.username, byUser: true });
    });
    await this.signedOut(user, 'password_change', claims.originJti);
    return {};
  }

  private async globalSignOut(body: Body, caller: CallerInfo): Promise<Body> {
    const { user } = await this.authenticate(body);
    await withTransaction(this.db, async (tx) => {
      await repo.revokeEverything(tx, user.username);
      await this.event(tx, caller, { action: 'auth.global_sign_out', outcome: 'success', username: user.username, byUser: true });
    });
    await this.signedOut(user, 'global_sign_out');
    return {};
  }

  private async associateSoftwareToken(body: Body): Promise<Body> {
    const secret = newTotpSecret();
    const accessToken = optionalString(body, 'AccessToken', 8192);
    if (accessToken) {
      const { user } = await this.authenticateToken(accessToken);
      await repo.setPendingTotp(this.db, user.username, seal(this.dataKey, secret));
      return { SecretCode: secret };
    }
    const session = optionalString(body, 'Session', 4096);
    if (!session) throw Errors.invalidSession();
    return withTransaction(this.db, async (tx) => {
      const s = await repo.consumeSession(tx, hashToken(session));
      if (!s || s.challenge !== 'MFA_SETUP' || !s.username) throw Errors.invalidSession();
      await repo.setPendingTotp(tx, s.username, seal(this.dataKey, secret));
      const next = await this.newSession(tx, s.username, 'MFA_SETUP', { ...s.state, stage: 'associated' });
      return { SecretCode: secret, Session: next };
    });
  }

  private async verifySoftwareToken(body: Body, caller: CallerInfo): Promise<Body> {
    await this.guardIp(caller.ip);
    const code = requiredString(body, 'UserCode', 20).replace(/\s+/g, '');
    const accessToken = optionalString(body, 'AccessToken', 8192);
    let user: repo.UserRow | null;
    let sessionHash: Buffer | null = null;
    let sessionState: Record<string, string> = {};
    if (accessToken) {
      ({ user } = await this.authenticateToken(accessToken));
    } else {
      const session = optionalString(body, 'Session', 4096);
      sessionHash = hashToken(session ?? '');
      const s = session ? await repo.findSession(this.db, sessionHash) : null;
      if (!s || s.challenge !== 'MFA_SETUP' || s.state.stage !== 'associated' || !s.username) throw Errors.invalidSession();
      sessionState = s.state;
      user = await repo.findUser(this.db, s.username);
      if (!user) throw Errors.invalidSession();
      if (!user.enabled) throw Errors.userDisabled();
    }
    if (!user.totp_pending_secret) {
      throw new CognitoError('InvalidParameterException', 'No software token has been associated with this user.');
    }
    const username = user.username;
    await this.checkDelay('totp', username, caller, username);
    const result = await checkTotp(unseal(this.dataKey, user.totp_pending_secret), code, null);
    if (!result.valid) {
      await this.failure('totp', username, caller, { action: 'auth.mfa_verify', username, byUser: accessToken !== undefined, reason: 'wrong MFA code' }, sessionHash);
      throw new CognitoError('EnableSoftwareTokenMFAException', 'Code mismatch and fail enable Software Token MFA');
    }
    const hash = sessionHash;
    return withTransaction(this.db, async (tx) => {
      if (hash && !(await repo.consumeSession(tx, hash))) throw Errors.invalidSession();
      await repo.promotePendingTotp(tx, username, result.step);
      await repo.clearAttempts(tx, throttleBucket('totp', 'account', username));
      if (!hash) return { Status: 'SUCCESS' };
      const next = await this.newSession(tx, username, 'MFA_SETUP', { ...sessionState, stage: 'verified' });
      return { Status: 'SUCCESS', Session: next };
    });
  }

  private async setUserMfaPreference(body: Body, caller: CallerInfo): Promise<Body> {
    const { user } = await this.authenticate(body);
    const settings = optionalRecord(body, 'SoftwareTokenMfaSettings');
    if (!settings) return {};
    const enabled = optionalBoolean(settings, 'Enabled');
    const preferred = optionalBoolean(settings, 'PreferredMfa');
    const nextEnabled = enabled ?? user.mfa_enabled;
    if (nextEnabled && !user.totp_secret) throw Errors.invalidParameter('User has not verified software token mfa');
    const nextPreferred = nextEnabled ? (preferred ?? (enabled === true ? true : user.mfa_preferred)) : false;
    await withTransaction(this.db, async (tx) => {
      await repo.setMfa(tx, user.username, nextEnabled, nextPreferred);
      if (nextEnabled !== user.mfa_enabled) {
        const action = nextEnabled ? 'auth.mfa_enable' : 'auth.mfa_disable';
        await this.event(tx, caller, { action, outcome: 'success', username: user.username, byUser: true });
      }
    });
    return {};
  }

  // ---- password reset ------------------------------------------------------------------------
  //
  // Cognito's "prevent user existence errors": for an unknown address, an invited user who has
  // no password yet, a disabled and a confirmed user, both calls answer alike (same shape, status,
  // error type and message, and no sooner than RESET_ANSWER_FLOOR_MS). Only the mailbox owner
  // learns whether a code was sent. A reset that cannot send a code stores a decoy in its place,
  // so that ConfirmForgotPassword then answers "wrong code" and later "expired" as for a real one.

  private async forgotPassword(body: Body, caller: CallerInfo): Promise<Body> {
    this.checkClient(body);
    await this.guardIp(caller.ip);
    const login = normalizeLogin(requiredString(body, 'Username', 254));
    return this.atLeast(this.options.resetAnswerFloorMs ?? RESET_ANSWER_FLOOR_MS, async () => {
      const user = await repo.findUser(this.db, login);
      const accountKey = user ? user.username : `login:${login}`;
      const delivery = {
        CodeDeliveryDetails: {
          AttributeName: 'email',
          DeliveryMedium: 'EMAIL',
          Destination: user ? maskEmail(user.email) : this.decoyDestination(login),
        },
      };
      const sendBucket = `reset-send:${accountKey}`;
      if ((await repo.countAttempts(this.db, sendBucket, 3600)) >= RESET_SENDS_PER_HOUR) {
        await this.event(this.db, caller, {
          action: 'auth.password_reset_request',
          outcome: 'failure',
          username: user?.username ?? null,
          byUser: false,
          reason: 'too many requests',
        });
        throw Errors.limitExceeded();
      }
      const reason = !user ? 'unknown account' : !user.enabled ? 'disabled' : user.status === 'FORCE_CHANGE_PASSWORD' ? 'invitation not accepted' : null;
      await withTransaction(this.db, async (tx) => {
        await repo.recordAttempt(tx, sendBucket);
        if (user && reason === null) {
          const code = sixDigitCode();
          await repo.storeResetCode(tx, user.username, this.resetCodeHash(user.username, code), RESET_CODE_TTL_SECONDS);
          await this.deps.mailer.send(resetCodeMessage(this.deps.publicUrl, user.email, code), tx);
        } else {
          await repo.storeResetDecoy(tx, accountKey, RESET_CODE_TTL_SECONDS);
        }
        await this.event(tx, caller, {
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

  private resetCodeHash(username: string, code: string): Buffer {
    return keyedHash(this.dataKey, 'reset-code', username, code);
  }

  /** Looks like maskEmail of a real address: for a login that is not one (an unknown UUID). */
  private decoyDestination(login: string): string {
    if (login.includes('@')) return maskEmail(login);
    const h = keyedHash(this.dataKey, 'decoy-destination', login);
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    return maskEmail(`${letters[h[0]! % 26]}@${letters[h[1]! % 26]}`);
  }

  private async confirmForgotPassword(body: Body, caller: CallerInfo): Promise<Body> {
    this.checkClient(body);
    await this.guardIp(caller.ip);
    const login = normalizeLogin(requiredString(body, 'Username', 254));
    const code = requiredString(body, 'ConfirmationCode', 20).trim();
    const password = requiredString(body, 'Password', 256);
    return this.atLeast(this.options.resetAnswerFloorMs ?? RESET_ANSWER_FLOOR_MS, async () => {
      const found = await repo.findUser(this.db, login);
      const accountKey = found ? found.username : `login:${login}`;
      const user = found && found.enabled && found.status !== 'FORCE_CHANGE_PASSWORD' ? found : null;
      await this.checkDelay('reset-code', accountKey, caller, found?.username ?? null);
      const failuresToday = await repo.countAttempts(this.db, throttleBucket('reset-code', 'account', accountKey), 24 * 3600);
      if (failuresToday >= this.throttle.resetCodeGuessesPerDay) {
        await this.event(this.db, caller, {
          action: 'auth.password_reset',
          outcome: 'failure',
          username: found?.username ?? null,
          byUser: false,
          reason: 'daily limit of wrong codes reached',
        });
        throw Errors.limitExceeded();
      }
      if (!meetsPasswordPolicy(password)) throw Errors.invalidPassword();
      const stored = user ? await repo.findResetCode(this.db, user.username) : null;
      const decoy = stored ? null : await repo.findResetDecoy(this.db, accountKey);
      if (!(stored?.live ?? decoy?.live ?? false)) throw Errors.expiredCode();
      const hash = this.resetCodeHash(user?.username ?? accountKey, code);
      if (!user || !stored || !buffersEqual(hash, stored.code_hash)) {
        await this.failure('reset-code', accountKey, caller, {
          action: 'auth.password_reset',
          username: found?.username ?? null,
          reason: 'wrong code',
        });
        // A code (or its decoy) is void after a few wrong guesses: a new one must be asked for.
        const perCode = stored && user ? await repo.countResetCodeFailure(this.db, user.username) : await repo.countResetDecoyFailure(this.db, accountKey);
        if (perCode >= this.throttle.resetCodeGuessesPerCode) {
          if (stored && user) await repo.deleteResetCode(this.db, user.username);
          else await repo.deleteResetDecoy(this.db, accountKey);
        }
        throw Errors.codeMismatch();
      }
      const verifier = createVerifier(this.poolName, user.username, password);
      // One transaction: the code is used up only together with the new password, the end of
      // every sign-in, the cleared counters and the audit record.
      await withTransaction(this.db, async (tx) => {
        await repo.findUser(tx, user.username, { forUpdate: true });
        if (!(await repo.consumeResetCode(tx, user.username, hash))) throw Errors.expiredCode();
        await repo.setPassword(tx, user.username, { ...verifier, permanent: true });
        // Whoever made the reset necessary may hold a session: end them all.
        await repo.revokeEverything(tx, user.username);
        await repo.clearAttempts(tx, throttleBucket('password', 'account', user.username));
        await repo.clearAttempts(tx, throttleBucket('reset-code', 'account', user.username));
        await this.event(tx, caller, { action: 'auth.password_reset', outcome: 'success', username: user.username, byUser: false });
      });
      await this.signedOut(user, 'password_reset');
      return {};
    });
  }

  // ---- admin -----------------------------------------------------------------------------------

  private async adminUser(body: Body, db: Queryable = this.db): Promise<repo.UserRow> {
    const user = await repo.findUser(db, normalizeLogin(requiredString(body, 'Username', 254)), { forUpdate: db !== this.db });
    if (!user) throw Errors.userNotFound();
    return user;
  }

  private async adminCreateUser(body: Body): Promise<Body> {
    const action = optionalString(body, 'MessageAction', 20);
    if (action !== undefined && action !== 'RESEND' && action !== 'SUPPRESS') {
      throw Errors.invalidParameter('MessageAction must be RESEND or SUPPRESS');
    }
    const given = optionalString(body, 'TemporaryPassword', 256);
    if (given !== undefined && !meetsPasswordPolicy(given)) throw Errors.invalidPassword();
    const temporaryPassword = given ?? generateTemporaryPassword();
    const expiresAt = new Date(Date.now() + TEMPORARY_PASSWORD_TTL_MS);

    // One transaction: the account (or its new temporary password) and its invitation together.
    const user = await withTransaction(this.db, async (tx) => {
      let row: repo.UserRow | null;
      if (action === 'RESEND') {
        row = await this.adminUser(body, tx);
        if (row.status !== 'FORCE_CHANGE_PASSWORD') {
          throw new CognitoError('UnsupportedUserStateException', 'Resend not possible. User is not in FORCE_CHANGE_PASSWORD state.');
        }
        await repo.setPassword(tx, row.username, {
          ...createVerifier(this.poolName, row.username, temporaryPassword),
          permanent: false,
          temporaryPasswordExpiresAt: expiresAt,
        });
      } else {
        const username = requiredString(body, 'Username', 254).trim();
        const attributes = attributeList(body, 'UserAttributes');
        const email = normalizeEmail(attributes.email ?? username);
        if (!isValidEmail(email)) throw Errors.invalidParameter('Invalid email address format.');
        const id = randomUUID();
        row = await repo.insertUser(tx, {
          username: id,
          email,
          ...createVerifier(this.poolName, id, temporaryPassword),
          temporaryPasswordExpiresAt: expiresAt,
        });
        if (!row) throw Errors.usernameExists();
      }
      if (action !== 'SUPPRESS') {
        await this.deps.mailer.send(invitationMessage(this.deps.publicUrl, row.email, temporaryPassword), tx);
      }
      return row;
    });
    const fresh = (await repo.findUser(this.db, user.username)) ?? user;
    return {
      User: {
        Username: fresh.username,
        Attributes: this.attributes(fresh, false),
        UserCreateDate: epoch(fresh.created_at),
        UserLastModifiedDate: epoch(fresh.updated_at),
        Enabled: fresh.enabled,
        UserStatus: fresh.status,
        MFAOptions: [],
      },
    };
  }

  private async listUsers(body: Body): Promise<Body> {
    const limit = optionalNumber(body, 'Limit') ?? 60;
    if (!Number.isInteger(limit) || limit < 1 || limit > 60) throw Errors.invalidParameter('Limit must be from 1 to 60');
    const token = optionalString(body, 'PaginationToken', 1000);
    let after: { createdAt: string; username: string } | null = null;
    if (token) {
      try {
        const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { c?: unknown; u?: unknown };
        if (typeof parsed.c !== 'string' || typeof parsed.u !== 'string') throw new Error('bad token');
        // Both go into SQL casts: anything else than what we issued is refused here, not there.
        if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(parsed.c) || Number.isNaN(Date.parse(parsed.c))) {
          throw new Error('bad token');
        }
        if (!repo.isUsername(parsed.u)) throw new Error('bad token');
        after = { createdAt: parsed.c, username: parsed.u };
      } catch {
        throw Errors.invalidParameter('Invalid pagination token');
      }
    }
    const filterText = optionalString(body, 'Filter', 500);
    let filter: { attribute: 'email' | 'sub'; value: string } | null = null;
    if (filterText) {
      const m = /^\s*(email|sub)\s*=\s*"([^"]*)"\s*$/.exec(filterText);
      if (!m) throw Errors.invalidParameter('Only exact email or sub filters are supported');
      const attribute = m[1] as 'email' | 'sub';
      filter = { attribute, value: attribute === 'email' ? normalizeEmail(m[2]!) : m[2]! };
    }
    const rows = await repo.listUsers(this.db, limit, after, filter);
    const last = rows.at(-1);
    return {
      Users: rows.map((u) => ({
        Username: u.username,
        Attributes: this.attributes(u, true),
        UserCreateDate: epoch(u.created_at),
        UserLastModifiedDate: epoch(u.updated_at),
        Enabled: u.enabled,
        UserStatus: u.status,
      })),
      ...(rows.length === limit && last
        ? { PaginationToken: Buffer.from(JSON.stringify({ c: last.cursor_time, u: last.username })).toString('base64url') }
        : {}),
    };
  }

  // ---- shared --------------------------------------------------------------------------------

  private attributes(user: repo.UserRow, forAdmin: boolean) {
    const list = [
      { Name: 'sub', Value: user.username },
      { Name: 'email_verified', Value: String(user.email_verified) },
      { Name: 'email', Value: user.email },
    ];
    // Not a Cognito attribute: the local pool tells the portal when the password last changed.
    if (forAdmin && user.password_changed_at) {
      list.push({ Name: 'custom:password_changed_at', Value: user.password_changed_at.toISOString() });
    }
    // Nor this: Cognito's ListUsers does not report TOTP MFA; the local pool tells the portal.
    if (forAdmin) list.push({ Name: 'custom:mfa_enabled', Value: String(Boolean(user.mfa_enabled && user.totp_secret)) });
    return list;
  }

  private mfaSettings(user: repo.UserRow) {
    if (!user.mfa_enabled || !user.totp_secret) return {};
    return {
      UserMFASettingList: ['SOFTWARE_TOKEN_MFA'],
      ...(user.mfa_preferred ? { PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA' } : {}),
    };
  }

  private async signedOut(user: repo.UserRow, reason: SignOutEvent['reason'], keepSignInId?: string): Promise<void> {
    await this.deps.options?.onSignOut?.({ sub: user.username, username: user.username, reason, keepSignInId });
  }

  private async guardIp(ip: string): Promise<void> {
    const bucket = `ip:${ip}`;
    if ((await repo.countAttempts(this.db, bucket, 60)) >= this.throttle.ipPerMinute) throw Errors.tooManyRequests();
    await repo.recordAttempt(this.db, bucket);
  }

  /**
   * No lock-out, a delay: after `freeFailures` failures the account, and separately the address,
   * must wait `baseDelayMs`·2^(n − free), capped, since its latest failure. Answered with
   * Cognito's TooManyRequestsException (and audited) while waiting.
   */
  private async checkDelay(counter: Counter, accountKey: string, caller: CallerInfo, username: string | null): Promise<void> {
    const t = this.throttle;
    for (const [scope, key, cap] of [
      ['account', accountKey, t.accountMaxDelayMs],
      ['address', caller.ip, t.addressMaxDelayMs],
    ] as const) {
      const { count, sinceLastMs } = await repo.failureState(this.db, throttleBucket(counter, scope, key), t.failureWindowSeconds);
      if (count < t.freeFailures) continue;
      const waitMs = Math.min(t.baseDelayMs * 2 ** (count - t.freeFailures), cap);
      if (sinceLastMs >= waitMs) continue;
      await this.event(this.db, caller, {
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
  private async failure(
    counter: Counter,
    accountKey: string,
    caller: CallerInfo,
    event: { action: string; username: string | null; reason: string; byUser?: boolean },
    sessionHash: Buffer | null = null,
  ): Promise<void> {
    await withTransaction(this.db, async (tx) => {
      await repo.recordAttempt(tx, throttleBucket(counter, 'account', accountKey));
      await repo.recordAttempt(tx, throttleBucket(counter, 'address', caller.ip));
      if (sessionHash && (await repo.countSessionFailure(tx, sessionHash)) >= SESSION_CODE_FAILURES) {
        await repo.deleteSession(tx, sessionHash);
      }
      await this.event(tx, caller, { byUser: false, ...event, outcome: 'failure' });
    });
  }

  private event(db: Queryable, caller: CallerInfo, event: AuthEvent): Promise<void> {
    return this.hooks.audit(db, caller, event);
  }

  private get options(): LocalPoolOptions {
    return this.deps.options ?? {};
  }

  /** Runs `fn`, then answers (or fails) no sooner than `floorMs` after the start. */
  private async atLeast<T>(floorMs: number, fn: () => Promise<T>): Promise<T> {
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
}

function throttleBucket(counter: Counter, scope: 'account' | 'address', key: string): string {
  return `${counter}:${scope}:${key}`;
}

/** A login is a username (UUID, compared as is) or an address (normalised like every address). */
function normalizeLogin(login: string): string {
  const trimmed = login.trim();
  return repo.isUsername(trimmed) ? trimmed.toLowerCase() : normalizeEmail(trimmed);
}

/** Formats 16 bytes as randomUUID() does: version 4, RFC 4122 variant. */
function uuidV4From(bytes: Buffer): string {
  const b = Buffer.from(bytes.subarray(0, 16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function epoch(date: Date): number {
  return date.getTime() / 1000;
}

function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***`;
}
