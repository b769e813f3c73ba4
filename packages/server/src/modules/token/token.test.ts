import { ApiErrors, SESSION_COOKIE } from '@rpm/contracts';
import { SignJWT, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createOrganization,
  createStaff,
  poolAccessToken,
  signIn,
  startTestServer,
  type Staff,
  type TestServer,
} from '../../../test/support/http.ts';
import { tokenExchangeFailureCounts } from './exchange-failures.ts';
import { auditRecordsOf } from '../../../test/support/audit.ts';

let server: TestServer;
let provider: Staff;

beforeAll(async () => {
  server = await startTestServer();
  const org = await createOrganization(server);
  provider = await createStaff(server, { role: 'provider', organizationId: org.id });
});
afterAll(async () => server?.close());

const auditActions = (userId: number) => auditRecordsOf(server, { involving: userId }, ['action', 'outcome']);

describe('POST /api/token', () => {
  it('trades a pool access token for an HttpOnly, SameSite=Strict session cookie and audits it', async () => {
    const token = await poolAccessToken(server, provider.email, provider.password);
    const res = await apiClient(server).post('/api/token', { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      user: { id: provider.id, email: provider.email, role: 'provider', mfa_enabled: false },
    });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=[\\w-]{40,};`));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Max-Age|Expires/);
    // The session id is stored only as a hash.
    const sessionId = cookie.split(';')[0]!.split('=')[1]!;
    const stored = await server.db.pool.query(`SELECT encode(id_hash, 'hex') AS h FROM sessions`);
    expect(JSON.stringify(stored.rows)).not.toContain(sessionId);
    expect(await auditActions(provider.id)).toContainEqual({ action: 'auth.token_exchange', outcome: 'success' });
  });

  it('refuses a request without the CSRF header', async () => {
    const token = await poolAccessToken(server, provider.email, provider.password);
    const res = await apiClient(server).request('POST', '/api/token', {
      body: { token },
      headers: { 'x-requested-with': '' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ message: ApiErrors.csrf });
  });

  it('refuses a token signed by another key or issuer, a tampered token, and junk', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const { appConfig } = server.identity;
    const foreign = await new SignJWT({
      token_use: 'access',
      client_id: appConfig.clientId,
      username: provider.cognitoUsername,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'other' })
      .setIssuer(`${server.url}/${appConfig.userPoolId}`)
      .setSubject(provider.cognitoUsername)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    const otherIssuer = await new SignJWT({ token_use: 'access', client_id: appConfig.clientId })
      .setProtectedHeader({ alg: 'RS256', kid: 'x' })
      .setIssuer('https://cognito-idp.us-east-1.amazonaws.com/us-east-1_evil')
      .setSubject(provider.cognitoUsername)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    const real = await poolAccessToken(server, provider.email, provider.password);
    const invalidBefore = tokenExchangeFailureCounts().invalid_token;
    const [h, p, s] = real.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const tampered = [
      h,
      Buffer.from(JSON.stringify({ ...claims, username: 'someone-else' })).toString('base64url'),
      s,
    ].join('.');
    for (const token of [foreign, otherIssuer, tampered, 'x'.repeat(40)]) {
      const res = await apiClient(server).post('/api/token', { token });
      expect(res.status).toBe(401);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // Counted in process rather than written one audit row each (a junk flood is no write flood).
    expect(tokenExchangeFailureCounts().invalid_token - invalidBefore).toBe(4);
    const failures = await server.db.pool.query(
      `SELECT count(*)::int AS n FROM audit_logs WHERE action = 'auth.token_exchange' AND outcome = 'failure'`,
    );
    expect(failures.rows[0].n).toBe(0);
  });

  it('refuses a valid token of a user the portal does not know or has disabled', async () => {
    const stranger = await server.identity.directory.createUser({
      email: 'stranger@example.com',
      suppressMessage: true,
    });
    await server.identity.directory.setPassword(stranger.user.username, 'Stranger-Pa55!', true);
    const token = await poolAccessToken(server, 'stranger@example.com', 'Stranger-Pa55!');
    const res = await apiClient(server).post('/api/token', { token });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ message: ApiErrors.userUnknown });
  });
});

describe('POST /api/logout', () => {
  it('ends at logout: the same cookie then gets 401', async () => {
    const client = await signIn(server, provider);
    const out = await client.post('/api/logout');
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(new RegExp(`${SESSION_COOKIE}=;`));
    const after = await client.get('/api/me');
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ message: ApiErrors.sessionExpired });
    expect(await auditActions(provider.id)).toContainEqual({ action: 'auth.logout', outcome: 'success' });
  });

  it('accepts the page-close beacon to /api/logout without the CSRF header', async () => {
    const client = await signIn(server, provider);
    const res = await client.request('POST', '/api/logout', { headers: { 'x-requested-with': '' } });
    expect(res.status).toBe(204);
    expect((await client.get('/api/me')).status).toBe(401);
  });
});

describe('secrets', () => {
  it('never appear in answers or log lines: passwords, tokens, session ids', async () => {
    const token = await poolAccessToken(server, provider.email, provider.password);
    const res = await apiClient(server).post('/api/token', { token });
    const sessionId = String(res.headers['set-cookie']).split(';')[0]!.split('=')[1]!;
    const client = apiClient(server, `${SESSION_COOKIE}=${sessionId}`);
    const me = await client.get('/api/me');
    const answers = JSON.stringify([res.body, me.body]);
    const logs = server.logs();
    for (const secret of [provider.password, token, sessionId]) {
      expect(answers).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });
});
