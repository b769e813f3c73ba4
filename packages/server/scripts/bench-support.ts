/**
 * What the benchmarks share: a throw-away database, the real app on a free port with a session
 * for a given user, and latency statistics.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CSRF_HEADER, CSRF_HEADER_VALUE, SESSION_COOKIE } from '@rpm/contracts';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { createPool } from '../src/db/pool.ts';
import { freePort } from '../src/free-port.ts';
import { createIdentity } from '../src/identity/index.ts';
import { createSession } from '../src/modules/sessions/sessions.service.ts';

export interface BenchDatabase {
  pool: pg.Pool;
  drop: () => Promise<void>;
}

/**
 * A throw-away database on the PostgreSQL server in DATABASE_URL: created empty, and dropped
 * (with any sessions still on it) by `drop()`. Without DATABASE_URL, `embedded` allows an
 * embedded PostgreSQL in a temporary directory instead, removed by `drop()`.
 */
export async function createBenchDatabase(poolSize: number, { embedded = false } = {}): Promise<BenchDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    if (!embedded) throw new Error('set DATABASE_URL to a PostgreSQL server where databases may be created');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rpm-bench-pg-'));
    const server = await startEmbeddedPostgres({ dataDir: dir, port: await freePort() });
    const pool = createPool(server.url, poolSize);
    return {
      pool,
      drop: async () => {
        await pool.end();
        await server.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `rpm_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = createPool(url.toString(), poolSize);
  const drop = async () => {
    await pool.end();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  };
  return { pool, drop };
}

export interface BenchApp {
  config: Config;
  /** Request headers of a signed-in session of this user (opened as POST /api/token would). */
  headersOf: (userId: number) => Promise<Record<string, string>>;
  close: () => Promise<void>;
}

/** The real app, listening on a free loopback port, rate limits out of the way. */
export async function startBenchApp(pool: pg.Pool): Promise<BenchApp> {
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const log = pino({ level: 'warn' });
  const identity = await createIdentity({
    settings: { mode: 'local', publicUrl: config.publicUrl, localMfa: config.localMfa },
    db: pool,
    log,
    masterKey: randomBytes(32),
  });
  const app = await buildApp({ config, pool, identity, logger: log, auditHmacKey: randomBytes(32) });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    config,
    headersOf: async (userId) => {
      const session = await createSession(pool, {
        userId,
        claims: { jti: randomUUID(), authTime: new Date(), originJti: null },
        ip: '127.0.0.1',
        userAgent: 'bench',
      });
      if (!session.ok) throw new Error(`no bench session: ${session.reason}`);
      return { cookie: `${SESSION_COOKIE}=${session.token}`, [CSRF_HEADER]: CSRF_HEADER_VALUE };
    },
    close: async () => {
      await app.close();
      await identity.close();
    },
  };
}

/** Median, 95th percentile and range of latency samples (ms). */
export function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { median: at(0.5), p95: at(0.95), min: s[0]!, max: s[s.length - 1]! };
}
