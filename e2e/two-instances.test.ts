/**
 * Two API instances behind one PostgreSQL, as behind a load balancer: they hold no state of their
 * own, so a session made on one works on the other, and logout, idle expiry and disabling a user
 * on one take effect on the other at once. With Redis, rate limits are shared.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../packages/server/src/db/embedded.ts';
import { freePort } from '../packages/server/src/free-port.ts';
import { callApi, signInViaApi, startPortal, type Portal } from './harness.ts';
import { idleSessions } from '../packages/server/test/support/factories.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
let pgServer: EmbeddedDatabase;
let pgDir: string;
let a: Portal;
let b: Portal;

async function redisReachable(): Promise<boolean> {
  const r = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

// Instances of one portal share its keys kept outside the database (each has its own DATA_DIR here).
const KEYS = { PORTAL_MASTER_KEY: randomBytes(32).toString('base64'), AUDIT_HMAC_KEY: randomBytes(32).toString('base64') };

beforeAll(async () => {
  pgDir = await mkdtemp(path.join(os.tmpdir(), 'rpm-shared-pg-'));
  pgServer = await startEmbeddedPostgres({ dataDir: pgDir, database: 'rpm_shared' });
  const portA = await freePort();
  // Behind a load balancer every instance has the same public URL (the token issuer).
  const shared = { ...KEYS, DATABASE_URL: pgServer.url, PUBLIC_URL: `http://localhost:${portA}` };
  a = await startPortal({ env: { ...shared, PORT: String(portA) } });
  b = await startPortal({ env: shared });
});
afterAll(async () => {
  await b?.dispose();
  await a?.dispose();
  await pgServer?.stop();
  await rm(pgDir, { recursive: true, force: true });
});

describe('two instances, one database', () => {
  it('share sessions, and logout on one ends the session on the other', async () => {
    const cookie = await signInViaApi(a, a.adminEmail, a.adminPassword);
    expect((await callApi(b, cookie, 'GET', '/api/me')).status).toBe(200);
    expect((await callApi(b, cookie, 'POST', '/api/logout')).status).toBe(204);
    expect((await callApi(a, cookie, 'GET', '/api/me')).status).toBe(401);
  });

  it('expire an idle session on both at once', async () => {
    const cookie = await signInViaApi(b, b.adminEmail, b.adminPassword);
    expect((await callApi(a, cookie, 'GET', '/api/me')).status).toBe(200);
    await idleSessions(a.db, 'everyone', '16 minutes');
    expect((await callApi(a, cookie, 'GET', '/api/me')).status).toBe(401);
    expect((await callApi(b, cookie, 'GET', '/api/me')).status).toBe(401);
  });

  it('disabling a user on one signs them out on the other at once', async () => {
    const admin = await signInViaApi(a, a.adminEmail, a.adminPassword);
    const orgs = await callApi<Array<{ id: number }>>(a, admin, 'GET', '/api/organizations');
    const email = `two-${randomBytes(3).toString('hex')}@example.com`;
    const created = await callApi<{ user: { id: number }; temp_password: string }>(a, admin, 'POST', '/api/admin/users', {
      email,
      first_name: 'Two',
      last_name: 'Instances',
      role: 'provider',
      organization_id: orgs.body[0]!.id,
    });
    expect(created.status).toBe(201);
    const provider = await signInViaApi(b, email, created.body.temp_password, { newPassword: 'Two-Instances-1!' });
    expect((await callApi(b, provider, 'GET', '/api/me')).status).toBe(200);
    const disabled = await callApi(a, admin, 'POST', `/api/admin/users/${created.body.user.id}/disable`);
    expect(disabled.status).toBe(200);
    expect((await callApi(b, provider, 'GET', '/api/me')).status).toBe(401);
  });
});

describe('rate limits across instances', () => {
  it('are shared through Redis when REDIS_URL is set', async () => {
    if (!(await redisReachable())) {
      throw new Error(`No Redis at ${REDIS_URL}: start one or set TEST_REDIS_URL to test shared rate limits.`);
    }
    const env = { ...KEYS, DATABASE_URL: pgServer.url, REDIS_URL, RATE_LIMIT_PER_MINUTE: '40' };
    const portC = await freePort();
    const c = await startPortal({ env: { ...env, PORT: String(portC), PUBLIC_URL: `http://localhost:${portC}` } });
    const d = await startPortal({ env: { ...env, PUBLIC_URL: `http://localhost:${portC}` } });
    try {
      // 30 calls on each: under the limit for either alone, over it together.
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) {
        statuses.push((await fetch(`${c.url}/api/health`)).status, (await fetch(`${d.url}/api/health`)).status);
      }
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(40);
      expect(statuses).toContain(429);
    } finally {
      await d.dispose();
      await c.dispose();
    }
  });
});
