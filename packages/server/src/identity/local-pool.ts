import { randomUUID } from 'node:crypto';
import { isValidEmail } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
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
  /** Failed passwords (and, separately, failed codes) per account within the window. */
  accountFailures: number;
  accountWindowSeconds: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { ipPerMinute: 60, accountFailures: 5, accountWindowSeconds: 15 * 60 };

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
}

export interface LocalPoolDeps {
  db: repo.Db;
  log: FastifyBaseLogger;
  settings: repo.SettingsRow;
  key: SigningKey;
  publicUrl: string;
  issuer: string;
  mfa: 'optional' | 'required';
  mailer: Mailer;
  options?: LocalPoolOptions;
}

export interface CallerInfo {
  ip: string;
}

const ADMIN_OPERATIONS = new Set([
  'AdminCreateUser',
  'AdminSetUserPassword',
  'AdminGetUser',
  'ListUsers',
  'AdminEnableUser',
  'AdminDisableUser',
  'AdminUserGlobalSignOut',
]);

export function isAdminOperation(op: string): boolean {
  return ADMIN_OPERATIONS.has(op) || op.startsWith('Admin');
}

type AuthResult = Record<string, string | number>;

export class LocalPool {
  readonly poolId: string;
  readonly clientId: string;
  private readonly poolName: string;
  private readonly db: repo.Db;
  private readonly dataKey: Buffer;
  private readonly throttle: ThrottleLimits;
  private readonly pickB: () => bigint;
  private readonly admin: AdminCredentials;

  constructor(private readonly deps: LocalPoolDeps) {
    this.poolId = deps.settings.pool_id;
    this.clientId = deps.settings.client_id;
    this.poolName = poolNameOf(this.poolId);
    this.db = deps.db;
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
        return this.setUserMfaPreference(body);
      case 'GetUser':
        return this.getUser(body);
      case 'ChangePassword':
        return this.changePassword(body, caller);
      case 'ForgotPassword':
        return this.forgotPassword(body, caller);
      case 'ConfirmForgotPassword':
        return this.confirmForgotPassword(body, caller);
      case 'GlobalSignOut': {
        const { user } = await this.authenticate(body);
        await repo.revokeEverything(this.db, user.username);
        await this.signedOut(user, 'global_sign_out');
        return {};
      }
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
    const login = params.USERNAME?.trim();
    if (!login || login.length > 254) throw Errors.invalidParameter('Missing required parameter USERNAME');
    const A = parseClientValue(params.SRP_A ?? '');
    if (A === null) throw Errors.invalidParameter('SRP_A is invalid.');
    const user = await repo.findUser(this.db, login);
    // Unknown users get a decoy challenge that is answered like a wrong password: the two cannot
    // be told apart (no user enumeration), and both count towards the same kind of lock-out.
    const accountKey = user ? user.username : `login:${login.toLowerCase()}`;
    if (await this.locked(`pwfail:${accountKey}`)) throw Errors.passwordAttemptsExceeded();
    const userId = user ? user.username : this.decoyUserId(login);
    const salt = user ? user.srp_salt : padHex(BigInt(`0x${keyedHash(this.dataKey, 'decoy-salt', login.toLowerCase()).subarray(0, 16).toString('hex')}`));
    const verifier = user ? user.srp_verifier : keyedHash(this.dataKey, 'decoy-verifier', login.toLowerCase()).toString('hex');
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

  private decoyUserId(login: string): string {
    const h = keyedHash(this.dataKey, 'decoy-user', login.toLowerCase()).toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  private async respondToAuthChallenge(body: Body, caller: CallerInfo): Promise<Body> {
    this.checkClient(body);
    const name = requiredString(body, 'ChallengeName', 100);
    const responses = stringMap(body, 'ChallengeResponses');
    const session = optionalString(body, 'Session', 4096);
    await this.guardIp(caller.ip);
    switch (name) {
      case 'PASSWORD_VERIFIER':
        return this.passwordVerifier(responses);
      case 'NEW_PASSWORD_REQUIRED':
        return this.newPasswordRequired(session, responses);
      case 'SOFTWARE_TOKEN_MFA':
        return this.softwareTokenMfa(session, responses);
      case 'MFA_SETUP':
        return this.mfaSetupComplete(session);
      default:
        throw Errors.invalidParameter(`Unsupported challenge ${name}`);
    }
  }

  private async passwordVerifier(responses: Record<string, string>): Promise<Body> {
    const secretBlock = responses.PASSWORD_CLAIM_SECRET_BLOCK;
    const signature = responses.PASSWORD_CLAIM_SIGNATURE;
    const timestamp = responses.TIMESTAMP;
    if (!secretBlock || !signature || !timestamp) throw Errors.invalidParameter('Missing PASSWORD_VERIFIER responses');
    // The secret block is the key of the challenge: taking it makes it single use.
    const s = await repo.consumeSession(this.db, hashToken(secretBlock));
    if (!s || s.challenge !== 'PASSWORD_VERIFIER') throw Errors.invalidSession();
    const accountKey = s.state.accountKey ?? '';
    if (await this.locked(`pwfail:${accountKey}`)) throw Errors.passwordAttemptsExceeded();
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
      await repo.recordAttempt(this.db, `pwfail:${accountKey}`);
      throw Errors.notAuthorized();
    }
    await repo.clearAttempts(this.db, `pwfail:${accountKey}`);
    if (!user.enabled) throw Errors.userDisabled();
    if (user.status === 'RESET_REQUIRED') {
      throw new CognitoError('PasswordResetRequiredException', 'Password reset required for the user');
    }
    const authTime = new Date();
    if (user.status === 'FORCE_CHANGE_PASSWORD') {
      if (user.temporary_password_expires_at && user.temporary_password_expires_at.getTime() < Date.now()) {
        throw Errors.notAuthorized('Temporary password has expired and must be reset by an administrator.');
      }
      const session = await this.newSession(user.username, 'NEW_PASSWORD_REQUIRED', { authTime: authTime.toISOString() });
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
    return this.afterPassword(user, authTime);
  }

  /** What follows a proven password: the TOTP code, MFA set-up (pool requires MFA), or tokens. */
  private async afterPassword(user: repo.UserRow, authTime: Date): Promise<Body> {
    const state = { authTime: authTime.toISOString() };
    if (user.mfa_enabled && user.totp_secret) {
      const session = await this.newSession(user.username, 'SOFTWARE_TOKEN_MFA', state);
      return { ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: session, ChallengeParameters: {} };
    }
    if (this.deps.mfa === 'required') {
      const session = await this.newSession(user.username, 'MFA_SETUP', { ...state, stage: 'start' });
      return { ChallengeName: 'MFA_SETUP', Session: session, ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' } };
    }
    return { ChallengeParameters: {}, AuthenticationResult: await this.signIn(user, authTime) };
  }

  private async newPasswordRequired(session: string | undefined, responses: Record<string, string>): Promise<Body> {
    const hash = hashToken(session ?? '');
    const s = session ? await repo.findSession(this.db, hash) : null;
    if (!s || s.challenge !== 'NEW_PASSWORD_REQUIRED' || !s.username) throw Errors.invalidSession();
    const password = responses.NEW_PASSWORD;
    if (!password) throw Errors.invalidParameter('Missing required parameter NEW_PASSWORD');
    // Checked before the session is used up, so that the person can try a better password.
    if (password.length > 256 || !meetsPasswordPolicy(password)) throw Errors.invalidPassword();
    if (!(await repo.consumeSession(this.db, hash))) throw Errors.invalidSession();
    const user = await repo.findUser(this.db, s.username);
    if (!user) throw Errors.invalidSession();
    if (!user.enabled) throw Errors.userDisabled();
    await repo.setPassword(this.db, user.username, { ...createVerifier(this.poolName, user.username, password), permanent: true });
    return this.afterPassword({ ...user, status: 'CONFIRMED' }, new Date(s.state.authTime ?? Date.now()));
  }

  private async softwareTokenMfa(session: string | undefined, responses: Record<string, string>): Promise<Body> {
    const hash = hashToken(session ?? '');
    const s = session ? await repo.findSession(this.db, hash) : null;
    if (!s || s.challenge !== 'SOFTWARE_TOKEN_MFA' || !s.username) throw Errors.invalidSession();
    const user = await repo.findUser(this.db, s.username);
    if (!user || !user.totp_secret) throw Errors.invalidSession();
    if (!user.enabled) throw Errors.userDisabled();
    if (await this.locked(`codefail:${user.username}`)) {
      await repo.deleteSession(this.db, hash);
      throw Errors.passwordAttemptsExceeded();
    }
    const code = (responses.SOFTWARE_TOKEN_MFA_CODE ?? '').replace(/\s+/g, '');
    const result = await checkTotp(unseal(this.dataKey, user.totp_secret), code, user.totp_last_step);
    if (!result.valid || !(await repo.claimTotpStep(this.db, user.username, result.step))) {
      await this.codeFailure(user.username, hash);
      throw new CognitoError('CodeMismatchException', 'Invalid code received for user');
    }
    if (!(await repo.consumeSession(this.db, hash))) throw Errors.invalidSession();
    return { ChallengeParameters: {}, AuthenticationResult: await this.signIn(user, new Date(s.state.authTime ?? Date.now())) };
  }

  private async mfaSetupComplete(session: string | undefined): Promise<Body> {
    const s = session ? await repo.consumeSession(this.db, hashToken(session)) : null;
    if (!s || s.challenge !== 'MFA_SETUP' || s.state.stage !== 'verified' || !s.username) throw Errors.invalidSession();
    const user = await repo.findUser(this.db, s.username);
    if (!user || !user.totp_secret) throw Errors.invalidSession();
    if (!user.enabled) throw Errors.userDisabled();
    await repo.setMfa(this.db, user.username, true, true);
    return { ChallengeParameters: {}, AuthenticationResult: await this.signIn(user, new Date(s.state.authTime ?? Date.now())) };
  }

  private async newSession(username: string, challenge: string, state: Record<string, string>): Promise<string> {
    const session = opaqueToken(96);
    await repo.insertSession(this.db, { hash: hashToken(session), username, challenge, state, ttlSeconds: SESSION_TTL_SECONDS });
    return session;
  }

  private async signIn(user: repo.UserRow, authTime: Date): Promise<AuthResult> {
    const refreshToken = opaqueToken(96);
    const id = randomUUID();
    await repo.insertRefreshToken(this.db, {
      id,
      hash: hashToken(refreshToken),
      username: user.username,
      clientId: this.clientId,
      authTime,
      ttlSeconds: REFRESH_TTL_SECONDS,
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
    if (await this.locked(`pwfail:${user.username}`)) throw Errors.passwordAttemptsExceeded();
    if (!passwordMatches(this.poolName, user.username, previous, user.srp_salt, user.srp_verifier)) {
      await repo.recordAttempt(this.db, `pwfail:${user.username}`);
      throw Errors.notAuthorized();
    }
    await repo.setPassword(this.db, user.username, { ...createVerifier(this.poolName, user.username, proposed), permanent: true });
    // Whoever knew the old password may hold another sign-in; the one making the change stays.
    await repo.revokeOtherSignIns(this.db, user.username, claims.originJti);
    await this.signedOut(user, 'password_change', claims.originJti);
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
    const s = session ? await repo.consumeSession(this.db, hashToken(session)) : null;
    if (!s || s.challenge !== 'MFA_SETUP' || !s.username) throw Errors.invalidSession();
    await repo.setPendingTotp(this.db, s.username, seal(this.dataKey, secret));
    const next = await this.newSession(s.username, 'MFA_SETUP', { ...s.state, stage: 'associated' });
    return { SecretCode: secret, Session: next };
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
    if (await this.locked(`codefail:${user.username}`)) throw Errors.limitExceeded();
    const result = await checkTotp(unseal(this.dataKey, user.totp_pending_secret), code, null);
    if (!result.valid) {
      await this.codeFailure(user.username, sessionHash);
      throw new CognitoError('EnableSoftwareTokenMFAException', 'Code mismatch and fail enable Software Token MFA');
    }
    if (sessionHash) {
      if (!(await repo.consumeSession(this.db, sessionHash))) throw Errors.invalidSession();
      await repo.promotePendingTotp(this.db, user.username, result.step);
      const next = await this.newSession(user.username, 'MFA_SETUP', { ...sessionState, stage: 'verified' });
      return { Status: 'SUCCESS', Session: next };
    }
    await repo.promotePendingTotp(this.db, user.username, result.step);
    return { Status: 'SUCCESS' };
  }

  private async setUserMfaPreference(body: Body): Promise<Body> {
    const { user } = await this.authenticate(body);
    const settings = optionalRecord(body, 'SoftwareTokenMfaSettings');
    if (!settings) return {};
    const enabled = optionalBoolean(settings, 'Enabled');
    const preferred = optionalBoolean(settings, 'PreferredMfa');
    const nextEnabled = enabled ?? user.mfa_enabled;
    if (nextEnabled && !user.totp_secret) throw Errors.invalidParameter('User has not verified software token mfa');
    const nextPreferred = nextEnabled ? (preferred ?? (enabled === true ? true : user.mfa_preferred)) : false;
    await repo.setMfa(this.db, user.username, nextEnabled, nextPreferred);
    return {};
  }

  // ---- password reset ------------------------------------------------------------------------

  private async forgotPassword(body: Body, caller: CallerInfo): Promise<Body> {
    this.checkClient(body);
    await this.guardIp(caller.ip);
    const login = requiredString(body, 'Username', 254).trim();
    const user = await repo.findUser(this.db, login);
    // Like Cognito; the web page shows the same text as for a sent code.
    if (!user) throw Errors.userNotFound('Username/client id combination not found.');
    const delivery = {
      CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: maskEmail(user.email) },
    };
    if (user.status === 'FORCE_CHANGE_PASSWORD') {
      throw Errors.notAuthorized('User password cannot be reset in the current state.');
    }
    // A disabled account gets no code, and the answer does not say so.
    if (!user.enabled) return delivery;
    if ((await repo.countAttempts(this.db, `reset-send:${user.username}`, 3600)) >= RESET_SENDS_PER_HOUR) {
      throw Errors.limitExceeded();
    }
    await repo.recordAttempt(this.db, `reset-send:${user.username}`);
    const code = sixDigitCode();
    await repo.storeResetCode(this.db, user.username, this.resetCodeHash(user.username, code), RESET_CODE_TTL_SECONDS);
    await this.deps.mailer.send(resetCodeMessage(this.deps.publicUrl, user.email, code));
    return delivery;
  }

  private resetCodeHash(username: string, code: string): Buffer {
    return keyedHash(this.dataKey, 'reset-code', username, code);
  }

  private async confirmForgotPassword(body: Body, caller: CallerInfo): Promise<Body> {
    this.checkClient(body);
    await this.guardIp(caller.ip);
    const login = requiredString(body, 'Username', 254).trim();
    const code = requiredString(body, 'ConfirmationCode', 20).trim();
    const password = requiredString(body, 'Password', 256);
    const user = await repo.findUser(this.db, login);
    if (!user) throw Errors.codeMismatch();
    if (await this.locked(`codefail:${user.username}`)) throw Errors.limitExceeded();
    if (!meetsPasswordPolicy(password)) throw Errors.invalidPassword();
    const stored = await repo.findResetCode(this.db, user.username);
    if (!stored || !stored.live) throw Errors.expiredCode();
    const hash = this.resetCodeHash(user.username, code);
    if (!buffersEqual(hash, stored.code_hash)) {
      await repo.recordAttempt(this.db, `codefail:${user.username}`);
      if ((await repo.countResetCodeFailure(this.db, user.username)) >= this.throttle.accountFailures) {
        await repo.deleteResetCode(this.db, user.username);
      }
      throw Errors.codeMismatch();
    }
    if (!(await repo.consumeResetCode(this.db, user.username, hash))) throw Errors.expiredCode();
    await repo.setPassword(this.db, user.username, { ...createVerifier(this.poolName, user.username, password), permanent: true });
    // Whoever made the reset necessary may hold a session: end them all.
    await repo.revokeEverything(this.db, user.username);
    await this.signedOut(user, 'password_reset');
    await repo.clearAttempts(this.db, `pwfail:${user.username}`);
    return {};
  }

  // ---- admin -----------------------------------------------------------------------------------

  private async adminUser(body: Body): Promise<repo.UserRow> {
    const user = await repo.findUser(this.db, requiredString(body, 'Username', 254).trim());
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

    let user: repo.UserRow | null;
    if (action === 'RESEND') {
      user = await this.adminUser(body);
      if (user.status !== 'FORCE_CHANGE_PASSWORD') {
        throw new CognitoError('UnsupportedUserStateException', 'Resend not possible. User is not in FORCE_CHANGE_PASSWORD state.');
      }
      await repo.setPassword(this.db, user.username, {
        ...createVerifier(this.poolName, user.username, temporaryPassword),
        permanent: false,
        temporaryPasswordExpiresAt: expiresAt,
      });
    } else {
      const username = requiredString(body, 'Username', 254).trim();
      const attributes = attributeList(body, 'UserAttributes');
      const email = (attributes.email ?? username).trim().toLowerCase();
      if (!isValidEmail(email)) throw Errors.invalidParameter('Invalid email address format.');
      const id = randomUUID();
      user = await repo.insertUser(this.db, {
        username: id,
        email,
        ...createVerifier(this.poolName, id, temporaryPassword),
        temporaryPasswordExpiresAt: expiresAt,
      });
      if (!user) throw Errors.usernameExists();
    }
    if (action !== 'SUPPRESS') {
      await this.deps.mailer.send(invitationMessage(this.deps.publicUrl, user.email, temporaryPassword));
    }
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
      filter = { attribute: m[1] as 'email' | 'sub', value: m[2]! };
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

  private async locked(bucket: string): Promise<boolean> {
    return (await repo.countAttempts(this.db, bucket, this.throttle.accountWindowSeconds)) >= this.throttle.accountFailures;
  }

  private async codeFailure(username: string, sessionHash: Buffer | null): Promise<void> {
    await repo.recordAttempt(this.db, `codefail:${username}`);
    if (sessionHash && (await repo.countSessionFailure(this.db, sessionHash)) >= SESSION_CODE_FAILURES) {
      await repo.deleteSession(this.db, sessionHash);
    }
  }
}

function epoch(date: Date): number {
  return date.getTime() / 1000;
}

function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***`;
}
