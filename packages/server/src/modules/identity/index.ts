import { CognitoJwtVerifier, JwtVerifier } from 'aws-jwt-verify';
import type { Jwks } from 'aws-jwt-verify/jwk';

import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import { decodeProtectedHeader } from 'jose';
import type pg from 'pg';
import type { Config } from '../../config.ts';
import { OUTBOX_RETENTION_DAYS } from '@rpm/contracts';
import type { UserDirectory } from './directory.ts';
import { pruneExpired } from './housekeeping.ts';
import { createLocalDirectory } from './local-directory.ts';
import { LocalPool } from './local-pool.ts';
import { createMailer } from './mailer.ts';
import { localPoolPlugin } from './plugin.ts';
import type { LocalPoolOptions, PoolHooks, SignOutEvent } from './pool/context.ts';
import { portalHooks } from './portal-hooks.ts';
import { revokeSignIn } from './repositories/refresh-tokens.repository.ts';
import { loadOrCreateSettings } from './pool-settings.ts';
import { tokensValidAfter } from './repositories/users.repository.ts';
import { SIGNING_REGION } from './sigv4.ts';
import { jwksOf, loadSigningKey } from './tokens.ts';

// The AWS SDK warns on Node 20 about its releases of 2027; the version locked here supports it.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export type { DirectoryUser, UserDirectory } from './directory.ts';
export { provisionFirstAdmin } from './bootstrap-admin.ts';
export { createMailer, readOutbox, type Mailer } from './mailer.ts';
export { loadOrCreateSettings } from './pool-settings.ts';
export type { AuthEvent, LocalPoolOptions, PoolHooks, ThrottleLimits } from './pool/context.ts';

export interface IdentitySettings {
  mode: 'local' | 'cognito';
  /** e.g. http://localhost:3000 (no trailing slash) */
  publicUrl: string;
  /** cognito mode: AWS_REGION */
  region?: string;
  /** cognito mode */
  userPoolId?: string;
  /** cognito mode */
  clientId?: string;
  smtpUrl?: string;
  mailFrom?: string;
  localMfa?: 'optional' | 'required';
}

/**
 * The identity settings the portal's configuration gives. Tools that must send no mail (the
 * demo seed) pass `mail: false` and get no SMTP settings.
 */
export function identitySettingsOf(config: Config, { mail = true }: { mail?: boolean } = {}): IdentitySettings {
  return {
    mode: config.cognito ? 'cognito' : 'local',
    publicUrl: config.publicUrl,
    region: config.cognito?.region,
    userPoolId: config.cognito?.userPoolId,
    clientId: config.cognito?.clientId,
    ...(mail ? { smtpUrl: config.smtpUrl, mailFrom: config.mailFrom } : {}),
    localMfa: config.localMfa,
  };
}

export interface Identity {
  mode: 'local' | 'cognito';
  appConfig: { userPoolId: string; clientId: string; region: string; userPoolEndpoint?: string };
  /**
   * Verifies an ACCESS token: signature, issuer, expiry, token_use "access", our client id, and
   * (local pool) that the token's sign-in was not revoked by a global sign-out. Resolves with the
   * subject and username, and the sign-in it stands for: the token's own id, when the person
   * signed in (auth_time) and the pool's sign-in id (origin_jti); rejects otherwise.
   */
  verifyAccessToken(token: string): Promise<VerifiedAccessToken>;
  /**
   * Local mode only: revokes one sign-in (its refresh token, and with it every access token of
   * that sign-in). Cognito revokes a refresh token only when given the token itself, which the
   * portal never holds: there the browser's own sign-out revokes it.
   */
  revokeSignIn?(originJti: string): Promise<void>;
  directory: UserDirectory;
  /** Local mode only: POST /cognito and GET /<poolId>/.well-known/jwks.json. */
  plugin?: FastifyPluginAsync;
  /**
   * Local mode only: when the user last signed out globally (access tokens issued before are
   * refused), or null. Cognito keeps this to itself.
   */
  tokensValidAfter?(username: string): Promise<Date | null>;
  close(): Promise<void>;
}

export interface VerifiedAccessToken {
  sub: string;
  username: string;
  jti: string;
  authTime: Date;
  originJti: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface IdentityDeps {
  settings: IdentitySettings;
  db: pg.Pool;
  log: FastifyBaseLogger;
  /**
   * Encrypts the pool's signing key, admin secret and data key in the database (keys.ts); the
   * same key must be given at every start.
   */
  masterKey: Buffer;
  /** Tests: tighter throttling or a chosen SRP value. */
  localPoolOptions?: LocalPoolOptions;
  /**
   * Local mode: how the pool audits authentication events and learns whether a user's
   * organization requires MFA. Defaults to the portal's audit log and organizations table.
   * Cognito mode has no such hook: there an organization's "require MFA" cannot be enforced by
   * the pool (use the Cognito pool's own MFA setting), and Cognito's sign-in events stay in
   * CloudTrail rather than in the portal's audit log.
   */
  poolHooks?: PoolHooks;
  /**
   * Local mode: the portal's reaction when the pool ends a person's sign-ins (a password reset or
   * change, a global sign-out): ending their portal sessions. Given by the composition
   * (identity-wiring.ts), so that the identity module imports no other module.
   */
  endPortalSessions?: (db: pg.Pool, e: SignOutEvent) => Promise<{ userId: number; ended: number } | null>;
  /**
   * Cognito mode: the pool's JWKS, pre-loaded instead of fetched on first use (a network-less
   * deployment, or a test with its own signing key).
   */
  cognitoJwks?: Jwks;
}

/**
 * Builds the identity layer. In local mode the first start creates the pool (ids, signing key,
 * admin credentials) in the `identity` schema; later starts, and other instances, load it. The
 * local `directory` calls the pool in this process: it works before the server listens.
 */
export async function createIdentity(deps: IdentityDeps): Promise<Identity> {
  return deps.settings.mode === 'cognito' ? createCognitoIdentity(deps) : createLocalIdentity(deps);
}

async function createCognitoIdentity({ settings, cognitoJwks }: IdentityDeps): Promise<Identity> {
  const { region, userPoolId, clientId } = settings;
  if (!region || !userPoolId || !clientId) throw new Error('cognito mode needs region, userPoolId and clientId');
  // Loaded here, not at the top: the AWS SDK is the largest import of the server, and a portal on
  // its own user pool (the default) never needs it, so its start-up does not pay for it.
  const [{ CognitoIdentityProviderClient }, { createCognitoDirectory }] = await Promise.all([
    import('@aws-sdk/client-cognito-identity-provider'),
    import('./cognito-directory.ts'),
  ]);
  const client = new CognitoIdentityProviderClient({ region });
  const verifier = CognitoJwtVerifier.create({ userPoolId, clientId, tokenUse: 'access' });
  if (cognitoJwks) verifier.cacheJwks(cognitoJwks);
  return {
    mode: 'cognito',
    appConfig: { userPoolId, clientId, region },
    async verifyAccessToken(token) {
      const payload = await verifier.verify(token);
      if (typeof payload.jti !== 'string' || typeof payload.auth_time !== 'number') throw new Error('access token lacks claims');
      return {
        sub: payload.sub,
        username: payload.username,
        jti: payload.jti,
        authTime: new Date(payload.auth_time * 1000),
        originJti: typeof payload.origin_jti === 'string' ? payload.origin_jti : null,
      };
    },
    directory: createCognitoDirectory(client, userPoolId),
    async close() {
      client.destroy();
    },
  };
}

const PRUNE_INTERVAL_MS = 10 * 60 * 1000;

async function createLocalIdentity({
  settings,
  db,
  log,
  localPoolOptions,
  masterKey,
  poolHooks,
  endPortalSessions,
}: IdentityDeps): Promise<Identity> {
  const publicUrl = settings.publicUrl.replace(/\/+$/, '');
  const stored = await loadOrCreateSettings(db, masterKey);
  const key = await loadSigningKey({
    kid: stored.signing_kid,
    privateJwk: stored.signing_private_jwk,
    publicJwk: stored.signing_public_jwk,
  });
  const issuer = `${publicUrl}/${stored.pool_id}`;
  const mailer = createMailer({ db, log, smtpUrl: settings.smtpUrl, mailFrom: settings.mailFrom });
  const pool = new LocalPool({
    db,
    log,
    settings: stored,
    key,
    publicUrl,
    issuer,
    mfa: settings.localMfa ?? 'optional',
    mailer,
    hooks: poolHooks ?? portalHooks,
    options: {
      ...localPoolOptions,
      // Portal sessions live in the shared database, so ending them here ends them on every
      // instance. Cognito mode has no such hook: there a password reset, change or global sign-out
      // revokes the pool's tokens only, and portal sessions end by their idle and absolute limits,
      // by logout, or by an admin's Disable.
      onSignOut: async (e) => {
        await localPoolOptions?.onSignOut?.(e);
        const ended = await endPortalSessions?.(db, e);
        if (ended?.ended) log.info({ userId: ended.userId, reason: e.reason, sessions: ended.ended }, 'portal sessions ended');
      },
    },
  });
  // Browsers (Amplify) and external admin callers (the AWS SDK, SigV4) reach the pool here.
  const endpoint = `${publicUrl}/cognito`;

  const verifier = JwtVerifier.create({
    issuer,
    audience: null,
    customJwtCheck: ({ payload }) => {
      if (payload.token_use !== 'access') throw new Error('not an access token');
      if (payload.client_id !== stored.client_id) throw new Error('token of another client');
    },
  });
  // Pre-loaded keys: verification never fetches anything over the network.
  verifier.cacheJwks(jwksOf(key));

  const prune = setInterval(() => {
    pruneExpired(db, OUTBOX_RETENTION_DAYS).catch((err: Error) => log.warn({ error: err.message }, 'user pool housekeeping failed'));
  }, PRUNE_INTERVAL_MS);
  prune.unref();

  return {
    mode: 'local',
    appConfig: { userPoolId: stored.pool_id, clientId: stored.client_id, region: SIGNING_REGION, userPoolEndpoint: endpoint },
    async verifyAccessToken(token) {
      // A token naming another key is refused here, before the verifier would try to fetch keys.
      const { kid } = decodeProtectedHeader(token);
      if (kid !== key.kid) throw new Error('token signed with an unknown key');
      const payload = await verifier.verify(token);
      const sub = payload.sub;
      const username = payload.username;
      const originJti = payload.origin_jti;
      const { jti, auth_time: authTime } = payload;
      if (
        typeof sub !== 'string' ||
        typeof username !== 'string' ||
        typeof originJti !== 'string' ||
        typeof payload.iat !== 'number' ||
        typeof jti !== 'string' ||
        typeof authTime !== 'number'
      ) {
        throw new Error('access token lacks claims');
      }
      const validAfter = await tokensValidAfter(db, username);
      if (!(await pool.tokenStillValid({ iat: payload.iat, originJti }, validAfter))) {
        throw new Error('access token has been revoked');
      }
      return { sub, username, jti, authTime: new Date(authTime * 1000), originJti };
    },
    async revokeSignIn(originJti) {
      if (UUID.test(originJti)) await revokeSignIn(db, originJti);
    },
    directory: createLocalDirectory(pool.context),
    plugin: localPoolPlugin(pool),
    tokensValidAfter: (username) => tokensValidAfter(db, username),
    async close() {
      clearInterval(prune);
      mailer.close();
    },
  };
}
