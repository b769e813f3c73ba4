/**
 * Production mode against a real Cognito user pool, tested without any network: configuration,
 * what the browser is told, that the local pool is not mounted, and access-token verification
 * against a pre-loaded JWKS (our own key standing in for Cognito's).
 */
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testKeys, type TestDatabase } from '../../../test/db.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createIdentity, type Identity } from './index.ts';

const REGION = 'eu-west-1';
const POOL = 'eu-west-1_TestPool1';
const CLIENT = 'cognitoclientid123';
const ISSUER = `https://cognito-idp.${REGION}.amazonaws.com/${POOL}`;

let identity: Identity;
let privateKey: CryptoKey;
let db: TestDatabase;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  privateKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'test-kid', alg: 'RS256', use: 'sig' };
  identity = await createIdentity({
    settings: { mode: 'cognito', publicUrl: 'https://rpm.example.org', region: REGION, userPoolId: POOL, clientId: CLIENT },
    db: undefined as never, // cognito mode keeps nothing in the portal's database
    log: pino({ level: 'silent' }),
    cognitoJwks: { keys: [jwk as never] },
    masterKey: testKeys.masterKey,
  });
  db = await createTestDatabase();
});
afterAll(async () => {
  await identity?.close();
  await db?.drop();
});

const token = (claims: Record<string, unknown>, opts: { iss?: string; exp?: string } = {}) =>
  new SignJWT({
    token_use: 'access',
    client_id: CLIENT,
    username: 'user-1',
    scope: 'aws.cognito.signin.user.admin',
    jti: 'jti-1',
    origin_jti: 'origin-1',
    auth_time: Math.floor(Date.now() / 1000) - 60,
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'test-kid' })
    .setIssuer(opts.iss ?? ISSUER)
    .setSubject('sub-1')
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? '1h')
    .sign(privateKey);

describe('Cognito mode', () => {
  it('is chosen by configuration and tells the browser no local endpoint', () => {
    const config = loadConfig({ COGNITO_USER_POOL_ID: POOL, COGNITO_CLIENT_ID: CLIENT, AWS_REGION: REGION });
    expect(config.cognito).toEqual({ userPoolId: POOL, clientId: CLIENT, region: REGION });
    expect(identity.mode).toBe('cognito');
    expect(identity.appConfig).toEqual({ userPoolId: POOL, clientId: CLIENT, region: REGION });
    expect(identity.plugin).toBeUndefined();
  });

  it('accepts a Cognito access token for the pool and client', async () => {
    await expect(identity.verifyAccessToken(await token({}))).resolves.toMatchObject({
      sub: 'sub-1',
      username: 'user-1',
      jti: 'jti-1',
      originJti: 'origin-1',
    });
  });

  it('refuses other issuers, other clients, id tokens and expired tokens', async () => {
    const bad = [
      await token({}, { iss: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Other' }),
      await token({}, { iss: 'http://localhost:3000/local_abc' }),
      await token({ client_id: 'someone-else' }),
      await token({ token_use: 'id' }),
      await token({}, { exp: '-1m' }),
      // Without its id and sign-in time a token could open many sessions or outlive its sign-in.
      await token({ jti: undefined }),
      await token({ auth_time: undefined }),
    ];
    for (const t of bad) await expect(identity.verifyAccessToken(t)).rejects.toThrow();
  });

  it('serves the app without the local pool, and lets the browser reach Cognito in the CSP', async () => {
    const config = loadConfig({ COGNITO_USER_POOL_ID: POOL, COGNITO_CLIENT_ID: CLIENT, AWS_REGION: REGION, LOG_LEVEL: 'silent' });
    const app = await buildApp({ config, pool: db.pool, identity, auditHmacKey: testKeys.auditHmacKey });
    try {
      const appConfig = await app.inject({ method: 'GET', url: '/app-config.json' });
      expect(appConfig.json()).toEqual({ userPoolId: POOL, clientId: CLIENT, region: REGION });
      const pool = await app.inject({
        method: 'POST',
        url: '/cognito',
        headers: { 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
      });
      expect(pool.statusCode).toBe(404);
      expect(String(appConfig.headers['content-security-policy'])).toContain(
        `connect-src 'self' https://cognito-idp.${REGION}.amazonaws.com`,
      );
    } finally {
      await app.close();
    }
  });
});
