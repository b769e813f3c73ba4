/**
 * Measures what migration 0954's closed-month check costs the hot ingestion path: one statement
 * inserting 500 readings, as the portal's runtime role (the owner is exempt, so measuring as the
 * owner would show nothing), with the statement-level trigger switched off and on, in alternating
 * rounds so that the machine's load drifts into both alike. Each insert is rolled back, so the
 * table does not grow between rounds. Embedded PostgreSQL unless DATABASE_URL is set.
 *
 *   npx tsx --conditions=@rpm/source scripts/bench-closed-months.ts
 *
 * On the shared 2-core development machine (other test runs going), median of 120 inserts, ms
 * (without the trigger / with it, rows after the last closed month / with it, rows checked):
 *   6.9 / 7.1 / 7.6;  10.9 / 11.6 / 12.1;  10.4 / 11.9 / 11.3;  6.9 / 7.3 / 7.4
 * so about half a millisecond (5 %) on 500 rows, within the machine's noise from run to run.
 */
import { randomBytes } from 'node:crypto';
import { runMigrations } from '../src/db/migrate.ts';
import { createPool } from '../src/db/pool.ts';
import { ensureRuntimeRole, grantRuntimeRole } from '../src/db/runtime-role.ts';
import { createBenchDatabase } from './bench-support.ts';

const ROUNDS = 40;
const PER_ROUND = 3;

const { pool: owner, url, drop } = await createBenchDatabase(2, { embedded: true });
const role = `bench_${randomBytes(3).toString('hex')}`;
const password = randomBytes(16).toString('hex');
try {
  await runMigrations(owner);
  await ensureRuntimeRole(owner, role, password);
  await grantRuntimeRole(owner, role);
  const runtimeUrl = new URL(url);
  runtimeUrl.username = role;
  runtimeUrl.password = password;
  const runtime = createPool(runtimeUrl.toString(), 1);

  const org = await owner.query<{ id: number }>(`INSERT INTO organizations (name) VALUES ('Bench') RETURNING id`);
  const patient = (
    await owner.query<{ id: number }>(
      `INSERT INTO patients (first_name, last_name, organization_id, enrolled_rpm) VALUES ('B', 'Ench', $1, true) RETURNING id`,
      [org.rows[0]!.id],
    )
  ).rows[0]!.id;
  await owner.query(
    `INSERT INTO observations (patient_id, source, created_at, kind, components, unit)
     SELECT $1, 'CUFF', timestamptz '2026-01-01' + make_interval(mins => g), 'blood_pressure',
            '{"systolic": 120, "diastolic": 80}', 'mm[Hg]' FROM generate_series(1, 20000) g`,
    [patient],
  );
  await owner.query(`INSERT INTO billing_closed_months (month) VALUES ('2026-09-01')`);

  const insert500 = async (start: string, runs: number, into: number[]) => {
    for (let i = 0; i < runs; i++) {
      const c = await runtime.connect();
      try {
        await c.query('BEGIN');
        const t0 = performance.now();
        await c.query(
          `INSERT INTO observations (patient_id, source, created_at, kind, components, unit)
           SELECT $1, 'CUFF-' || (g % 5), $2::timestamptz + make_interval(secs => g * 7), 'blood_pressure',
                  '{"systolic": 120, "diastolic": 80}', 'mm[Hg]' FROM generate_series(1, 500) g`,
          [patient, start],
        );
        into.push(performance.now() - t0);
        await c.query('ROLLBACK');
      } finally {
        c.release();
      }
    }
  };
  const off: number[] = [];
  const after: number[] = [];
  const within: number[] = [];
  await insert500('2026-10-15', 5, []);
  for (let round = 0; round < ROUNDS; round++) {
    await owner.query('ALTER TABLE observations DISABLE TRIGGER vitals_keep_closed_months_insert');
    await insert500('2026-10-15', PER_ROUND, off);
    await owner.query('ALTER TABLE observations ENABLE TRIGGER vitals_keep_closed_months_insert');
    // Mid-October: past the horizon (last closed month + 1 month + 1 day), no organization looked up.
    await insert500('2026-10-15', PER_ROUND, after);
    // October 1 in New York: before the horizon, so every row is checked against the closed months.
    await insert500('2026-10-01T06:00:00Z', PER_ROUND, within);
  }
  const median = (t: number[]) => [...t].sort((a, b) => a - b)[Math.floor(t.length / 2)]!.toFixed(2);
  console.log(`500 readings in one statement, median of ${ROUNDS * PER_ROUND} (ms):`);
  console.log(`  without the trigger                      ${median(off)}`);
  console.log(`  with it, rows after the last closed month ${median(after)}`);
  console.log(`  with it, rows checked against the months  ${median(within)}`);
  await runtime.end();
} finally {
  await owner.query(`DROP OWNED BY ${role}`).catch(() => undefined);
  await owner.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
  await drop();
}
