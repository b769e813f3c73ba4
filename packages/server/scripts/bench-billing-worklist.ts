/**
 * Measures the month's billing worklist, GET /api/billing/worklist, over HTTP against the real app
 * with 1,000 enrolled patients, each with ~90 days of twice-daily device readings (about 150,000
 * readings), a few tracking entries this month, primary providers, programs, some outreach and
 * some patients paused for a while. The worklist is requested BENCH_RUNS times after a warm-up;
 * the median is printed beside the limit (300 ms).
 *
 *   npm run bench:billing-worklist                                   (an embedded PostgreSQL in a temp folder)
 *   DATABASE_URL=postgres://... npm run bench:billing-worklist       (a scratch database there)
 *
 * Optional: BENCH_PATIENTS (default 1000), BENCH_DAYS (default 90), BENCH_RUNS (default 15),
 * BENCH_MONTH (YYYY-MM, default the current month), BENCH_EXPLAIN=1 to print the inputs query's plan,
 * BENCH_SHOW=n to print the first n rows of the worklist.
 *
 * On the shared 2-core development machine with other test runs going (load average 7.7), 1,000
 * patients, 116,276 readings: median 265 ms, p95 363 ms (15 runs); SQL alone: the rules' inputs
 * 181 ms, the triage columns 42 ms.
 */
import type pg from 'pg';
import { sql } from 'kysely';
import type { BillingWorklist } from '@rpm/contracts';
import { kysely } from '../src/db/kysely.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { monthBounds } from '../src/modules/billing/billing-rules.ts';
import { billingInputs, billingInputsQuery } from '../src/modules/billing/billing.repository.ts';
import { worklistDetails } from '../src/modules/billing/billing.details.repository.ts';
import { createBenchDatabase, seedBenchClinics, startBenchApp, stats } from './bench-support.ts';

const settings = {
  patients: Number(process.env.BENCH_PATIENTS ?? 1000),
  days: Number(process.env.BENCH_DAYS ?? 90),
  runs: Number(process.env.BENCH_RUNS ?? 15),
  month: process.env.BENCH_MONTH || new Date().toISOString().slice(0, 7),
};
const LIMIT_MS = 300;

/** The clinics' data, relative to today (the current month is what a worklist is for); answers the reading count. */
async function fill(pool: pg.Pool, orgId: number): Promise<number> {
  const steps: [string, unknown[]][] = [
    // Ten providers, each the primary provider of a tenth of the patients.
    [
      `INSERT INTO users (email, role, organization_id, first_name, last_name)
       SELECT 'bench-provider-' || g || '@example.com', 'provider', $1::int + g % 5, 'Provider', 'No ' || g
         FROM generate_series(1, 10) g`,
      [orgId],
    ],
    [
      `INSERT INTO patients (first_name, last_name, organization_id, enrolled_rpm, enrollment_status, primary_provider_id)
       SELECT 'Bench', 'Patient ' || g, $1::int + g % 5, true, 'Active',
              (SELECT id FROM users WHERE email = 'bench-provider-' || (1 + g % 10) || '@example.com')
         FROM generate_series(1, $2::int) g`,
      [orgId, settings.patients],
    ],
    [
      `INSERT INTO patient_programs (patient_id, program_id)
       SELECT id, (ARRAY['hypertension', 'heart_failure', 'diabetes', 'copd'])[1 + id % 4] FROM patients`,
      [],
    ],
    // The days end yesterday and start up to two weeks apart (so the 30-day periods do too);
    // readings at 08:00 and 20:00 UTC, each patient missing some days (a third of them most
    // days, so the worklist has patients at risk).
    [
      `INSERT INTO observations (patient_id, source, created_at, kind, components, unit)
       SELECT p.id, 'CUFF-' || p.id, date_trunc('day', now()) - make_interval(days => d) + make_interval(hours => h),
              'blood_pressure', '{"systolic": 125, "diastolic": 80, "pulse": 70}', 'mm[Hg]'
         FROM patients p, generate_series(1, $1::int - p.id % 15) d, (VALUES (8), (20)) AS hh(h)
        WHERE CASE WHEN p.id % 3 = 0 THEN (p.id + d) % 3 = 0 ELSE (p.id + d) % 9 <> 0 END`,
      [settings.days],
    ],
    // Four entries this month, the first with a phone call for half of the patients.
    [
      `INSERT INTO tracking_entries (patient_id, date, duration_minutes, interactive, contact_type)
       SELECT p.id, (date_trunc('month', now()) + make_interval(days => k))::date, 3 + (p.id + k) % 9,
              k = 0 AND p.id % 2 = 0, CASE WHEN k = 0 AND p.id % 2 = 0 THEN 'phone' END
         FROM patients p, generate_series(0, 3) k
        WHERE (date_trunc('month', now()) + make_interval(days => k))::date <= current_date`,
      [],
    ],
    [
      `INSERT INTO patient_outreach (patient_id, outcome, created_at)
       SELECT id, 'called', now() - make_interval(days => id % 20) FROM patients WHERE id % 3 = 0`,
      [],
    ],
    // One patient in ten was paused for ten days (their history has two spans of activity).
    [`UPDATE patient_active_spans SET active_to = now() - interval '20 days' WHERE patient_id % 10 = 0`, []],
    [
      `INSERT INTO patient_active_spans (patient_id, active_from)
       SELECT patient_id, now() - interval '10 days' FROM patient_active_spans WHERE patient_id % 10 = 0`,
      [],
    ],
  ];
  for (const [text, values] of steps) await pool.query(text, values);
  await pool.query('VACUUM ANALYZE');
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM observations');
  return rows[0]!.n;
}

/** Medians of `times` calls (after `warmUps` unmeasured ones), and the last answer. */
async function timed<T>(
  times: number,
  warmUps: number,
  call: () => Promise<T>,
): Promise<{ ms: ReturnType<typeof stats>; last: T }> {
  for (let i = 0; i < warmUps; i++) await call();
  const samples: number[] = [];
  let last!: T;
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    last = await call();
    samples.push(performance.now() - started);
  }
  return { ms: stats(samples), last };
}

const database = await createBenchDatabase(10, { embedded: true });
const pool = database.pool;
let stopApp: (() => Promise<void>) | undefined;
try {
  await runMigrations(pool);
  const clinics = await seedBenchClinics(pool);
  const filling = performance.now();
  const readings = await fill(pool, clinics.orgId);
  console.log(
    `${settings.patients} enrolled patients, ${readings} device readings over ${settings.days} days, ` +
      `filled in ${((performance.now() - filling) / 1000).toFixed(1)} s`,
  );

  const app = await startBenchApp(pool);
  stopApp = app.close;
  const headers = await app.headersOf(clinics.adminId);
  const url = `${app.config.publicUrl}/api/billing/worklist?month=${settings.month}`;
  const http = await timed(settings.runs, 3, async () => {
    const res = await fetch(url, { headers });
    if (res.status !== 200) throw new Error(`unexpected answer ${res.status}`);
    return (await res.json()) as BillingWorklist;
  });
  const rows = http.last.rows;
  console.log(
    `GET /api/billing/worklist?month=${settings.month} (${http.last.total} rows, the first page of ${rows.length}: ${rows.filter((x) => x.at_risk).length} at risk, ` +
      `${rows.filter((x) => x.needs.code !== null).length} with something to earn), ${settings.runs} runs: ` +
      `median ${http.ms.median.toFixed(1)} ms (limit ${LIMIT_MS}), p95 ${http.ms.p95.toFixed(1)} ms, ` +
      `min ${http.ms.min.toFixed(1)}, max ${http.ms.max.toFixed(1)}`,
  );

  for (const row of rows.slice(0, Number(process.env.BENCH_SHOW ?? 0))) console.log(JSON.stringify(row));

  // The two queries alone, straight on the pool: what the database spends of the above.
  const { start, end } = monthBounds(settings.month);
  const scope = { monthStart: start, monthEnd: end, organizationId: null };
  const inputs = await timed(5, 0, () => billingInputs(pool, scope));
  const ids = rows.map((x) => x.patient_id);
  const details = await timed(5, 0, () => worklistDetails(pool, start, end, ids));
  console.log(
    `SQL only (no HTTP, no audit), medians: the rules' inputs ${inputs.ms.median.toFixed(1)} ms, ` +
      `the triage columns ${details.ms.median.toFixed(1)} ms`,
  );
  if (process.env.BENCH_EXPLAIN) {
    const plan = await sql<{ 'QUERY PLAN': string }>`EXPLAIN (ANALYZE, COSTS OFF) ${billingInputsQuery(scope)}`.execute(
      kysely(pool),
    );
    console.log(plan.rows.map((row) => row['QUERY PLAN']).join('\n'));
  }
  const within = http.ms.median <= LIMIT_MS;
  console.log(`median ${within ? 'within' : 'ABOVE'} the ${LIMIT_MS} ms limit`);
  if (!within) process.exitCode = 1;
} finally {
  await stopApp?.().catch(() => {});
  await database.drop();
}
