import { METRICS_RATE_LIMIT_PER_MINUTE } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, startTestServer, type TestServer } from './support/http.ts';
import { forgetLatestMigration, recordMigration } from './support/factories.ts';

const METRICS_TOKEN = 'scrape-token-0123456789';

let server: TestServer;
let withoutToken: TestServer;
beforeAll(async () => {
  [server, withoutToken] = await Promise.all([startTestServer({ METRICS_TOKEN }), startTestServer()]);
});
afterAll(async () => {
  await server?.close();
  await withoutToken?.close();
});

const scrape = (s: TestServer, authorization?: string, remoteAddress = '127.0.0.1') =>
  s.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {}, remoteAddress });

describe('/metrics', () => {
  it('refuses a caller without the token, or with a wrong one', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong',
      `Bearer ${METRICS_TOKEN}x`,
      METRICS_TOKEN,
      `Basic ${METRICS_TOKEN}`,
    ]) {
      const res = await scrape(server, authorization);
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.body).not.toMatch(/rpm_/);
    }
  });

  it('metrics accepts a lower-case bearer scheme', async () => {
    for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
      const res = await scrape(server, `${scheme} ${METRICS_TOKEN}`);
      expect(res.statusCode, scheme).toBe(200);
      expect(res.body).toMatch(/rpm_/);
    }
    expect((await scrape(server, `bearer ${METRICS_TOKEN}x`)).statusCode).toBe(401);
  });

  it('metrics is rate limited', async () => {
    // An address of its own: the other tests' scrapes do not count against it.
    const address = '192.0.2.44';
    for (let i = 0; i < METRICS_RATE_LIMIT_PER_MINUTE; i++) {
      expect((await scrape(server, `Bearer ${METRICS_TOKEN}`, address)).statusCode).toBe(200);
    }
    expect((await scrape(server, `Bearer ${METRICS_TOKEN}`, address)).statusCode).toBe(429);
    // Guessing counts as much as scraping.
    expect((await scrape(server, 'Bearer wrong', address)).statusCode).toBe(429);
    expect((await scrape(server, `Bearer ${METRICS_TOKEN}`, '192.0.2.45')).statusCode).toBe(200);
  });

  it('does not exist when no METRICS_TOKEN is set', async () => {
    expect((await scrape(withoutToken, `Bearer ${METRICS_TOKEN}`)).statusCode).toBe(404);
  });

  it('gives the token holder request durations by route and status, the pool, and sign-in failures', async () => {
    await apiClient(server).post('/api/token', { token: 'x'.repeat(40) });
    await server.app.inject({ method: 'GET', url: '/api/patients/1' });
    const res = await scrape(server, `Bearer ${METRICS_TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.body).toMatch(
      /rpm_http_request_duration_seconds_count\{method="GET",route="\/api\/patients\/:id",status="401"\} 1/,
    );
    expect(res.body).toMatch(/rpm_sign_in_failures_total\{stage="token_exchange"\} 1/);
    expect(res.body).toMatch(/^rpm_db_pool_connections_in_use \d+/m);
    expect(res.body).toMatch(/^rpm_db_pool_waiting \d+/m);
    expect(res.body).not.toContain(METRICS_TOKEN);
  });
});

describe('health', () => {
  it('live answers while the process runs; ready only once every migration is applied', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/api/health/live' })).json()).toEqual({ status: 'ok' });
    const ready = await server.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);

    const latest = await forgetLatestMigration(server.db.ownerPool);
    const pending = await server.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(pending.statusCode).toBe(503);
    expect(pending.json()).toMatchObject({ pendingMigrations: 1 });
    await recordMigration(server.db.ownerPool, latest);
    expect((await server.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
  });
});
