/**
 * The backup drill (issue 28): seed a portal, note its counts and audit chain head, back it up with
 * `npm run backup`'s CLI, wipe it, restore it with `npm run restore`'s CLI, start the portal on it
 * as `npm start` does (migrations, runtime role, app), and check that nothing was lost: the same
 * rows, the audit chain verifying against the head noted before (`audit:verify --expect`), users
 * signing in with their old passwords and TOTP, and a device cloud's webhook still storing readings.
 *
 * On the embedded PostgreSQL (the suite without DATABASE_URL) the portal runs on a data directory
 * of its own, backed up while it runs; with DATABASE_URL (CI's second run, a system PostgreSQL) the
 * database is restored into a new empty database of that server.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_INGEST_AUTH_HEADER, type IngestionSourceWithSecret, type IngestResult } from '@rpm/contracts';
import {
  confirmSignIn,
  fetchAuthSession,
  setUpTOTP,
  signIn as poolSignIn,
  signOut,
  updateMFAPreference,
  verifyTOTPSetup,
} from 'aws-amplify/auth';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { createPool } from '../src/db/pool.ts';
import { derivedRuntimeRole, prepareRuntimeRole } from '../src/db/runtime-role.ts';
import { configureAmplify } from '../src/modules/identity/test-support/amplify-client.ts';
import { totpCode } from '../src/modules/identity/totp.ts';
import { AUDIT_KEY_FILE, MASTER_KEY_FILE } from '../src/keys.ts';
import { formatHead, verifyAuditChain } from '../src/modules/audit/audit-chain.ts';
import { sealPending } from '../src/modules/audit/sealer.ts';
import { createTestDatabase, testKeys, type TestDatabase } from './db.ts';
import { buildAuditRecords, buildDevice, buildPatient, buildReadings } from './support/factories.ts';
import {
  apiClient,
  createOrganization,
  createStaff,
  signIn,
  startTestServer,
  type Staff,
  type TestServer,
} from './support/http.ts';

const external = Boolean(process.env.DATABASE_URL);
const passphrase = `drill-${randomBytes(12).toString('hex')}`;
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

/** A portal's database as the start-up makes it ready: migrations, then the runtime role from the master key. */
async function portalDatabase(
  ownerUrl: string,
  masterKey: Buffer,
  onDrop: () => Promise<unknown>,
): Promise<TestDatabase> {
  const ownerPool = createPool(ownerUrl, 2);
  const applied = await runMigrations(ownerPool);
  const url = await prepareRuntimeRole(ownerPool, { ownerUrl, runtimeUrl: undefined, masterKey });
  const pool = createPool(url, 5);
  return {
    pool,
    url,
    ownerPool,
    ownerUrl,
    applied,
    async drop() {
      await pool.end();
      await ownerPool.end();
      await onDrop();
    },
  } as TestDatabase & { applied: string[] };
}

/** Runs one of the CLIs as `npm run` does (its own process), with only the settings given. */
async function cli(name: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  const file = path.join(REPO_ROOT, `packages/server/src/db/backup/${name}-cli.ts`);
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--conditions=@rpm/source', '--import', 'tsx', file, ...args],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', BACKUP_PASSPHRASE: passphrase, ...env } },
    );
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/** Row counts of every table of the portal and its user pool. */
async function counts(owner: pg.Pool): Promise<Record<string, number>> {
  const { rows } = await owner.query<{ t: string }>(
    `SELECT format('%I.%I', schemaname, tablename) AS t FROM pg_tables
      WHERE schemaname IN ('public', 'identity') ORDER BY 1`,
  );
  const out: Record<string, number> = {};
  for (const { t } of rows)
    out[t] = (await owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t}`)).rows[0]!.n;
  return out;
}

/** Where the portal's data lives in this run, and how to get a fresh place for it. */
interface Place {
  env: Record<string, string>;
  /** Starts the database (embedded) and answers the owner's URL. */
  open(): Promise<string>;
  /** Stops the database (embedded) and removes it entirely. */
  wipe(): Promise<void>;
}

async function embeddedPlace(): Promise<Place> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rpm-drill-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  let running: EmbeddedDatabase | undefined;
  cleanups.push(() => running?.stop() ?? Promise.resolve());
  return {
    env: { DATA_DIR: dataDir },
    async open() {
      running = await startEmbeddedPostgres({ dataDir });
      return running.url;
    },
    async wipe() {
      await running?.stop();
      running = undefined;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function externalPlace(): Promise<Place> {
  const db = await createTestDatabase({ empty: true });
  // Not the test's runtime role: the portal's own, derived from the master key as at a real start.
  await db.pool.end();
  const keysDir = await mkdtemp(path.join(os.tmpdir(), 'rpm-drill-keys-'));
  cleanups.push(() => rm(keysDir, { recursive: true, force: true }));
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    await db.ownerPool.end().catch(() => {});
    const admin = new pg.Client({ connectionString: new URL('/postgres', db.ownerUrl).toString() });
    await admin.connect();
    await admin.query(
      `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(new URL(db.ownerUrl).pathname.slice(1))} WITH (FORCE)`,
    );
    // The runtime role the portal derived for it is the cluster's: on a shared server it goes too.
    await admin.query(
      `DROP ROLE IF EXISTS ${pg.escapeIdentifier(derivedRuntimeRole(db.ownerUrl, testKeys.masterKey).role)}`,
    );
    await admin.end();
  };
  cleanups.push(drop);
  return {
    env: { DATABASE_URL: db.ownerUrl, DATA_DIR: keysDir },
    open: async () => db.ownerUrl,
    async wipe() {
      await drop();
      await rm(keysDir, { recursive: true, force: true });
    },
  };
}

const newPlace = () => (external ? externalPlace() : embeddedPlace());

/** Starts the portal on the place: its keys from the key files there, as `npm start` loads them. */
async function startPortal(place: Place): Promise<{ server: TestServer; db: TestDatabase & { applied: string[] } }> {
  const ownerUrl = await place.open();
  const db = (await portalDatabase(ownerUrl, testKeys.masterKey, () => place.wipe())) as TestDatabase & {
    applied: string[];
  };
  const server = await startTestServer({}, db);
  return { server, db };
}

async function signInWithTotp(server: TestServer, user: Staff, secret: string): Promise<number> {
  configureAmplify(server.identity);
  try {
    const first = await poolSignIn({ username: user.email, password: user.password });
    expect(first.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
    // The next time step's code: the set-up consumed the current one.
    const done = await confirmSignIn({ challengeResponse: await totpCode(secret, new Date(Date.now() + 30_000)) });
    expect(done.isSignedIn).toBe(true);
    const token = (await fetchAuthSession()).tokens?.accessToken.toString();
    return (await apiClient(server).post('/api/token', { token })).status;
  } finally {
    await signOut().catch(() => {});
  }
}

const tenoviReading = (device: string, systolic: number) => [
  {
    metric: 'blood_pressure',
    hwi_device_id: device,
    value_1: systolic,
    value_2: 79,
    timestamp: new Date().toISOString(),
  },
];

describe(`backup and restore, drilled (${external ? 'external PostgreSQL at DATABASE_URL' : 'embedded PostgreSQL'})`, () => {
  it('restores what was there: rows, the audit chain to its head, sign-in with password and TOTP, and ingestion', async () => {
    const started = performance.now();
    const place = await newPlace();
    if (external) {
      // The restore makes the source's runtime role again (without login) for the grants it
      // carries; on a shared server it goes once the restored database has gone.
      const sourceUrl = place.env.DATABASE_URL!;
      cleanups.push(async () => {
        const admin = new pg.Client({ connectionString: new URL('/postgres', sourceUrl).toString() });
        await admin.connect();
        await admin.query(
          `DROP ROLE IF EXISTS ${pg.escapeIdentifier(derivedRuntimeRole(sourceUrl, testKeys.masterKey).role)}`,
        );
        await admin.end();
      });
    }
    if (!external) {
      // The embedded portal keeps its keys in its data directory, as by default.
      await writeFile(path.join(place.env.DATA_DIR!, AUDIT_KEY_FILE), testKeys.auditHmacKey.toString('hex'), {
        mode: 0o600,
      });
      await writeFile(path.join(place.env.DATA_DIR!, MASTER_KEY_FILE), testKeys.masterKey.toString('hex'), {
        mode: 0o600,
      });
    }
    const keysEnv: Record<string, string> = external
      ? { AUDIT_HMAC_KEY: testKeys.auditHmacKey.toString('hex'), PORTAL_MASTER_KEY: testKeys.masterKey.toString('hex') }
      : {};
    let { server, db } = await startPortal(place);
    // A failure half-way still closes this first portal (closing twice is harmless).
    cleanups.push(async () => {
      await server.app.close();
      await server.identity.close();
    });

    // Seed: an organization, an admin, a provider with TOTP, patients with devices and readings,
    // a webhook source, and audit records (the requests' own and more).
    const org = await createOrganization(server);
    const admin = await createStaff(server, { role: 'admin', organizationId: org.id });
    const provider = await createStaff(server, { role: 'provider', organizationId: org.id });
    const adminClient = await signIn(server, admin);
    configureAmplify(server.identity);
    await poolSignIn({ username: provider.email, password: provider.password });
    const totp = await setUpTOTP();
    await verifyTOTPSetup({ code: await totpCode(totp.sharedSecret) });
    await updateMFAPreference({ totp: 'PREFERRED' });
    await signOut();
    const source = (
      await adminClient.post<IngestionSourceWithSecret>('/api/integrations', {
        name: 'Drill',
        kind: 'tenovi',
        organization_id: org.id,
      })
    ).body;
    expect(source.secret).toBeTruthy();
    const device = `DRILL-${randomBytes(3).toString('hex')}`;
    for (let p = 0; p < 5; p++) {
      const patientId = await buildPatient(db.pool, {
        organizationId: org.id,
        firstName: `Drill${p}`,
        lastName: 'Patient',
      });
      if (p === 0)
        await buildDevice(db.pool, { deviceId: device, model: 'BPM', patientId, assignedFrom: { ago: '30 days' } });
      await buildReadings(
        db.pool,
        patientId,
        Array.from({ length: 40 }, (_, i) => ({ at: { ago: `${i} hours` }, systolic: 110 + i })),
      );
      expect((await adminClient.get(`/api/patients/${patientId}`)).status).toBe(200);
    }
    await buildAuditRecords(db.pool, 50, (n) => ({ action: `drill.${n}` }));
    const before = await apiClient(server).request<IngestResult>('POST', `/api/ingest/tenovi/${source.id}`, {
      body: tenoviReading(device, 131),
      headers: { [DEFAULT_INGEST_AUTH_HEADER]: source.secret },
    });
    expect(before.status).toBe(200);
    expect(before.body.stored).toBe(1);

    // The app stops (its sealer with it), so that nothing is written between noting the counts and
    // the backup; the database keeps running, and the backup reads it live.
    await server.app.close();
    await server.identity.close();
    // Every audit record linked, then the counts and the chain's head, noted as an operator would.
    await sealPending(db.pool, testKeys.auditHmacKey);
    const noted = await counts(db.ownerPool);
    const report = await verifyAuditChain(db.pool, testKeys.auditHmacKey, { graceMs: 0 });
    expect(report.problems).toEqual([]);
    const head = formatHead(report.head!);
    expect(noted['public.audit_logs']).toBeGreaterThan(50);
    expect(noted['public.observations']).toBe(201);

    // Back up, the database running (the embedded one: the tool uses the running cluster).
    const backupDir = await mkdtemp(path.join(os.tmpdir(), 'rpm-drill-backup-'));
    cleanups.push(() => rm(backupDir, { recursive: true, force: true }));
    const out = path.join(backupDir, 'b');
    const backup = await cli('backup', ['--out', out], { ...place.env, ...keysEnv });
    expect(backup.code, backup.out).toBe(0);
    const files = (await readdir(out)).sort();
    expect(files).toEqual([external ? 'database.dump' : 'database.tar.gz', 'portal-keys.enc'].sort());
    for (const f of files) expect((await stat(path.join(out, f))).mode & 0o777).toBe(0o600);
    // Embedded: the backup used the running cluster, not a second start of it.
    if (!external) expect(backup.out).toMatch(/copied online .*while it kept running/);
    // The keys file shows neither key.
    const keysFile = await readFile(path.join(out, 'portal-keys.enc'), 'utf8');
    for (const k of [testKeys.auditHmacKey, testKeys.masterKey]) {
      expect(keysFile).not.toContain(k.toString('hex'));
      expect(keysFile).not.toContain(k.toString('base64'));
    }
    expect(backup.out).not.toContain(passphrase);
    // The backup's own reads are no changes: the portal still holds what was noted.
    expect(await counts(db.ownerPool)).toEqual(noted);

    // Wipe: the database stops, it and the keys are gone.
    await db.pool.end();
    await db.ownerPool.end();
    await place.wipe();

    // Restore into a new, empty place (external: a new database; embedded: the same, now empty, data directory).
    const target = external ? await newPlace() : place;
    const wrong = await cli('restore', [out], { ...target.env, BACKUP_PASSPHRASE: `${passphrase}x` });
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/wrong passphrase/);
    const restored = await cli('restore', [out], target.env);
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).not.toContain(passphrase);
    // External: the source's runtime role went with the wiped server's database; its grants came back.
    if (external) expect(restored.out).toMatch(/created the roles the backup's grants name, without login: .*_app/);
    for (const [file, key] of [
      [AUDIT_KEY_FILE, testKeys.auditHmacKey],
      [MASTER_KEY_FILE, testKeys.masterKey],
    ] as const) {
      const f = path.join(target.env.DATA_DIR!, file);
      expect(Buffer.from((await readFile(f, 'utf8')).trim(), 'base64').equals(key)).toBe(true);
      expect((await stat(f)).mode & 0o777).toBe(0o600);
    }
    // A second restore onto what is now there is refused without --force.
    const again = await cli('restore', [out], target.env);
    expect(again.code).toBe(1);
    expect(again.out).toMatch(/not empty/);

    // Start the portal on it, as `npm start` does.
    ({ server, db } = await startPortal(target));
    cleanups.push(() => server.close());
    expect(db.applied).toEqual([]);
    expect(await counts(db.ownerPool)).toEqual(noted);

    // `npm run audit:verify -- --expect <head>` against the restored database and key file.
    const verify = await promisify(execFile)(
      process.execPath,
      [
        '--conditions=@rpm/source',
        '--import',
        'tsx',
        path.join(REPO_ROOT, 'packages/server/src/modules/audit/verify-cli.ts'),
        '--expect',
        head,
      ],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', DATA_DIR: target.env.DATA_DIR!, DATABASE_URL: db.ownerUrl },
      },
    );
    expect(verify.stdout).toMatch(/0 problem\(s\)/);

    // Users sign in with their old password, and with TOTP.
    const adminAgain = await signIn(server, admin);
    expect((await adminAgain.get('/api/me')).status).toBe(200);
    expect(await signInWithTotp(server, provider, totp.sharedSecret)).toBe(200);

    // Readings keep arriving.
    const after = await apiClient(server).request<IngestResult>('POST', `/api/ingest/tenovi/${source.id}`, {
      body: tenoviReading(device, 137),
      headers: { [DEFAULT_INGEST_AUTH_HEADER]: source.secret },
    });
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body.stored).toBe(1);
    const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM observations');
    expect(rows[0]!.n).toBe(noted['public.observations']! + 1);

    console.log(`backup drill (${external ? 'external' : 'embedded'}): ${Math.round(performance.now() - started)} ms`);
  }, 120_000);
});
