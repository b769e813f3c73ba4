/**
 * Measures the month's billing report, GET /api/billing, over HTTP against the real app with
 * 1,000 enrolled patients, each with 90 days of twice-daily device readings (180,000 readings)
 * and a few tracking entries. The report is requested BENCH_RUNS times after a warm-up; the
 * median is printed beside the aim (500 ms).
 *
 *   npx tsx --conditions=@rpm/source scripts/bench-billing.ts                 (an embedded PostgreSQL in a temp folder)
 *   DATABASE_URL=postgres://... npx tsx --conditions=@rpm/source scripts/bench-billing.ts   (a scratch database there)
 *
 * Optional: BENCH_PATIENTS (default 1000), BENCH_DAYS (default 90), BENCH_RUNS (default 15),
 * BENCH_MONTH (YYYY-MM, default the current month), BENCH_EXPLAIN=1 to print the query plan.
 */
import { sql } from 'kysely';
import type { BillingReport } from '@rpm/contracts';
import { kysely } from '../src/db/kysely.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { monthBounds } from '../src/modules/billing/billing-rules.ts';
import { billingInputs, billingInputsQuery } from '../src/modules/billing/billing.repository.ts';
import { createBenchDatabase, startBenchApp, stats, seedBenchClinics } from './bench-support.ts';

const patients = Number(process.env.BENCH_PATIENTS ?? 1000);
const days = Number(process.env.BENCH_DAYS ?? 90);
const runs = Number(process.env.BENCH_RUNS ?? 15);
const AIM_MS = 500;

const { pool, drop } = await createBenchDatabase(10, { embedded: true });

let close: (() => Promise<void>) | undefined;
try {
  await runMigrations(pool);
  const { orgId, adminId } = await seedBenchClinics(pool);
  const t0 = performance.now();
  await pool.query(
    `INSERT INTO patients (first_name, last_name, organization_id, enrolled_rpm, enrollment_status)
     SELECT 'Bench', 'Patient ' || g, $2::int + g % 5, true, 'Active' FROM generate_series(1, $1::int) g`,
    [patients, orgId],
  );
  // The 90 days end yesterday; readings at 08:00 and 20:00 UTC (morning and evening in the Americas),
  // each patient missing a few days so the day counts differ.
  await pool.query(
    `INSERT INTO observations (patient_id, source, created_at, kind, components, unit)
     SELECT p.id, 'CUFF-' || p.id, date_trunc('day', now()) - make_interval(days => d) + make_interval(hours => h),
            'blood_pressure', '{"systolic": 125, "diastolic": 80, "pulse": 70}', 'mm[Hg]'
       FROM patients p, generate_series(1, $1::int) d, (VALUES (8), (20)) AS hh(h)
      WHERE (p.id + d) % 9 <> 0`,
    [days],
  );
  await pool.query(
    `INSERT INTO tracking_entries (patient_id, date, duration_minutes, interactive)
     SELECT p.id, (date_trunc('month', now()) + make_interval(days => k))::date, 7 + (p.id + k) % 9, k = 0
       FROM patients p, generate_series(0, 3) k
      WHERE (date_trunc('month', now()) + make_interval(days => k))::date <= current_date`,
  );
  await pool.query('VACUUM ANALYZE');
  const { rows: counts } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM observations');
  const fillS = (performance.now() - t0) / 1000;

  const app = await startBenchApp(pool);
  close = app.close;
  const { config } = app;
  const headers = await app.headersOf(adminId);
  const month = process.env.BENCH_MONTH || new Date().toISOString().slice(0, 7);
  const target = `${config.publicUrl}/api/billing?month=${month}`;

  console.log(`${patients} enrolled patients, ${counts[0]!.n} device readings over ${days} days, filled in ${fillS.toFixed(1)} s`);
  for (let i = 0; i < 3; i++) await (await fetch(target, { headers })).arrayBuffer(); // warm-up
  const samples: number[] = [];
  let rows = 0;
  let codes = 0;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const res = await fetch(target, { headers });
    const body = (await res.json()) as BillingReport;
    samples.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`unexpected answer ${res.status}`);
    // All rows in scope (the answer holds the first page of them; the totals are over all).
    rows = body.total;
    codes = body.totals.reduce((sum, t) => sum + t.units, 0);
  }
  const r = stats(samples);
  console.log(
    `GET /api/billing?month=${month} (${rows} rows, ${codes} code units), ${runs} runs: median ${r.median.toFixed(1)} ms ` +
      `(aim ${AIM_MS}), p95 ${r.p95.toFixed(1)} ms, min ${r.min.toFixed(1)}, max ${r.max.toFixed(1)}`,
  );
  // The rules' inputs alone, straight on the pool: what the database spends of the above.
  const sqlSamples: number[] = [];
  const { start, end } = monthBounds(month);
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await billingInputs(pool, { monthStart: start, monthEnd: end, organizationId: null });
    sqlSamples.push(performance.now() - t);
  }
  console.log(`SQL only (the rules' inputs, no HTTP, no audit): median ${stats(sqlSamples).median.toFixed(1)} ms`);
  if (process.env.BENCH_EXPLAIN) {
    const plan = await sql<{ 'QUERY PLAN': string }>`EXPLAIN (ANALYZE, COSTS OFF) ${billingInputsQuery({ monthStart: start, monthEnd: end, organizationId: null })}`.execute(kysely(pool));
    console.log(plan.rows.map((row) => row['QUERY PLAN']).join('\n'));
  }
  console.log(`median ${r.median <= AIM_MS ? 'within' : 'ABOVE'} the ${AIM_MS} ms aim`);
  if (r.median > AIM_MS) process.exitCode = 1;
} finally {
  await close?.().catch(() => {});
  await drop();
}
