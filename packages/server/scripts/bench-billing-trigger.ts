/**
 * What keeping the billing months (migration 1010's trigger on observations) costs one webhook
 * reading: single-reading inserts of a device blood pressure for an active patient, each its own
 * transaction, with the trigger on and off in alternating rounds, so the machine's load drifts into
 * both alike. Prints the median per insert of each side and the difference. Embedded PostgreSQL
 * unless DATABASE_URL is set (a new database is created there and dropped).
 *
 *   npx tsx --conditions=@rpm/source packages/server/scripts/bench-billing-trigger.ts [rounds] [inserts]
 */
import { runMigrations } from '../src/db/migrate.ts';
import { createBenchDatabase } from './bench-support.ts';

const rounds = Number(process.argv[2] ?? 6);
const inserts = Number(process.argv[3] ?? 300);
const { pool, drop } = await createBenchDatabase(1, { embedded: true });
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
try {
  await runMigrations(pool);
  const org = await pool.query<{ id: number }>(`INSERT INTO organizations (name) VALUES ('Trigger bench') RETURNING id`);
  const patient = await pool.query<{ id: number }>(
    `INSERT INTO patients (first_name, last_name, organization_id, enrollment_status, enrolled_rpm)
     VALUES ('T', 'Bench', $1, 'Active', true) RETURNING id`,
    [org.rows[0]!.id],
  );
  const id = patient.rows[0]!.id;
  const text = `INSERT INTO observations (patient_id, created_at, kind, components, unit, source)
                VALUES ($1, now() - $2 * interval '1 minute', 'blood_pressure',
                        '{"systolic": 120, "diastolic": 80}', 'mm[Hg]', 'CUFF-T')`;
  const timed = async (trigger: boolean) => {
    await pool.query(`ALTER TABLE observations ${trigger ? 'ENABLE' : 'DISABLE'} TRIGGER observations_billing_months_insert`);
    const each: number[] = [];
    for (let i = 0; i < inserts; i++) {
      const t = process.hrtime.bigint();
      await pool.query({ name: 'bench_insert', text, values: [id, i] });
      each.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    return median(each);
  };
  await timed(true); // warm-up: plans, caches, the month's rows
  const on: number[] = [];
  const off: number[] = [];
  for (let r = 0; r < rounds; r++) {
    on.push(await timed(true));
    off.push(await timed(false));
  }
  const fmt = (v: number[]) => `${median(v).toFixed(3)} ms (${Math.min(...v).toFixed(3)}–${Math.max(...v).toFixed(3)})`;
  console.log(`single-reading insert, median of ${rounds} round medians of ${inserts}:`);
  console.log(`  trigger on  ${fmt(on)}`);
  console.log(`  trigger off ${fmt(off)}`);
  console.log(`  the trigger ${(median(on) - median(off)).toFixed(3)} ms per insert`);
} finally {
  await drop();
}
