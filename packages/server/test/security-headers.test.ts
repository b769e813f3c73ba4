import { ApiErrors, SESSION_COOKIE } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../src/app.ts';
import { apiClient, createOrganization, createStaff, poolAccessToken, startTestServer, type TestServer } from './support/http.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ SECURE_COOKIES: 'true', RATE_LIMIT_PER_MINUTE: '30' });
});
afterAll(async () => server?.close());

describe('security headers', () => {
  it('send a strict CSP, HSTS, nosniff and no referrer on every answer', async () => {
    // Answers of every kind: an API answer, the app's page, a static file, a refusal, an unknown path.
    for (const path of ['/api/health', '/login', '/app-config.json', '/api/me', '/api/no-such-thing']) {
      const res = await server.app.inject({ method: 'GET', url: path });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
      expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000; includeSubDomains/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    }
  });

  it('forbid caching of API answers', async () => {
    for (const path of ['/api/health', '/api/me', '/api/patients']) {
      const res = await server.app.inject({ method: 'GET', url: path });
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('set the session cookie HttpOnly, SameSite=Strict and Secure when served over https', async () => {
    const org = await createOrganization(server);
    const staff = await createStaff(server, { role: 'provider', organizationId: org.id });
    const token = await poolAccessToken(server, staff.email, staff.password);
    const res = await apiClient(server).post('/api/token', { token });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Secure/);
  });
});

describe('text input', () => {
  it('refuses NUL characters anywhere with 400, before the database sees them', async () => {
    const client = apiClient(server);
    const body = await client.post('/api/token', { token: `abc\u0000${'x'.repeat(40)}` });
    expect(body.status).toBe(400);
    expect(body.body).toMatchObject({ message: ApiErrors.nulCharacter });
    const path = await client.get('/api/db/schema/pat%00ients');
    expect([400, 401]).toContain(path.status);
  });
});

describe('limits', () => {
  it('refuse bodies over the size limit with 413 and JSON', async () => {
    const res = await apiClient(server).request('POST', '/api/token', {
      rawBody: JSON.stringify({ token: 'x'.repeat(BODY_LIMIT_BYTES + 10) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ statusCode: 413 });
  });

  it('refuse malformed JSON and wrong content types without a stack trace', async () => {
    const bad = await apiClient(server).request('POST', '/api/token', {
      rawBody: '{"token": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).not.toMatch(/\bat .*:\d+:\d+/);
    const xml = await apiClient(server).request('POST', '/api/token', {
      rawBody: '<token/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(xml.status).toBe(415);
  });

  it('answer 429 with a clear message past the per-IP API rate', async () => {
    const client = apiClient(server);
    let last = 0;
    for (let i = 0; i < 40 && last !== 429; i++) last = (await client.get('/api/health')).status;
    expect(last).toBe(429);
    const res = await client.get('/api/health');
    expect(res.body).toMatchObject({ statusCode: 429, message: ApiErrors.rateLimited });
  });
});
