/**
 * What the benchmarks share: a throw-away database, the real app on a free port (in process, or
 * the built artifact as `npm start` runs it), sessions of given users, test data, and latency
 * statistics.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CSRF_HEADER, CSRF_HEADER_VALUE, SESSION_COOKIE } from '@rpm/contracts';
import pg from 'pg';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig, REPO_ROOT, type Config } from '../src/config.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { createPool } from '../src/db/pool.ts';
import { freePort } from '../src/free-port.ts';
import { createIdentity } from '../src/modules/identity/index.ts';
import { createSession } from '../src/modules/sessions/sessions.service.ts';

export interface BenchDatabase {
  pool: pg.Pool;
  /** Its address, for a portal started as another process. */
  url: string;
  drop: () => Promise<void>;
  /** Closes every connection and keeps the database (a server's only; an embedded one goes with its process). */
  keep: () => Promise<void>;
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
      url: server.url,
      drop: async () => {
        await pool.end();
        await server.stop();
        await rm(dir, { recursive: true, force: true });
      },
      keep: () => Promise.reject(new Error('an embedded database cannot be kept')),
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
  const keep = async () => {
    await pool.end();
    await admin.end();
  };
  return { pool, url: url.toString(), drop, keep };
}

/** The portal's keys: one pair for every portal (in process or built) sharing a bench database. */
export interface BenchKeys {
  masterKey: Buffer;
  auditHmacKey: Buffer;
}

export function benchKeys(): BenchKeys {
  return { masterKey: randomBytes(32), auditHmacKey: randomBytes(32) };
}

export interface BenchApp {
  config: Config;
  /** Request headers of a signed-in session of this user (opened as POST /api/token would). */
  headersOf: (userId: number) => Promise<Record<string, string>>;
  close: () => Promise<void>;
}

/**
 * Request headers of a new signed-in session of this user, opened as POST /api/token would (the
 * session lives in the database, so it also signs in to a portal running as another process).
 */
export async function sessionHeadersOf(pool: pg.Pool, userId: number): Promise<Record<string, string>> {
  const session = await createSession(pool, {
    userId,
    claims: { jti: randomUUID(), authTime: new Date(), originJti: null },
    ip: '127.0.0.1',
    userAgent: 'bench',
  });
  if (!session.ok) throw new Error(`no bench session: ${session.reason}`);
  return { cookie: `${SESSION_COOKIE}=${session.token}`, [CSRF_HEADER]: CSRF_HEADER_VALUE };
}

/**
 * The real app, listening on a free loopback port, rate limits out of the way. `beforeListen`
 * may add hooks (bench.ts records a request's SQL with one).
 */
export async function startBenchApp(
  pool: pg.Pool,
  { beforeListen, keys = benchKeys() }: { beforeListen?: (app: FastifyInstance) => void; keys?: BenchKeys } = {},
): Promise<BenchApp> {
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
    masterKey: keys.masterKey,
  });
  const app = await buildApp({ config, pool, identity, logger: log, auditHmacKey: keys.auditHmacKey });
  beforeListen?.(app);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    config,
    headersOf: (userId) => sessionHeadersOf(pool, userId),
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

export interface BuiltPortal {
  url: string;
  /** Its process, to read the CPU time it used. */
  pid: number;
  stop: () => Promise<void>;
}

/**
 * The built artifact as `npm start` runs it (`node packages/server/dist/server.js`; build first),
 * on the database at `databaseUrl`, rate limits out of the way. It logs as in production (one
 * line per request, at `logLevel`) into a file, shown if it fails to start.
 */
export async function startBuiltPortal(
  databaseUrl: string,
  { logLevel = 'info', keys = benchKeys() }: { logLevel?: string; keys?: BenchKeys } = {},
): Promise<BuiltPortal> {
  const port = await freePort();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rpm-bench-portal-'));
  const logFile = path.join(dir, 'portal.log');
  const out = openSync(logFile, 'a');
  const url = `http://127.0.0.1:${port}`;
  // BENCH_PORTAL_NODE_ARGS: options for the portal's node only (say, --cpu-prof to see its costs).
  const nodeArgs = process.env.BENCH_PORTAL_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, 'packages/server/dist/server.js'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      PUBLIC_URL: url,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dir,
      LOG_LEVEL: logLevel,
      RATE_LIMIT_PER_MINUTE: '1000000',
      PORTAL_ADMIN_PASSWORD: `Bench-${randomBytes(6).toString('hex')}!`,
      PORTAL_MASTER_KEY: keys.masterKey.toString('hex'),
      AUDIT_HMAC_KEY: keys.auditHmacKey.toString('hex'),
    },
    stdio: ['ignore', out, out],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const cleanUp = async () => {
    await rm(dir, { recursive: true, force: true });
  };
  for (let waited = 0; ; waited += 100) {
    if (child.exitCode !== null || waited > 60_000) {
      child.kill('SIGKILL');
      const log = readFileSync(logFile, 'utf8');
      await cleanUp();
      throw new Error(`the built portal did not start:\n${log.slice(-4000)}`);
    }
    const ready = await fetch(`${url}/api/health/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      await cleanUp();
    },
  };
}

/**
 * `n` patients over `organizationIds` (round robin), with names from small lists (with accents)
 * combined, so searches hit tens to hundreds of rows, and every enrolment status.
 */
export async function fillPatients(pool: pg.Pool, n: number, organizationIds: number[]): Promise<void> {
  await pool.query(
    `INSERT INTO patients (first_name, last_name, date_of_birth, gender, organization_id, enrollment_status)
     SELECT (ARRAY['José','Maria','John','Élodie','Chen','Fatima','Olga','Liam','Noah','Zoë','Ana','Søren'])[1 + g % 12],
            (ARRAY['García','Smith','Nguyen','Müller','Ørsted','Johnson','Brown','Kowalski','Núñez','Lee',
                   'Patel','Rossi','Dubois','Okafor','Silva','Tanaka','Khan','Murphy','Novak','Haddad'])[1 + (g / 12) % 20]
              || CASE WHEN g % 7 = 0 THEN '-' || g ELSE '' END,
            date '1930-01-01' + (g * 37) % 25000,
            (ARRAY['male','female','other'])[1 + g % 3],
            ($2::int[])[1 + g % cardinality($2::int[])],
            (ARRAY['Active','Paused','Discharged','Declined',NULL])[1 + g % 5]
       FROM generate_series(1, $1::int) g`,
    [n, organizationIds],
  );
}

/** `n` readings of one patient, 12 minutes apart back from now, pressures varying. */
export async function fillVitals(pool: pg.Pool, patientId: number, n: number): Promise<void> {
  await pool.query(
    `INSERT INTO observations (patient_id, created_at, kind, components, unit)
     SELECT $1, now() - g * interval '12 minutes', 'blood_pressure',
            jsonb_build_object('systolic', 110 + (g * 7) % 50, 'diastolic', 70 + (g * 3) % 25, 'pulse', 60 + g % 30), 'mm[Hg]'
       FROM generate_series(1, $2::int) g`,
    [patientId, n],
  );
}

/** Five organizations and an admin in the first: what every bench's data hangs from. */
export async function seedBenchClinics(
  pool: pg.Pool,
): Promise<{ organizationIds: number[]; orgId: number; adminId: number }> {
  const orgs = await pool.query<{ id: number }>(
    `INSERT INTO organizations (name) SELECT 'Bench Clinic ' || g FROM generate_series(1, 5) g RETURNING id`,
  );
  const orgId = orgs.rows[0]!.id;
  const admin = await pool.query<{ id: number }>(
    `INSERT INTO users (email, role, organization_id) VALUES ('bench-admin@example.com', 'admin', $1) RETURNING id`,
    [orgId],
  );
  return { organizationIds: orgs.rows.map((o) => o.id), orgId, adminId: admin.rows[0]!.id };
}

/**
 * One clinic of `devices` patients with enrollment status `status`, each with a cuff BENCH-1 …
 * BENCH-n assigned 400 days ago (so readings of the last months are theirs). Answers the
 * organization's id. With a status, the patients are also enrolled in RPM: the alert rules judge
 * only the readings of patients enrolled and Active, so a fleet of status 'Active' without the
 * enrollment had every reading's check end before its rules and window.
 */
export async function seedCuffFleet(pool: pg.Pool, devices: number, status: string | null = null): Promise<number> {
  const org = (
    await pool.query<{ id: number }>(`INSERT INTO organizations (name) VALUES ('Bench Clinic') RETURNING id`)
  ).rows[0]!.id;
  await pool.query(
    `WITH p AS (INSERT INTO patients (first_name, last_name, organization_id, enrollment_status, enrolled_rpm)
                SELECT 'P' || g, 'Bench', $1, $3, $3::text IS NOT NULL FROM generate_series(1, $2::int) g RETURNING id)
     INSERT INTO devices (device_id, model, patient_id) SELECT 'BENCH-' || row_number() OVER (ORDER BY id), 'BPM', id FROM p`,
    [org, devices, status],
  );
  await pool.query(`UPDATE device_assignments SET assigned_from = now() - interval '400 days'`);
  return org;
}
