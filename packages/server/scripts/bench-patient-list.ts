/**
 * Measures GET /api/patients over HTTP against the real app with 10,000 patients: the first
 * page, a deep page, a name search, a date-of-birth search, a status filter with a sort, and a
 * provider's organization. Each case is requested BENCH_RUNS times after a warm-up; the median
 * is printed beside the limit (20 ms).
 *
 *   npx tsx scripts/bench-patient-list.ts                 (an embedded PostgreSQL in a temp folder)
 *   DATABASE_URL=postgres://... npx tsx scripts/bench-patient-list.ts   (a scratch database there)
 *
 * Optional: BENCH_PATIENTS (default 10000), BENCH_RUNS (default 200 per case), BENCH_READINGS
 * (device readings per patient over the last 30 days, default 20; with a tracking entry each and
 * an open alert on every tenth patient, so the triage columns and their sorts have data to read).
 * The session is created directly in the sessions table (the same call POST /api/token makes):
 * the request path measured (cookie → session → access check → count + page → audit) is real.
 */
import { runMigrations } from '../src/db/migrate.ts';
import { listPatients } from '../src/modules/patients/patients.repository.ts';
import { createBenchDatabase, fillPatients, startBenchApp, stats, seedBenchClinics } from './bench-support.ts';

const patients = Number(process.env.BENCH_PATIENTS ?? 10_000);
const runs = Number(process.env.BENCH_RUNS ?? 200);
const readingsPerPatient = Number(process.env.BENCH_READINGS ?? 20);
const LIMIT_MS = 20;

const { pool, drop } = await createBenchDatabase(10, { embedded: true });


/**
 * What the list's triage columns read: `perPatient` device readings of each patient over the last
 * 30 days (about one a day), a tracking entry today, and an open alert on every tenth patient.
 */
async function fillTriageData(db: typeof pool, perPatient: number): Promise<void> {
  if (perPatient <= 0) return;
  await db.query(
    `INSERT INTO observations (patient_id, created_at, kind, components, unit, source)
     SELECT p.id, now() - (g * interval '30 days' / $1::int) - (p.id % 600) * interval '1 minute', 'blood_pressure',
            jsonb_build_object('systolic', 110 + (p.id + g) % 50, 'diastolic', 70 + g % 25), 'mm[Hg]', 'bench-' || p.id
       FROM patients p CROSS JOIN generate_series(1, $1::int) g`,
    [perPatient],
  );
  await db.query(
    `INSERT INTO tracking_entries (patient_id, date, duration_minutes)
     SELECT p.id, (now() AT TIME ZONE o.time_zone)::date, 1 + p.id % 40
       FROM patients p JOIN organizations o ON o.id = p.organization_id`,
  );
  await db.query(
    `INSERT INTO alerts (patient_id, organization_id, rule, severity, severity_rank, first_at, last_at, last_values)
     SELECT id, organization_id, 'bp_stage2', 'warning', 1, now(), now(), '{"systolic": 150, "diastolic": 95}'
       FROM patients WHERE id % 10 = 0`,
  );
}

let close: (() => Promise<void>) | undefined;
try {
  await runMigrations(pool);
  const { organizationIds, orgId, adminId } = await seedBenchClinics(pool);
  const provider = await pool.query<{ id: number }>(
    `INSERT INTO users (email, role, organization_id) VALUES ('bench-provider@example.com', 'provider', $1) RETURNING id`,
    [orgId],
  );
  const t0 = performance.now();
  await fillPatients(pool, patients, organizationIds);
  await fillTriageData(pool, readingsPerPatient);
  await pool.query('VACUUM ANALYZE patients');
  await pool.query('VACUUM ANALYZE observations');
  await pool.query('VACUUM ANALYZE alerts');
  await pool.query('VACUUM ANALYZE tracking_entries');
  const fillS = (performance.now() - t0) / 1000;

  const app = await startBenchApp(pool);
  close = app.close;
  const { config } = app;
  const headersOf = app.headersOf;
  const adminHeaders = await headersOf(adminId);
  const providerHeaders = await headersOf(provider.rows[0]!.id);

  async function measure(query: string, headers: Record<string, string>, target = `${config.publicUrl}/api/patients?${query}`) {
    for (let i = 0; i < 20; i++) await (await fetch(target, { headers })).arrayBuffer(); // warm-up
    const samples: number[] = [];
    let total = 0;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      const res = await fetch(target, { headers });
      const body = (await res.json()) as { items?: unknown[]; total?: number };
      samples.push(performance.now() - t);
      if (res.status !== 200 || body.items?.length === 0) throw new Error(`unexpected answer ${res.status} for ${query}`);
      total = body.total ?? 0;
    }
    return { ...stats(samples), total };
  }

  const cases: [string, string, Record<string, string>][] = [
    ['admin, first page (25, by name)', 'limit=25', adminHeaders],
    ['admin, page at offset 9000', 'limit=25&offset=9000', adminHeaders],
    ['admin, name search "jose garc"', `q=${encodeURIComponent('jose garc')}`, adminHeaders],
    ['admin, name search "mu" (prefix)', 'q=mu', adminHeaders],
    ['admin, date of birth search', 'q=1950', adminHeaders],
    ['admin, status filter, by date of birth desc', 'status=Paused&sort=date_of_birth&order=desc&offset=500', adminHeaders],
    ['provider, own organization, by status', 'sort=status&limit=100', providerHeaders],
    ['admin, by last reading (oldest first)', 'sort=last_reading&order=asc', adminHeaders],
    ['admin, by open alerts desc', 'sort=open_alerts&order=desc', adminHeaders],
    ['provider, by minutes this month', 'sort=minutes_this_month', providerHeaders],
    ['provider, by days with data this month', 'sort=device_days_this_month', providerHeaders],
    ['admin, by days with data, page at offset 4000', 'sort=device_days_this_month&offset=4000', adminHeaders],
  ];
  console.log(`${patients} patients filled in ${fillS.toFixed(1)} s; ${runs} requests per case over HTTP\n`);
  let worst = 0;
  for (const [label, query, headers] of cases) {
    const r = await measure(query, headers);
    worst = Math.max(worst, r.median);
    console.log(
      `${label.padEnd(48)} median ${r.median.toFixed(2)} ms (limit ${LIMIT_MS}), p95 ${r.p95.toFixed(2)} ms, ` +
        `min ${r.min.toFixed(2)}, max ${r.max.toFixed(2)}; total=${r.total}`,
    );
  }
  const plan = await pool.query(
    `EXPLAIN (ANALYZE, COSTS OFF) SELECT count(*) FROM patients p
      WHERE (p.first_name_key LIKE patient_search_fold('jose%') OR p.last_name_key LIKE patient_search_fold('jose%'))
        AND (p.first_name_key LIKE patient_search_fold('garc%') OR p.last_name_key LIKE patient_search_fold('garc%'))`,
  );
  console.log('\nplan of the name search count:');
  for (const row of plan.rows as { 'QUERY PLAN': string }[]) console.log(`  ${row['QUERY PLAN']}`);
  // The list's own SQL (count + page), straight on the pool: what the database spends of the above.
  const sqlSamples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await listPatients(pool, { organizationId: null, nameWords: [], birthRange: null, sort: 'name', order: 'asc', limit: 25, offset: 0, now: new Date() });
    sqlSamples.push(performance.now() - t);
  }
  const sql = stats(sqlSamples);
  console.log(`\nSQL only (count + first page by name, no HTTP, no audit): median ${sql.median.toFixed(2)} ms, min ${sql.min.toFixed(2)}`);
  // The floor on this machine: the cheapest signed-in call (session check, one user row, no audit).
  const floor = await measure('', adminHeaders, `${config.publicUrl}/api/me`);
  console.log(`\nbaseline GET /api/me (same machine, same moment): median ${floor.median.toFixed(2)} ms, min ${floor.min.toFixed(2)}`);
  console.log(`\nslowest median ${worst.toFixed(2)} ms: ${worst <= LIMIT_MS ? 'within' : 'ABOVE'} the ${LIMIT_MS} ms limit`);
  if (worst > LIMIT_MS) process.exitCode = 1;
} finally {
  await close?.().catch(() => {});
  await drop();
}
