import net from 'node:net';
import { ApiErrors, CSRF_HEADER, CSRF_HEADER_VALUE, SESSION_COOKIE } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createOrganization,
  createStaff,
  signIn,
  startTestServer,
  type TestServer,
} from './support/http.ts';

describe('body-less POSTs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  const emptyJson = { headers: { 'content-type': 'application/json' }, rawBody: '' };

  it('log out with Content-Type: application/json and an empty body, and the session ends', async () => {
    const org = await createOrganization(server);
    const client = await signIn(server, await createStaff(server, { role: 'provider', organizationId: org.id }));
    expect((await client.get('/api/me')).status).toBe(200);
    const res = await client.request('POST', '/api/logout', emptyJson);
    expect(res.status).toBe(204);
    expect(String(res.headers['set-cookie'])).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
    expect((await client.get('/api/me')).status).toBe(401);
  });

  it('disable and enable a user with Content-Type: application/json and an empty body', async () => {
    const org = await createOrganization(server);
    const admin = await signIn(server, await createStaff(server, { role: 'admin', organizationId: org.id }));
    const target = await createStaff(server, { role: 'provider', organizationId: org.id });
    const disabled = await admin.request('POST', `/api/admin/users/${target.id}/disable`, emptyJson);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ user: { id: target.id, status: 'disabled' } });
    const enabled = await admin.request('POST', `/api/admin/users/${target.id}/enable`, emptyJson);
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ user: { id: target.id, status: 'active' } });
  });

  it('still refuse an empty body where a body is required, and malformed JSON, with 400', async () => {
    const empty = await apiClient(server).request('POST', '/api/token', emptyJson);
    expect(empty.status).toBe(400);
    const malformed = await apiClient(server).request('POST', '/api/token', {
      headers: { 'content-type': 'application/json' },
      rawBody: '{"token":',
    });
    expect(malformed.status).toBe(400);
  });
});

describe('addresses the router cannot take', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  // Fastify wrote these itself, before any hook: its own codes, and the address repeated back
  // (a generated-input test caught one with "pg_a" in it).
  it.each([
    ['a path part over 200 characters', `/api/admin/users/pg_a${'%20'.repeat(300)}/reset-mfa`, 414, ApiErrors.addressPartTooLong],
    ['bad percent-encoding', '/api/patients/%E0%A4%A/pg_x', 400, ApiErrors.badAddress],
  ])('answer %s in the shape of every error, with the request id, and nothing of the address', async (_name, url, status, message) => {
    const res = await server.app.inject({ method: 'POST', url, headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE } });
    expect(res.statusCode).toBe(status);
    const body = res.json();
    expect(body).toEqual({ statusCode: status, error: expect.any(String), message, requestId: expect.any(String) });
    expect(res.headers['x-request-id']).toBe(body.requestId);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).not.toMatch(/pg_|FST_ERR/);
  });
});

describe('TRUST_PROXY with one proxy in front', () => {
  let server: TestServer;
  const balancer = '10.0.0.2';
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: '1', RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(async () => server?.close());

  const get = (url: string, forwardedFor: string, cookie?: string) =>
    server.app.inject({
      method: 'GET',
      url,
      remoteAddress: balancer,
      headers: {
        'x-forwarded-for': forwardedFor,
        [CSRF_HEADER]: CSRF_HEADER_VALUE,
        ...(cookie ? { cookie } : {}),
      },
    });

  it('writes the address the balancer saw into the audit log, not the one the client wrote', async () => {
    const org = await createOrganization(server);
    const staff = await createStaff(server, { role: 'provider', organizationId: org.id });
    const client = await signIn(server, staff);
    const res = await get('/api/patients', '6.6.6.6, 203.0.113.7', client.cookie!);
    expect(res.statusCode).toBe(200);
    const { rows } = await server.db.pool.query<{ ip_address: string }>(
      `SELECT ip_address FROM audit_logs WHERE user_id = $1 ORDER BY id DESC LIMIT 1`,
      [staff.id],
    );
    expect(rows[0]?.ip_address).toBe('203.0.113.7');
  });

  it('counts a client against its own limit however it forges the left-most X-Forwarded-For', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await get('/api/health', `198.51.100.${i + 1}, 203.0.113.50`)).statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    // Another client behind the same balancer keeps its own allowance.
    expect((await get('/api/health', '203.0.113.51')).statusCode).toBe(200);
  });
});

describe('request timeouts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ REQUEST_TIMEOUT_MS: '2000' });
  });
  afterAll(async () => server?.close());

  /** Opens a raw connection, sends `head`, then one byte of `trickle` every `everyMs`; resolves when the server closes it. */
  function trickle(head: string, drip: string, everyMs: number): Promise<{ closedAfterMs: number; answer: string }> {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = net.connect(Number(port), '127.0.0.1');
      let answer = '';
      let i = 0;
      const timer = setInterval(() => {
        if (i < drip.length && !socket.destroyed) socket.write(drip[i++]!);
      }, everyMs);
      const giveUp = setTimeout(() => {
        clearInterval(timer);
        socket.destroy();
        reject(new Error(`the server kept the connection open for 15 s (answer so far: ${JSON.stringify(answer)})`));
      }, 15_000);
      socket.on('data', (d: Buffer) => (answer += d.toString()));
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(timer);
        clearTimeout(giveUp);
        resolve({ closedAfterMs: Date.now() - started, answer });
      });
      socket.write(head);
    });
  }

  it('cut off a body trickled in one byte at a time', async () => {
    const body = JSON.stringify({ token: 'x'.repeat(80) });
    const head =
      `POST /api/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `${CSRF_HEADER}: ${CSRF_HEADER_VALUE}\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { closedAfterMs, answer } = await trickle(head, body, 1000);
    expect(closedAfterMs).toBeLessThan(6000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('cut off headers trickled in one byte at a time', async () => {
    const { closedAfterMs } = await trickle('GET /api/health HTTP/1.1\r\n', 'Host: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaa\r\n\r\n', 1000);
    expect(closedAfterMs).toBeLessThan(6000);
  });
});
