/**
 * Measures what clinical alerts cost:
 *  1. the time rule evaluation adds to storing one reading: each reading is stored in its own
 *     transaction (as a manual reading is), and the evaluation call is timed alone; half the
 *     readings break no rule, a quarter raise or count on a stage-2 alert, a quarter a crisis one.
 *     p50 and p99 per run, BENCH_RUNS runs, the median of each printed;
 *  2. the worklist query (the page and its total, as GET /api/alerts runs them, with the audit
 *     record) with BENCH_ALERTS alerts (default 100,000), for a provider's organization and for an
 *     admin, first and deep pages, a severity and a provider filter; the median of BENCH_QUERIES
 *     calls per case beside the aim (20 ms);
 *  3. the worklist by patient (GET /api/alerts/worklist) and its summary, the same alerts of
 *     actively enrolled patients (a tenth paused), the same cases by row; BENCH_EXPLAIN=1 prints
 *     PostgreSQL's plan of the admin's first page.
 *
 *   npx tsx --conditions=@rpm/source scripts/bench-alerts.ts              (embedded PostgreSQL)
 *   DATABASE_URL=postgres://... npx tsx --conditions=@rpm/source scripts/bench-alerts.ts
 *
 * Optional: BENCH_READINGS (default 1000 per run), BENCH_RUNS (default 5), BENCH_ALERTS,
 * BENCH_QUERIES (default 100).
 */
import os from 'node:os';
import type { AlertListQuery, WorklistQuery } from '@rpm/contracts';
import { runMigrations } from '../src/db/migrate.ts';
import { withTransaction } from '../src/db/pool.ts';
import { evaluateStoredReadings } from '../src/modules/alerts/alerts.evaluate.ts';
import { worklistPageQuery, worklistQuery } from '../src/modules/alerts/alerts.worklist.repository.ts';
import { kysely } from '../src/db/kysely.ts';
import { alertSummary, listAlerts, worklist } from '../src/modules/alerts/alerts.worklist.service.ts';
import { alertListScope } from '../src/policies/alerts.ts';
import { insertManualVital } from '../src/modules/vitals/vitals.repository.ts';
import type { SignedInContext } from '../src/kernel/request-context.ts';
import { actorOf } from '../src/policies/actor.ts';
import { createBenchDatabase } from './bench-support.ts';

const readingsPerRun = Number(process.env.BENCH_READINGS ?? 1000);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const alertCount = Number(process.env.BENCH_ALERTS ?? 100_000);
const queries = Number(process.env.BENCH_QUERIES ?? 100);
const AIM_MS = 20;

const { pool, drop } = await createBenchDatabase(4, { embedded: true });

const quantile = (samples: number[], q: number) => {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const median = (xs: number[]) => quantile(xs, 0.5);
const ms = (x: number) => `${x.toFixed(2)} ms`;

try {
  await runMigrations(pool);
  const orgs = await pool.query<{ id: number }>(
    `INSERT INTO organizations (name) SELECT 'Bench Clinic ' || g FROM generate_series(1, 5) g RETURNING id`,
  );
  const orgIds = orgs.rows.map((r) => r.id);
  const users = await pool.query<{ id: number }>(
    `INSERT INTO users (email, role, organization_id)
     VALUES ('bench-admin@example.com', 'admin', $1), ('bench-provider@example.com', 'provider', $1) RETURNING id`,
    [orgIds[0]],
  );
  const [adminId, providerId] = users.rows.map((r) => r.id) as [number, number];

  // --- 1. evaluation cost per stored reading ---------------------------------------------
  const evalPatients = await pool.query<{ id: number }>(
    `INSERT INTO patients (first_name, last_name, organization_id, primary_provider_id)
     SELECT 'Eval', 'Patient ' || g, $1, $2 FROM generate_series(1, 200) g RETURNING id`,
    [orgIds[0], providerId],
  );
  const evalIds = evalPatients.rows.map((r) => r.id);
  const values = (i: number) =>
    i % 4 === 0
      ? { systolic: 150, diastolic: 92 }
      : i % 4 === 1
        ? { systolic: 190, diastolic: 110 }
        : { systolic: 122, diastolic: 78 };
  const runP50: number[] = [];
  const runP99: number[] = [];
  const storeP50: number[] = [];
  let t = Date.now() - 30 * 86_400_000;
  for (let run = 0; run < runs; run++) {
    const evalSamples: number[] = [];
    const storeSamples: number[] = [];
    for (let i = 0; i < readingsPerRun; i++) {
      const patientId = evalIds[(run * readingsPerRun + i) % evalIds.length]!;
      t += 1000;
      await withTransaction(pool, async (tx) => {
        const s0 = performance.now();
        const { id, created_at } = await insertManualVital(tx, patientId, { measuredAt: new Date(t), ...values(i), pulse: 70 });
        const s1 = performance.now();
        await evaluateStoredReadings(tx, [{ id, at: created_at }]);
        const s2 = performance.now();
        storeSamples.push(s1 - s0);
        evalSamples.push(s2 - s1);
      });
    }
    runP50.push(quantile(evalSamples, 0.5));
    runP99.push(quantile(evalSamples, 0.99));
    storeP50.push(quantile(storeSamples, 0.5));
    console.log(
      `run ${run + 1}: evaluation p50 ${ms(quantile(evalSamples, 0.5))}, p99 ${ms(quantile(evalSamples, 0.99))}; ` +
        `storing the reading alone p50 ${ms(quantile(storeSamples, 0.5))}`,
    );
  }
  console.log(
    `\nRule evaluation per stored reading (${runs} runs × ${readingsPerRun} readings, median of runs): ` +
      `p50 ${ms(median(runP50))}, p99 ${ms(median(runP99))} (the insert itself: p50 ${ms(median(storeP50))})\n`,
  );

  // --- 2. the worklist with many alerts -------------------------------------------------
  const patientsNeeded = Math.ceil(alertCount / 5);
  // The first organization's patients are shared by 20 providers (the measured one among them),
  // about 200 each: a nurse's panel in an RPM program.
  const colleagues = await pool.query<{ id: number }>(
    `INSERT INTO users (email, role, organization_id)
     SELECT 'bench-colleague-' || g || '@example.com', 'provider', $1 FROM generate_series(1, 19) g RETURNING id`,
    [orgIds[0]],
  );
  const panel = [providerId, ...colleagues.rows.map((r) => r.id)];
  await pool.query(
    `INSERT INTO patients (first_name, last_name, organization_id, primary_provider_id, enrolled_rpm, enrollment_status)
     SELECT 'List', 'Patient ' || g, ($1::int[])[1 + g % 5], CASE WHEN g % 5 = 0 THEN ($3::int[])[1 + (g / 5) % 20] END,
            true, CASE WHEN g % 10 = 3 THEN 'Paused' ELSE 'Active' END
       FROM generate_series(1, $2::int) g`,
    [orgIds, patientsNeeded, panel],
  );
  const t0 = performance.now();
  // Five rules per patient, each alert on its own (patient, rule); 40% open, 10% acknowledged,
  // the rest resolved, over the last 90 days.
  await pool.query(
    `WITH p AS (SELECT id, organization_id, row_number() OVER (ORDER BY id) AS n FROM patients WHERE first_name = 'List'),
          g AS (SELECT g, (ARRAY['bp_crisis','bp_stage2','bp_low','pulse_high','irregular_heartbeat'])[1 + g / $2::int] AS rule,
                       1 + g % $2::int AS n
                  FROM generate_series(0, $1::int - 1) g)
     INSERT INTO alerts (patient_id, organization_id, rule, severity, severity_rank, status, count, first_at, last_at, last_values)
     SELECT p.id, p.organization_id, g.rule,
            CASE g.rule WHEN 'bp_crisis' THEN 'critical' WHEN 'irregular_heartbeat' THEN 'info' ELSE 'warning' END,
            CASE g.rule WHEN 'bp_crisis' THEN 0 WHEN 'irregular_heartbeat' THEN 2 ELSE 1 END,
            CASE WHEN abs(hashint4(g.g)) % 10 < 4 THEN 'open' WHEN abs(hashint4(g.g)) % 10 = 4 THEN 'acknowledged' ELSE 'resolved' END,
            1 + g.g % 7, now() - (g.g % 129600) * interval '1 minute', now() - (g.g % 60000) * interval '1 second',
            '{"systolic":150,"diastolic":95}'
       FROM g JOIN p ON p.n = g.n`,
    [alertCount, patientsNeeded],
  );
  // As autovacuum leaves a table that has settled: statistics and the visibility map (index-only counts).
  await pool.query('VACUUM ANALYZE alerts');
  await pool.query('VACUUM ANALYZE patients');
  const { rows: counted } = await pool.query<{ n: number; open: number }>(
    `SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'open')::int AS open FROM alerts`,
  );
  console.log(
    `${counted[0]!.n} alerts (${counted[0]!.open} open) over ${patientsNeeded} patients in 5 organizations, ` +
      `inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const ctx = (id: number, role: 'admin' | 'provider', organizationId: number | null): SignedInContext => ({
    actor: actorOf({ id, email: `${role}@example.com`, role, organizationId, cognitoUsername: null }),
    ip: '127.0.0.1',
    userAgent: 'bench',
    requestId: 'bench',
  });
  const provider = ctx(providerId, 'provider', orgIds[0]!);
  const admin = ctx(adminId, 'admin', null);
  const cases: [string, SignedInContext, AlertListQuery][] = [
    ['provider: open, first page of 25', provider, { status: 'open', limit: 25, offset: 0 }],
    ['provider: open, page at offset 2,000', provider, { status: 'open', limit: 25, offset: 2000 }],
    ['provider: critical only', provider, { status: 'open', severity: 'critical', limit: 25, offset: 0 }],
    [
      'provider: their own patients (~200)',
      provider,
      { status: 'open', provider_id: providerId, limit: 25, offset: 0 },
    ],
    ['provider: resolved', provider, { status: 'resolved', limit: 25, offset: 0 }],
    ['admin: open, every organization', admin, { status: 'open', limit: 25, offset: 0 }],
  ];
  let worst = 0;
  let worstExecution = 0;
  for (const [name, who, q] of cases) {
    for (let i = 0; i < 5; i++) await listAlerts({ db: pool }, who, q);
    const samples: number[] = [];
    let total = 0;
    for (let i = 0; i < queries; i++) {
      const s = performance.now();
      total = (await listAlerts({ db: pool }, who, q)).total;
      samples.push(performance.now() - s);
    }
    const m = median(samples);
    worst = Math.max(worst, m);
    // PostgreSQL's own time for the statement (no round trips, no client scheduling).
    const compiled = worklistQuery(
      pool,
      {
        organizationId: alertListScope(who.actor),
        status: q.status ?? 'open',
        severity: q.severity,
        providerId: q.provider_id,
      },
      q.limit ?? 25,
      q.offset ?? 0,
    ).compile();
    const execution: number[] = [];
    for (let i = 0; i < 20; i++) {
      const { rows } = await pool.query<{ 'QUERY PLAN': [{ 'Execution Time': number }] }>(
        `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${compiled.sql}`,
        [...compiled.parameters],
      );
      execution.push(rows[0]!['QUERY PLAN'][0]['Execution Time']);
    }
    const e = median(execution);
    worstExecution = Math.max(worstExecution, e);
    console.log(
      `${name.padEnd(40)} call median ${ms(m)}, p95 ${ms(quantile(samples, 0.95))}; statement in PostgreSQL ${ms(e)}  (total ${total})`,
    );
  }
  console.log(
    `\nWorklist with ${counted[0]!.n} alerts: worst call median ${ms(worst)} (the whole service call: transaction, ` +
      `access, page and total, audit record), worst statement ${ms(worstExecution)}; aim ≤ ${AIM_MS} ms: ` +
      `${worst <= AIM_MS ? 'met' : 'NOT met'} for the call, ${worstExecution <= AIM_MS ? 'met' : 'NOT met'} for the statement`,
  );

  // --- 3. the worklist by patient (GET /api/alerts/worklist) and its summary -----------------
  const rowCases: [string, SignedInContext, WorklistQuery][] = [
    ['worklist: provider, priority, first page', provider, {}],
    ['worklist: provider, page at offset 500', provider, { offset: 500 }],
    ['worklist: provider, critical rows', provider, { severity: 'critical' }],
    ['worklist: provider, their own patients', provider, { provider_id: providerId }],
    ['worklist: provider, by name', provider, { sort: 'patient' }],
    ['worklist: provider, by last reading', provider, { sort: 'last_reading', order: 'desc' }],
    ['worklist: admin, priority', admin, {}],
  ];
  let worstRows = 0;
  for (const [name, who, q] of rowCases) {
    for (let i = 0; i < 3; i++) await worklist({ db: pool }, who, q);
    const samples: number[] = [];
    let total = 0;
    for (let i = 0; i < queries; i++) {
      const s = performance.now();
      total = (await worklist({ db: pool }, who, q)).total;
      samples.push(performance.now() - s);
    }
    worstRows = Math.max(worstRows, median(samples));
    console.log(
      `${name.padEnd(40)} call median ${ms(median(samples))}, p95 ${ms(quantile(samples, 0.95))}  (rows ${total})`,
    );
  }
  if (process.env.BENCH_EXPLAIN) {
    const compiled = worklistPageQuery(
      { organizationId: alertListScope(admin.actor), status: 'active' },
      'priority',
      'asc',
      25,
      0,
    ).compile(kysely(pool));
    const { rows } = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${compiled.sql}`, [...compiled.parameters]);
    console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
  }
  const summarySamples: number[] = [];
  for (let i = 0; i < queries; i++) {
    const s = performance.now();
    await alertSummary({ db: pool }, provider);
    summarySamples.push(performance.now() - s);
  }
  console.log(`${'summary: provider'.padEnd(40)} call median ${ms(median(summarySamples))}`);
  console.log(
    `Worklist by patient: worst call median ${ms(worstRows)}; aim ≤ ${AIM_MS} ms: ${worstRows <= AIM_MS ? 'met' : 'NOT met'}`,
  );
  // Shared machines skew every figure: the load is printed with them.
  console.log(
    `load average during the run: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')} on ${os.cpus().length} CPUs`,
  );
} finally {
  await drop();
}
