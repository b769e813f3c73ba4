/**
 * Measures GET /api/patients/{id}/vitals?limit=10 over HTTP against the real app, for a patient
 * with 100,000 readings and one with 10. Creates a scratch database on the server named by
 * DATABASE_URL, migrates it, fills it with INSERT ... SELECT generate_series, starts the app on a
 * free port, and drops the database at the end.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx scripts/bench-vitals.ts
 *
 * Optional: BENCH_READINGS (default 100000), BENCH_RUNS (default 200 per case).
 * The session is created directly in the sessions table (the same call POST /api/token makes):
 * the request path measured (cookie → session → access check → page + count → audit) is real.
 */
import { runMigrations } from '../src/db/migrate.ts';
import { createBenchDatabase, startBenchApp, stats } from './bench-support.ts';

const readings = Number(process.env.BENCH_READINGS ?? 100_000);
const runs = Number(process.env.BENCH_RUNS ?? 200);
const { pool, drop } = await createBenchDatabase(10);


let close: (() => Promise<void>) | undefined;
try {
  await runMigrations(pool);
  const org = await pool.query<{ id: number }>(`INSERT INTO organizations (name) VALUES ('Bench Clinic') RETURNING id`);
  const orgId = org.rows[0]!.id;
  const user = await pool.query<{ id: number }>(
    `INSERT INTO users (email, role, organization_id) VALUES ('bench-admin@example.com', 'admin', $1) RETURNING id`,
    [orgId],
  );
  const patient = async (first: string) =>
    (
      await pool.query<{ id: number }>(
        `INSERT INTO patients (first_name, last_name, organization_id) VALUES ($1, 'Bench', $2) RETURNING id`,
        [first, orgId],
      )
    ).rows[0]!.id;
  const big = await patient('Many');
  const small = await patient('Few');
  // Other patients' readings around them, so the index holds more than one patient.
  const noise = await patient('Noise');

  const t0 = performance.now();
  const fill = (patientId: number, n: number) =>
    pool.query(
      `INSERT INTO vitals (patient_id, created_at, systolic, diastolic, pulse)
       SELECT $1, now() - g * interval '12 minutes', 110 + (g * 7) % 50, 70 + (g * 3) % 25, 60 + g % 30
         FROM generate_series(1, $2::int) g`,
      [patientId, n],
    );
  await fill(big, readings);
  await fill(small, 10);
  await fill(noise, readings);
  await pool.query('VACUUM ANALYZE vitals');
  const fillS = (performance.now() - t0) / 1000;

  const app = await startBenchApp(pool);
  close = app.close;
  const { config } = app;
  const headers = await app.headersOf(user.rows[0]!.id);

  async function measure(patientId: number, query: string) {
    const target = `${config.publicUrl}/api/patients/${patientId}/vitals${query}`;
    let total = 0;
    for (let i = 0; i < 10; i++) await (await fetch(target, { headers })).arrayBuffer(); // warm-up
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      const res = await fetch(target, { headers });
      const body = (await res.json()) as { items: unknown[]; total: number };
      samples.push(performance.now() - t);
      if (res.status !== 200 || body.items.length === 0) throw new Error(`unexpected answer ${res.status}`);
      total = body.total;
    }
    return { ...stats(samples), total };
  }

  const fmt = (r: { median: number; p95: number; min: number; max: number; total: number }) =>
    `median ${r.median.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms (min ${r.min.toFixed(2)}, max ${r.max.toFixed(2)}; total=${r.total})`;

  // What `total` would cost as a count over the index (the trigger-kept counter replaces it).
  const explain = await pool.query(
    `EXPLAIN (ANALYZE, BUFFERS) SELECT count(*) FROM vitals WHERE patient_id = $1`,
    [big],
  );
  const counter = await pool.query(`EXPLAIN (ANALYZE) SELECT n FROM patient_vital_counts WHERE patient_id = $1`, [big]);
  console.log(`filled ${2 * readings + 10} readings in ${fillS.toFixed(1)} s; ${runs} requests per case\n`);
  console.log(`${readings} readings, limit=10:              ${fmt(await measure(big, '?limit=10'))}`);
  console.log(`${readings} readings, limit=10, offset=5000: ${fmt(await measure(big, '?limit=10&offset=5000'))}`);
  console.log(`10 readings, limit=10:                  ${fmt(await measure(small, '?limit=10'))}`);
  console.log('\ncount(*) over the index for the 100k patient (not used by the endpoint):');
  for (const row of explain.rows as { 'QUERY PLAN': string }[]) console.log(`  ${row['QUERY PLAN']}`);
  console.log('the counter row the endpoint reads instead:');
  for (const row of counter.rows as { 'QUERY PLAN': string }[]) console.log(`  ${row['QUERY PLAN']}`);
} finally {
  await close?.().catch(() => {});
  await drop();
}
