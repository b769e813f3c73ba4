import { generateKeyPairSync } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import {
  AdminGetUserCommand,
  CognitoIdentityProviderClient,
  ListUsersCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import { SignJWT, exportJWK, importJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, testKeys } from '../../../test/db.ts';
import { provisionFirstAdmin } from './bootstrap-admin.ts';
import { insertRefreshToken } from './repositories/refresh-tokens.repository.ts';
import { createIdentity, loadOrCreateSettings } from './index.ts';
import { callPool, startPool, type PoolHarness } from './test-support/harness.ts';
import { issueTokens, loadSigningKey } from './tokens.ts';
import { buildStaff } from '../../../test/support/factories.ts';

let h: PoolHarness;
beforeAll(async () => {
  h = await startPool();
});
afterAll(async () => h?.close());

async function settings() {
  return loadOrCreateSettings(h.db.pool, testKeys.masterKey);
}

function sdkClient(credentials: { accessKeyId: string; secretAccessKey: string }) {
  return new CognitoIdentityProviderClient({ endpoint: h.endpoint, region: 'local', credentials, maxAttempts: 1 });
}

async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    return (err as Error).name;
  }
  throw new Error('expected a failure');
}

describe('admin API through the AWS SDK', () => {
  // What the directory does with these calls is in directory.test.ts, for both adapters; here,
  // what an external SDK caller sees of the endpoint itself.
  beforeAll(async () => {
    await h.identity.directory.createUser({ email: 'admin.made@example.com' });
    await h.identity.directory.createUser({ email: 'quiet@example.com', suppressMessage: true });
  });

  it('pages and filters ListUsers', async () => {
    await Promise.all(
      Array.from({ length: 62 }, (_, i) =>
        h.identity.directory.createUser({ email: `many${i}@example.com`, suppressMessage: true }),
      ),
    );
    const s = await settings();
    const client = sdkClient({ accessKeyId: s.admin_access_key_id, secretAccessKey: s.admin_secret_access_key });
    const page = await client.send(new ListUsersCommand({ UserPoolId: s.pool_id, Limit: 60 }));
    expect(page.Users).toHaveLength(60);
    expect(page.PaginationToken).toBeTruthy();
    const filtered = await client.send(new ListUsersCommand({ UserPoolId: s.pool_id, Filter: 'email = "many7@example.com"' }));
    expect(filtered.Users?.map((u) => u.Attributes?.find((a) => a.Name === 'email')?.Value)).toEqual(['many7@example.com']);
    client.destroy();
  });

  it('refuses admin calls that are unsigned, signed with a wrong key, stale or tampered', async () => {
    const s = await settings();
    const body = { UserPoolId: s.pool_id, Username: 'admin.made@example.com' };

    const unsigned = await callPool(h.endpoint, 'AdminGetUser', body);
    expect(unsigned.status).toBe(400);
    expect(unsigned.json.__type).toBe('UnrecognizedClientException');
    expect(JSON.stringify(unsigned.json)).not.toContain('admin.made');

    const wrongSecret = sdkClient({ accessKeyId: s.admin_access_key_id, secretAccessKey: 'not-the-secret' });
    expect(await rejection(wrongSecret.send(new AdminGetUserCommand(body)))).toBe('UnrecognizedClientException');
    const wrongKey = sdkClient({ accessKeyId: 'AKIAOTHERKEY', secretAccessKey: s.admin_secret_access_key });
    expect(await rejection(wrongKey.send(new AdminGetUserCommand(body)))).toBe('UnrecognizedClientException');
    wrongSecret.destroy();
    wrongKey.destroy();

    const url = new URL(h.endpoint);
    const signer = new SignatureV4({
      credentials: { accessKeyId: s.admin_access_key_id, secretAccessKey: s.admin_secret_access_key },
      region: 'local',
      service: 'cognito-idp',
      sha256: Sha256,
    });
    async function signedFetch(payload: string, sentBody: string, signingDate: Date) {
      const request = new HttpRequest({
        method: 'POST',
        protocol: 'http:',
        hostname: url.hostname,
        port: Number(url.port),
        path: url.pathname,
        headers: {
          host: url.host,
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': 'AWSCognitoIdentityProviderService.AdminGetUser',
        },
        body: payload,
      });
      const signed = await signer.sign(request, { signingDate });
      const headers = Object.fromEntries(Object.entries(signed.headers).filter(([k]) => k !== 'host'));
      const res = await fetch(h.endpoint, { method: 'POST', headers, body: sentBody });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    }
    const payload = JSON.stringify(body);
    const fresh = await signedFetch(payload, payload, new Date());
    expect(fresh.status).toBe(200);
    expect(fresh.json.Username).toBeTruthy();
    const stale = await signedFetch(payload, payload, new Date(Date.now() - 10 * 60 * 1000));
    expect(stale.json.__type).toBe('UnrecognizedClientException');
    const tampered = await signedFetch(payload, JSON.stringify({ ...body, Username: 'quiet@example.com' }), new Date());
    expect(tampered.json.__type).toBe('UnrecognizedClientException');
  });

  it('refuses a wrong pool id and unknown operations', async () => {
    const s = await settings();
    const client = sdkClient({ accessKeyId: s.admin_access_key_id, secretAccessKey: s.admin_secret_access_key });
    expect(await rejection(client.send(new AdminGetUserCommand({ UserPoolId: 'local_other', Username: 'x@example.com' })))).toBe(
      'ResourceNotFoundException',
    );
    client.destroy();
    const unknown = await callPool(h.endpoint, 'DeleteUserPool', {});
    expect(unknown.json.__type).toBe('UnknownOperationException');
  });
});

describe('access token verification', () => {
  async function signedInTokens() {
    const s = await settings();
    const key = await loadSigningKey({ kid: s.signing_kid, privateJwk: s.signing_private_jwk, publicJwk: s.signing_public_jwk });
    const { user } = await h.identity.directory.createUser({ email: `tok${Date.now()}@example.com`, suppressMessage: true });
    // A real sign-in row, so that revocation checks have their origin.
    const origin = crypto.randomUUID();
    await insertRefreshToken(h.db.pool, {
      id: origin,
      hash: Buffer.from(origin),
      username: user.username,
      clientId: s.client_id,
      authTime: new Date(),
      ttlSeconds: 24 * 60 * 60,
    });
    const issuer = `${h.publicUrl}/${s.pool_id}`;
    const ctx = { issuer, clientId: s.client_id, originJti: origin, authTime: new Date() };
    return { s, key, user, ctx, issuer };
  }

  it('accepts our access tokens and refuses id tokens, expired ones, other issuers and bad signatures', async () => {
    const { s, key, user, ctx, issuer } = await signedInTokens();
    const subject = { username: user.username, email: user.email, emailVerified: true };
    const good = await issueTokens(key, subject, ctx);
    expect(await h.identity.verifyAccessToken(good.accessToken)).toMatchObject({ sub: user.username, username: user.username });

    await expect(h.identity.verifyAccessToken(good.idToken)).rejects.toThrow();
    const expired = await issueTokens(key, subject, { ...ctx, now: new Date(Date.now() - 2 * 3600 * 1000) });
    await expect(h.identity.verifyAccessToken(expired.accessToken)).rejects.toThrow();
    const otherIssuer = await issueTokens(key, subject, { ...ctx, issuer: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Other' });
    await expect(h.identity.verifyAccessToken(otherIssuer.accessToken)).rejects.toThrow();
    const otherClient = await issueTokens(key, subject, { ...ctx, clientId: 'someoneelse' });
    await expect(h.identity.verifyAccessToken(otherClient.accessToken)).rejects.toThrow();

    // Same kid, another private key: the signature does not verify.
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forgedKey = await importJWK(await exportJWK(privateKey), 'RS256');
    const claims = JSON.parse(Buffer.from(good.accessToken.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: s.signing_kid }).sign(forgedKey);
    await expect(h.identity.verifyAccessToken(forged)).rejects.toThrow();
    const unknownKid = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'other' }).sign(forgedKey);
    await expect(h.identity.verifyAccessToken(unknownKid)).rejects.toThrow();
    // A changed payload under the real signature.
    const [head, , sig] = good.accessToken.split('.');
    const tampered = `${head}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone' })).toString('base64url')}.${sig}`;
    await expect(h.identity.verifyAccessToken(tampered)).rejects.toThrow();
    expect(issuer).toBe(`${h.publicUrl}/${h.identity.appConfig.userPoolId}`);
  });

  it('publishes the public key only', async () => {
    const res = await fetch(`${h.publicUrl}/${h.identity.appConfig.userPoolId}/.well-known/jwks.json`);
    const jwks = (await res.json()) as { keys: Array<Record<string, string>> };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ alg: 'RS256', kty: 'RSA', use: 'sig' });
    expect(Object.keys(jwks.keys[0]!).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
  });

  it('serves the app config the browser needs', () => {
    const { appConfig } = h.identity;
    expect(appConfig.userPoolId).toMatch(/^local_[A-Za-z0-9]+$/);
    expect(appConfig.region).toBe('local');
    expect(appConfig.userPoolEndpoint).toBe(`${h.publicUrl}/cognito`);
  });
});

describe('first start', () => {
  it('two instances starting at once create one pool', async () => {
    const db = await createTestDatabase();
    try {
      const log = h.app.log;
      const settings = { mode: 'local' as const, publicUrl: 'http://localhost:1' };
      const [a, b] = await Promise.all([
        createIdentity({ settings, db: db.pool, log, masterKey: testKeys.masterKey }),
        createIdentity({ settings, db: db.pool, log, masterKey: testKeys.masterKey }),
      ]);
      expect(a.appConfig).toEqual(b.appConfig);
      await a.close();
      await b.close();
    } finally {
      await db.drop();
    }
  });

  it('provisions the first admin once, with a configured password', async () => {
    await buildStaff(h.db.pool, 'admin', { email: 'boss@example.com', firstName: null, lastName: null });
    await provisionFirstAdmin({ identity: h.identity, db: h.db.pool, log: h.app.log, email: 'boss@example.com', password: 'B0ss-Passw0rd!' });
    const { rows } = await h.db.pool.query<{ cognito_username: string; cognito_sub: string }>(
      `SELECT cognito_username, cognito_sub FROM users WHERE email = 'boss@example.com'`,
    );
    expect(rows[0]?.cognito_username).toMatch(/^[0-9a-f-]{36}$/);
    expect(rows[0]?.cognito_sub).toBe(rows[0]?.cognito_username);
    expect((await h.identity.directory.getUser(rows[0]!.cognito_username))?.status).toBe('CONFIRMED');
    // Second start: nothing changes.
    await provisionFirstAdmin({ identity: h.identity, db: h.db.pool, log: h.app.log, email: 'boss@example.com', password: 'B0ss-Passw0rd!' });
    const after = await h.db.pool.query(`SELECT count(*)::int AS n FROM identity.users WHERE email = 'boss@example.com'`);
    expect(after.rows[0].n).toBe(1);
  });

  it('prints a temporary password once when none is configured', async () => {
    await buildStaff(h.db.pool, 'admin', { email: 'chief@example.com', firstName: null, lastName: null });
    const written: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      await provisionFirstAdmin({ identity: h.identity, db: h.db.pool, log: h.app.log, email: 'chief@example.com' });
      await provisionFirstAdmin({ identity: h.identity, db: h.db.pool, log: h.app.log, email: 'chief@example.com' });
    } finally {
      spy.mockRestore();
    }
    const banners = written.filter((w) => w.includes('Temporary password:'));
    expect(banners).toHaveLength(1);
    expect(banners[0]).toContain('chief@example.com');
    expect((await h.identity.directory.getUser('chief@example.com'))?.status).toBe('FORCE_CHANGE_PASSWORD');
    const password = /Temporary password: (\S+)/.exec(banners[0]!)![1]!;
    for (const line of h.logs) expect(line).not.toContain(password);
  });
});
