/**
 * Operations, on the built artifact: a SIGTERM lets the requests in progress finish, Redis going
 * away and coming back costs no request, and each request leaves one JSON log line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../packages/server/src/free-port.ts';
import { startPortal, type Portal } from './harness.ts';

const portals: Portal[] = [];
const redisServers: ChildProcess[] = [];
afterAll(async () => {
  for (const r of redisServers) r.kill('SIGKILL');
  for (const p of portals) await p.dispose().catch(() => {});
});

describe('graceful shutdown', () => {
  it('answers all 20 requests in progress at SIGTERM, then exits cleanly', async () => {
    const portal = await startPortal();
    portals.push(portal);
    // Hold the table the readiness check reads, so 20 checks are in progress when SIGTERM comes.
    const blocker = await portal.db.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE schema_migrations IN ACCESS EXCLUSIVE MODE');
    const answers = Array.from({ length: 20 }, () =>
      fetch(`${portal.url}/api/health/ready`).then(
        (r) => r.status,
        (err: Error) => err.message,
      ),
    );
    await expect
      .poll(
        async () =>
          (
            await portal.db.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%schema_migrations%'",
            )
          ).rows[0]!.n,
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    await sleep(500);
    const stopped = portal.stop('SIGTERM');
    await sleep(1000);
    await blocker.query('ROLLBACK');
    blocker.release();
    expect(await Promise.all(answers)).toEqual(Array(20).fill(200));
    await stopped;
    expect(portal.output()).toMatch(/shutting down/);
    expect(portal.output()).not.toMatch(/still running after the grace period/);
  });
});

async function startRedis(port: number): Promise<ChildProcess> {
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  redisServers.push(server);
  for (let i = 0; i < 50; i++) {
    const up = await fetch(`http://127.0.0.1:${port}`).then(
      () => true,
      (err: Error & { cause?: { code?: string } }) => err.cause?.code !== 'ECONNREFUSED',
    );
    if (up) return server;
    await sleep(100);
  }
  throw new Error('redis-server did not start');
}

async function stopRedis(server: ChildProcess): Promise<void> {
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGKILL');
  await exited;
}

describe('Redis for shared rate limits', () => {
  it('going away and coming back mid-traffic fails no request; the fallback is logged once and counted', async () => {
    const redisPort = await freePort();
    const redis = await startRedis(redisPort);
    const metricsToken = 'metrics-token-for-the-e2e-test';
    const portal = await startPortal({
      env: {
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        METRICS_TOKEN: metricsToken,
        RATE_LIMIT_PER_MINUTE: '100000',
      },
    });
    portals.push(portal);

    const statuses = new Map<number | string, number>();
    let running = true;
    const client = async () => {
      while (running) {
        const status = await fetch(`${portal.url}/api/health/ready`).then(
          (r) => r.status,
          (err: Error) => err.message,
        );
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    const clients = Array.from({ length: 5 }, client);
    await sleep(1500);
    await stopRedis(redis);
    await sleep(4000);
    await startRedis(redisPort);
    await sleep(4000);
    running = false;
    await Promise.all(clients);

    expect([...statuses.keys()]).toEqual([200]);
    expect(statuses.get(200)).toBeGreaterThan(100);
    expect(portal.output().match(/Redis unreachable/g)).toHaveLength(1);
    expect(portal.output()).toMatch(/Redis reachable again/);
    const metrics = await (
      await fetch(`${portal.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
    ).text();
    expect(Number(/^rpm_rate_limit_local_fallback_total (\d+)/m.exec(metrics)?.[1])).toBeGreaterThan(0);
  });
});

describe('request log', () => {
  it('writes one JSON line per request with route, status, duration, request id and user id, without the raw URL', async () => {
    const portal = portals.at(-1)!;
    const res = await fetch(`${portal.url}/api/patients/123456/vitals?limit=10&secret=abc`);
    const requestId = res.headers.get('x-request-id');
    await sleep(200);
    const lines = portal
      .output()
      .split('\n')
      .filter((l) => l.includes(String(requestId)));
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({
      route: '/api/patients/:id/vitals',
      status: 401,
      requestId,
      userId: null,
      method: 'GET',
    });
    expect(typeof line.durationMs).toBe('number');
    expect(lines[0]).not.toMatch(/123456|secret=abc/);
  });
});
