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
 * Idempotent by natural keys: organizations by name, staff by email, devices by device id,
 * patients by organization + name + date of birth. A second run adds nothing twice.
 *
 * Staff need user-pool accounts, and the local pool's admin API is served by the portal's HTTP
 * app; so the app is built in-process and listens on a free loopback port for the seeding only.
 * That works whether or not the portal is running against an external DATABASE_URL. With the
 * embedded database the portal must be stopped: one data directory has one PostgreSQL server.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bloodPressure, type EnrollmentStatus, type Gender } from '@rpm/contracts';
import type pg from 'pg';
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
import { createPool, withTransaction } from '../src/db/pool.ts';
import { evaluateStoredReadings } from '../src/modules/alerts/index.ts';
import { diagnosesFor, programDevices, programsFor, stoppedDaysAgo } from './seed-demo-kinds.ts';

const ORGANIZATIONS = ['Northside Cardiology', 'Lakeside Family Practice'] as const;
const PATIENTS_PER_ORG = 25;
const DAYS = 90;

/** First names with the gender the demo patient gets, so that name and gender agree. */
const FIRST: readonly (readonly [string, Gender])[] = [
  ['James', 'male'],
  ['Mary', 'female'],
  ['Robert', 'male'],
  ['Patricia', 'female'],
  ['John', 'male'],
  ['Jennifer', 'female'],
  ['Michael', 'male'],
  ['Linda', 'female'],
  ['David', 'male'],
  ['Elizabeth', 'female'],
  ['William', 'male'],
  ['Barbara', 'female'],
  ['Richard', 'male'],
  ['Susan', 'female'],
  ['Joseph', 'male'],
  ['Jessica', 'female'],
  ['Thomas', 'male'],
  ['Sarah', 'female'],
  ['Charles', 'male'],
  ['Karen', 'female'],
  ['Daniel', 'male'],
  ['Nancy', 'female'],
  ['Matthew', 'male'],
  ['Lisa', 'female'],
  ['Anthony', 'male'],
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
];
// Mostly active, as a running programme is; '' leaves the status empty.
const STATUSES: readonly (EnrollmentStatus | '')[] = [
  'Active',
  'Active',
  'Active',
  'Paused',
  'Discharged',
  'Declined',
  '',
];
const PRIVATE_PAYERS = ['Blue Cross', 'Aetna', 'UnitedHealthcare', 'Cigna', 'Humana'];
const NOTES = [
  'Reviewed readings with the patient by phone; adherence to medication confirmed.',
  'Patient reports mild headaches in the morning. Advised to log readings before medication.',
  'Readings trending down since dose adjustment. Continue current plan.',
  'Cuff re-positioning explained; earlier high readings likely due to cuff placement.',
  'Discussed low-sodium diet and daily walks. Follow-up in two weeks.',
];

/** A small deterministic generator, so every run derives the same patients from the same seed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
  const pool = createPool(databaseUrl, 4);
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

    const orgIds: number[] = [];
    for (const name of ORGANIZATIONS) {
      const { rows } = await pool.query<{ id: number }>(
        `INSERT INTO organizations (name) VALUES ($1)
         ON CONFLICT ((lower(btrim(name)))) DO UPDATE SET name = organizations.name RETURNING id`,
        [name],
      );
      orgIds.push(rows[0]!.id);
    }

    /** A staff member: pool account + portal row, unless the email is already a portal user. */
    async function staff(
      email: string,
      role: 'admin' | 'provider',
      orgId: number,
      first: string,
      last: string,
      title: string | null,
    ) {
      const existing = await pool.query<{ id: number }>('SELECT id FROM users WHERE lower(email) = lower($1)', [email]);
      if (existing.rows[0]) {
        say(`  ${role.padEnd(8)} ${email} (already there, password unchanged)`);
        return existing.rows[0].id;
      }
      const password = `Demo-${randomBytes(5).toString('hex')}-9!`;
      const { user } = await identity.directory.createUser({ email, suppressMessage: true });
      await identity.directory.setPassword(user.username, password, true);
      const { rows } = await pool.query<{ id: number }>(
        `INSERT INTO users (email, role, first_name, last_name, title, organization_id, cognito_username, cognito_sub)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [email, role, first, last, title, orgId, user.username, user.sub],
      );
      say(`  ${role.padEnd(8)} ${email}  password: ${password}`);
      return rows[0]!.id;
    }

    say('Staff:');
    await staff('demo.admin@example.com', 'admin', orgIds[0]!, 'Dana', 'Admin', null);
    const providers: number[][] = [];
    for (const [i, orgId] of orgIds.entries()) {
      const slug = i === 0 ? 'northside' : 'lakeside';
      providers.push([
        await staff(
          `dr.${slug}.a@example.com`,
          'provider',
          orgId,
          i === 0 ? 'Grace' : 'Omar',
          i === 0 ? 'Hopper' : 'Khan',
          'MD',
        ),
        await staff(
          `nurse.${slug}@example.com`,
          'provider',
          orgId,
          i === 0 ? 'Florence' : 'Mary',
          i === 0 ? 'Nightingale' : 'Seacole',
          'RN',
        ),
      ]);
    }

    /**
     * Gives the patient a device (added, or taken back from an earlier run whose patient was
     * removed) that they have had since before its first reading, so the readings below (and
     * any late upload) are attributed to them by the assignment history.
     */
    async function assignDevice(tx: pg.PoolClient, patientId: number, label: string, model: string, type: string) {
      await tx.query(
        `INSERT INTO devices (device_id, model, type, patient_id) VALUES ($1, $2, $3, $4)
         ON CONFLICT ((lower(btrim(device_id)))) DO NOTHING`,
        [label, model, type, patientId],
      );
      await tx.query(`UPDATE devices SET patient_id = $1 WHERE lower(device_id) = lower($2) AND patient_id IS NULL`, [
        patientId,
        label,
      ]);
      const device = await tx.query<{ id: number; device_id: string }>(
        `SELECT id, device_id FROM devices WHERE lower(device_id) = lower($1) AND patient_id = $2`,
        [label, patientId],
      );
      await tx.query(
        `UPDATE device_assignments SET assigned_from = date_trunc('day', now()) - ($2::int + 1) * interval '1 day'
          WHERE device_id = $1 AND patient_id = $3 AND assigned_to IS NULL
            AND NOT EXISTS (SELECT 1 FROM device_assignments p WHERE p.device_id = $1 AND p.assigned_to IS NOT NULL)`,
        [device.rows[0]?.id ?? null, DAYS, patientId],
      );
      return device.rows[0];
    }

    let created = 0;
    let vitalsCount = 0;
    const enrolled: Record<string, number> = {};
    const byKind: Record<string, number> = {};
    for (const [o, orgId] of orgIds.entries()) {
      for (let k = 0; k < PATIENTS_PER_ORG; k++) {
        const n = o * PATIENTS_PER_ORG + k;
        const r = rng(1000 + n);
        const [first, gender] = FIRST[(n * 7) % FIRST.length]!;
        const last = LAST[(n * 11 + o) % LAST.length]!;
        const year = 1940 + Math.floor(r() * 45);
        const dob = `${year}-${String(1 + Math.floor(r() * 12)).padStart(2, '0')}-${String(1 + Math.floor(r() * 28)).padStart(2, '0')}`;
        const result = await withTransaction(pool, async (tx) => {
          const found = await tx.query(
            'SELECT 1 FROM patients WHERE organization_id = $1 AND first_name = $2 AND last_name = $3 AND date_of_birth = $4',
            [orgId, first, last, dob],
          );
          if (found.rowCount) {
            // Demo data seeded before names and genders were paired is put right on the next run.
            await tx.query(
              `UPDATE patients SET gender = $5 WHERE organization_id = $1 AND first_name = $2 AND last_name = $3
                 AND date_of_birth = $4 AND gender IS DISTINCT FROM $5`,
              [orgId, first, last, dob, gender],
            );
            return null;
          }
          const status = STATUSES[Math.floor(r() * STATUSES.length)]!;
          // Ordered by their primary provider; consent given the day before the first reading.
          const { rows } = await tx.query<{ id: number }>(
            `INSERT INTO patients (first_name, last_name, date_of_birth, gender, organization_id, primary_provider_id,
               enrolled_rpm, enrollment_status, ordering_provider_id, consent_date, diagnosis_codes)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $6, (now() - ($9::int + 1) * interval '1 day')::date, $10)
             RETURNING id`,
            [
              first,
              last,
              dob,
              gender,
              orgId,
              providers[o]![k % 2]!,
              status === 'Active' || status === 'Paused',
              status || null,
              DAYS,
              diagnosesFor(n),
            ],
          );
          const id = rows[0]!.id;
          await tx.query(
            `INSERT INTO insurances (patient_id, type, provider_name, policy_number) VALUES ($1, 'Medicare', 'CMS', $2)`,
            [id, `1EG4-TE5-MK${String(n).padStart(2, '0')}`],
          );
          if (r() < 0.5) {
            await tx.query(
              `INSERT INTO insurances (patient_id, type, provider_name, policy_number, policyholder, policyholder_birthdate)
               VALUES ($1, 'Private', $2, $3, $4, $5)`,
              [id, PRIVATE_PAYERS[n % PRIVATE_PAYERS.length], `PV-${100000 + n * 37}`, `${first} ${last}`, dob],
            );
          }
          // Enrolled in their programs since the start of their readings.
          const programs = programsFor(n);
          await tx.query(
            `INSERT INTO patient_programs (patient_id, program_id, enrolled_at)
             SELECT $1, program_id, date_trunc('day', now()) - ($3::int + 1) * interval '1 day'
               FROM unnest($2::text[]) AS program_id
             ON CONFLICT DO NOTHING`,
            [id, programs, DAYS],
          );
          // Every patient has a cuff (the device simulator sends for DEMO-BP-0001…0050).
          const cuff = await assignDevice(
            tx,
            id,
            `DEMO-BP-${String(n + 1).padStart(4, '0')}`,
            'BP7250',
            bloodPressure.deviceType,
          );
          // About a third are hypertensive; every reading varies by time of day, week and noise.
          const hypertensive = r() < 0.35;
          const stopped = stoppedDaysAgo(n);
          const baseSys = hypertensive ? 142 + r() * 18 : 112 + r() * 16;
          const baseDia = hypertensive ? 88 + r() * 10 : 70 + r() * 10;
          const inserted = await tx.query(
            `INSERT INTO observations (patient_id, device_id, source, created_at, kind, components, unit)
             SELECT pid, dev, src, ts, 'blood_pressure', jsonb_build_object('systolic', sys, 'diastolic', dia, 'pulse', pul),
                    'mm[Hg]'
               FROM (
             SELECT $1::int AS pid, $2::int AS dev, coalesce($6, 'manual') AS src, ts,
                    least(260, greatest(80, round($3::float8 + (CASE WHEN slot = 0 THEN 6 ELSE -3 END) + 5 * sin(d / 7.0)
                          + (random() + random() + random() - 1.5) * 12)))::int AS sys,
                    least(160, greatest(45, round($4::float8 + (CASE WHEN slot = 0 THEN 3 ELSE -2 END) + 3 * sin(d / 7.0)
                          + (random() + random() + random() - 1.5) * 8)))::int AS dia,
                    round(62 + random() * 25)::int AS pul
               FROM generate_series(0, $5::int - 1) d, generate_series(0, 1) slot,
                    LATERAL (SELECT date_trunc('day', now()) - d * interval '1 day'
                                    + CASE WHEN slot = 0 THEN interval '7 hours' ELSE interval '19 hours' END
                                    + (random() * 50) * interval '1 minute' AS ts) t
              WHERE ts <= now() AND d >= $7) v
             ON CONFLICT DO NOTHING RETURNING id`,
            [id, cuff?.id ?? null, baseSys, baseDia, DAYS, cuff?.device_id ?? null, stopped],
          );
          const added: Record<string, number> = { [bloodPressure.kind]: inserted.rowCount ?? 0 };
          const ids = inserted.rows.map((v: { id: number }) => v.id);
          // The devices of the patient's programs, their readings already in canonical units: one
          // statement a device.
          for (const seeded of programDevices(n, rng(5000 + n), DAYS)) {
            const device = await assignDevice(tx, id, seeded.label, seeded.model, seeded.type);
            const stored = await tx.query<{ id: number }>(
              `INSERT INTO observations (patient_id, device_id, source, created_at, kind, components, unit)
               SELECT $1::int, $2::int, coalesce($3, 'manual'), ts, $4, g.c, $5
                 FROM jsonb_to_recordset($6::jsonb) AS g(d int, m int, c jsonb),
                      LATERAL (SELECT date_trunc('day', now()) - g.d * interval '1 day' + g.m * interval '1 minute' AS ts) t
                WHERE ts <= now() AND g.d >= $7
               ON CONFLICT DO NOTHING RETURNING id`,
              [
                id,
                device?.id ?? null,
                device?.device_id ?? null,
                seeded.kind.kind,
                seeded.unit,
                JSON.stringify(seeded.readings),
                stopped,
              ],
            );
            added[seeded.kind.kind] = (added[seeded.kind.kind] ?? 0) + (stored.rowCount ?? 0);
            ids.push(...stored.rows.map((v) => v.id));
          }
          // Seeded readings are checked like any other, so the demo worklist has its alerts.
          await evaluateStoredReadings(tx, ids);
          for (let j = 0; j < 1 + Math.floor(r() * 3); j++) {
            await tx.query(
              `INSERT INTO notes (patient_id, author_id, content, created_at)
               VALUES ($1, $2, $3, now() - $4 * interval '1 day' - interval '3 hours')`,
              [id, providers[o]![j % 2]!, NOTES[(n + j) % NOTES.length], 5 + j * 20],
            );
            // Most months have a live call among the entries; the rest are reviews of readings.
            const call = r() < 0.6;
            await tx.query(
              // Dated in the clinic's day, as the portal dates tracking time.
              `INSERT INTO tracking_entries (patient_id, user_id, date, duration_minutes, notes, activity, contact_type,
                 interactive)
               SELECT $1, $2, ((now() - $3 * interval '1 day') AT TIME ZONE o.time_zone)::date, $4, $5, $6::text, $7::text, $7::text IS NOT NULL
                 FROM patients p JOIN organizations o ON o.id = p.organization_id WHERE p.id = $1`,
              [
                id,
                providers[o]![j % 2]!,
                5 + j * 20,
                10 + Math.floor(r() * 30),
                j === 0 ? 'Monthly review of readings' : null,
                call ? 'phone_call' : 'review_readings',
                call ? 'phone' : null,
              ],
            );
          }
          if (stopped > 0) {
            // The care team tried to reach the patient who stopped measuring.
            await tx.query(
              `INSERT INTO patient_outreach (patient_id, user_id, outcome, notes, created_at)
               VALUES ($1, $2, 'left_message', 'No readings for several days; asked to call back', now() - interval '2 days')`,
              [id, providers[o]![0]!],
            );
          }
          return { programs, added };
        });
        if (result) {
          created++;
          for (const program of result.programs) enrolled[program] = (enrolled[program] ?? 0) + 1;
          for (const [kind, count] of Object.entries(result.added)) {
            byKind[kind] = (byKind[kind] ?? 0) + count;
            vitalsCount += count;
          }
        }
      }
    }
    await pool.query(
      `INSERT INTO audit_logs (action, outcome, resource_type, details, reason)
       VALUES ('seed.demo', 'success', 'patient', $1, 'demo data seeding')`,
      [
        JSON.stringify({
          patients_created: created,
          vitals_created: vitalsCount,
          observations_created: byKind,
          enrollments_created: enrolled,
        }),
      ],
    );
    say(
      `\nPatients: ${created} created (${2 * PATIENTS_PER_ORG - created} already there); ${vitalsCount} readings added.`,
    );
    if (created > 0) {
      const list = (counts: Record<string, number>) =>
        Object.entries(counts)
          .map(([name, count]) => `${name} ${count}`)
          .join(', ');
      say(`Programs of the new patients: ${list(enrolled)}; readings by kind: ${list(byKind)}.`);
    }
    say(`Organizations: ${ORGANIZATIONS.join(', ')}.`);
  } finally {
    await closeApp?.().catch(() => {});
    await pool.end();
    await embedded?.stop();
  }
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
