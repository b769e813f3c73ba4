/**
 * Demo data for the portal: two organizations, a demo admin and providers in each (real accounts
 * in the user pool, passwords printed once), ~50 patients with insurance and devices, 90 days of
 * blood pressure twice a day, notes and tracking time. Every patient is in a program (hypertension,
 * heart failure, diabetes, COPD; some in two) and has that program's devices and readings too:
 * daily weights, glucose finger-sticks, oxygen saturation (seed-demo-kinds.ts).
 *
 *   npm run seed:demo              (the portal's embedded database under DATA_DIR, portal stopped)
 *   DATABASE_URL=... npm run seed:demo
 *
 * Everything is made through the modules' public services, as the portal's pages make it, by the
 * portal's first admin and the demo's providers (seed-demo.staff.ts, seed-demo.patients.ts): each
 * change is checked by its service's rules and audited, and each reading is checked against the
 * alert rules as it is stored. What those rules refuse is not back-dated (seed-demo.patients.ts).
 *
 * Idempotent by natural keys: organizations by name, staff by email, devices by device id,
 * patients by organization + name + date of birth. A second run adds nothing twice.
 *
 * The portal's HTTP app is built in-process (and listens on a free loopback port for the seeding
 * only) so that its audit sealer links the seeding's audit records as they are written, as it
 * would for the same requests made through the pages. That works whether or not the portal is
 * running against an external DATABASE_URL. With the embedded database the portal must be
 * stopped: one data directory has one PostgreSQL server.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { identitySettingsOf } from '../src/modules/identity/index.ts';
import { createPortalIdentity } from '../src/identity-wiring.ts';
import { loadPortalKeys } from '../src/keys.ts';
import { bootstrapPortal } from '../src/db/bootstrap.ts';
import { freePort } from '../src/free-port.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { createPool } from '../src/db/pool.ts';
import { seedPatients, type SeedTotals } from './seed-demo.patients.ts';
import { actingAdmin, ORGANIZATIONS, seedOrganizations, seedStaff } from './seed-demo.staff.ts';

const PATIENTS_PER_ORG = 25;
const DAYS = 90;
/**
 * Patients whose readings are typed in at the same time: the database works while the script
 * waits for it, so two or three overlap well on a small machine.
 */
const CONCURRENCY = 3;

const say = (line: string) => process.stdout.write(`${line}\n`);
const fail = (line: string): never => {
  process.stderr.write(`seed-demo: ${line}\n`);
  process.exit(1);
};

/** True when a PostgreSQL server (the portal's) is running on this data directory. */
function embeddedServerRunning(dataDir: string): boolean {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function report(totals: SeedTotals) {
  say(`\nPatients: ${totals.created} created (${totals.existing} already there); ${totals.readings} readings added.`);
  if (totals.created > 0) {
    const list = (counts: Record<string, number>) =>
      Object.entries(counts)
        .map(([name, count]) => `${name} ${count}`)
        .join(', ');
    say(`Programs of the new patients: ${list(totals.enrolled)}; readings by kind: ${list(totals.byKind)}.`);
  }
  if (totals.closed > 0)
    say(`${totals.closed} readings and tracking entries left out: their month is closed for billing.`);
  say(`Organizations: ${ORGANIZATIONS.join(', ')}.`);
}

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.problems.join('; '));
    throw err;
  }
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    if (embeddedServerRunning(config.dataDir)) {
      fail(
        `the portal's embedded database in ${config.dataDir} is in use: stop the portal, run the seed, then start it again ` +
          '(or set DATABASE_URL to seed an external database while the portal runs).',
      );
    }
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort });
    databaseUrl = embedded.url;
  }
  const pool = createPool(databaseUrl, CONCURRENCY + 3);
  const log = pino({ level: 'warn' });
  let closeApp: (() => Promise<void>) | undefined;
  try {
    await runMigrations(pool);
    const keys = await loadPortalKeys(config, { create: true, log: say });
    await bootstrapPortal(pool, { adminEmail: config.adminEmail, organizationName: config.defaultOrganizationName });

    const port = await freePort();
    const seedConfig = loadConfig({
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
    });
    const identity = await createPortalIdentity({
      settings: identitySettingsOf(seedConfig, { mail: false }),
      db: pool,
      log,
      masterKey: keys.masterKey,
    });
    const app = await buildApp({ config: seedConfig, pool, identity, logger: log, auditHmacKey: keys.auditHmacKey });
    await app.listen({ port, host: '127.0.0.1' });
    closeApp = async () => {
      await app.close();
      await identity.close();
    };

    const deps = { db: pool, identity, say };
    const admin = await actingAdmin(deps, { email: config.adminEmail, password: config.adminPassword, log });
    const orgIds = await seedOrganizations(deps, admin);
    const providers = await seedStaff(deps, admin, orgIds);
    report(
      await seedPatients(deps, admin, orgIds, providers, {
        perOrg: PATIENTS_PER_ORG,
        days: DAYS,
        concurrency: CONCURRENCY,
      }),
    );
  } finally {
    await closeApp?.().catch(() => {});
    await pool.end();
    await embedded?.stop();
  }
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
