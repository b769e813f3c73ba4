/**
 * Growth benchmark: does the portal stay fast when a clinic has run for a year? Creates a fresh
 * database, migrates it, generates a clinic's year in SQL with generate_series (as the database
 * owner, not through the API), then times through the real HTTP app, signed in as an admin:
 *
 *   - a patient's latest readings page (the patient page's readings call, GET /api/patients/:id/vitals),
 *   - the alerts worklist (GET /api/alerts/worklist) and the billing worklist (GET /api/billing/worklist),
 *   - the billing month report (GET /api/billing?month=<last month>),
 *   - an audit log page (GET /api/audit-logs, first page and one half-way down the log),
 *   - the write path: a Tenovi webhook batch of 10 readings, first when the database holds
 *     1,000,000 observations (the newest ones, and the same share of the audit records), then at
 *     full size; at each size twice, as the database is left (after a checkpoint), then with the
 *     months a write touches read into the cache first (see `warmWrittenMonths`).
 *
 * Each figure is `--runs` runs of `--requests` requests one at a time after `--warmup`
 * unmeasured ones; the table gives the median and p99 of all samples, the range of the runs'
 * medians, and the limit (50 ms median, 200 ms p99; the webhook at full size: its median at most
 * 20 % above the one at 1M — the margin is the noise of a shared machine).
 *
 *   npm run bench:growth -- --scale=small               (200 patients, 200k readings, 500k audit; ~1 min)
 *   npm run bench:growth -- --scale=full                (10,000 patients, 50 providers, 20M readings, 50M audit)
 *   npm run bench:growth -- --scale=quarter --system    (on the server in DATABASE_URL, default the local one)
 *
 * Flags: --scale=small|quarter|full, or --patients= --providers= --observations= --audit= to
 * override; --compare-at=1000000 (observations when the write path is first measured); --months=13 (how far back the data goes);
 * --runs=3 --requests=200 --warmup=20 --budget=120 (seconds a figure may take: a slow one gets
 * fewer requests per run, at least 2);
 * --system (a new database on the PostgreSQL server in DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres, instead of an embedded one in a temporary folder);
 * --keep (leave the database, only with --system); --out=<file> (also write the table there).
 *
 * Compare figures only within one sitting (the machine may be shared). Connections run with
 * jit = off, as the portal's do: with JIT, compiling the billing queries outlasted running them.
 *
 * Works on the single-table schema and on monthly partitions of observations and audit_logs: it
 * inserts into the parent tables and creates a month's partition first if none holds that month.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { DEFAULT_INGEST_AUTH_HEADER } from '@rpm/contracts';
import { runMigrations } from '../src/db/migrate.ts';
import { hashSecret, newSourceSecret } from '../src/modules/ingestion/source-secret.ts';
import {
  generateCareData,
  generator,
  log,
  OPEN_ALERTS_EVERY,
  recount,
  secondsSince,
  tableSizes,
  withoutIndexes,
  type GrowthSize,
} from './bench-growth.generate.ts';
import { benchKeys, createBenchDatabase, seedBenchClinics, startBenchApp, type BenchApp } from './bench-support.ts';

const { values: flags } = parseArgs({
  options: {
    scale: { type: 'string', default: 'small' },
    patients: { type: 'string' },
    providers: { type: 'string' },
    observations: { type: 'string' },
    audit: { type: 'string' },
    months: { type: 'string', default: '13' },
    runs: { type: 'string', default: '3' },
    requests: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '20' },
    system: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    out: { type: 'string' },
    'compare-at': { type: 'string' },
    budget: { type: 'string', default: '120' },
  },
});

const SCALES = {
  small: { patients: 200, providers: 10, observations: 200_000, audit: 500_000 },
  quarter: { patients: 2_500, providers: 50, observations: 5_000_000, audit: 12_500_000 },
  full: { patients: 10_000, providers: 50, observations: 20_000_000, audit: 50_000_000 },
} as const;
const base = SCALES[flags.scale as keyof typeof SCALES];
if (!base) throw new Error(`--scale must be one of ${Object.keys(SCALES).join(', ')}`);
const num = (v: string | undefined, fallback: number) => (v === undefined ? fallback : Number(v.replaceAll('_', '')));
const size: GrowthSize = {
  patients: num(flags.patients, base.patients),
  providers: num(flags.providers, base.providers),
  observations: num(flags.observations, base.observations),
  audit: num(flags.audit, base.audit),
  months: num(flags.months, 13),
};
const RUNS = num(flags.runs, 3);
const REQUESTS = num(flags.requests, 200);
const WARMUP = num(flags.warmup, 20);
const BUDGET_S = num(flags.budget, 120);
/** The size the write path is compared at: 1M observations (a tenth of a smaller run). */
const COMPARE_AT = num(flags['compare-at'], Math.min(1_000_000, Math.floor(size.observations / 10)));
const BATCH = 10;
/** The webhook's readings are dated from an hour before the bench started (see webhookCall). */
const BENCH_STARTED = Date.now();
const LIMIT = { median: 50, p99: 200 };
if (flags.system) process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
if (flags.keep && !flags.system) throw new Error('--keep needs --system (an embedded database goes with its process)');
// ─── timing ────────────────────────────────────────────────────────────────────────────────────

interface Measured {
  median: number;
  p99: number;
  runMedians: number[];
  /** Runs × requests per run. */
  requests: string;
}

interface Figure extends Measured {
  name: string;
  size: string;
  limit: string;
  /** Null for a baseline, which has no limit of its own. */
  pass: boolean | null;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/**
 * `RUNS` runs of `REQUESTS` calls one at a time, after `WARMUP` unmeasured ones; `call(i)` throws
 * on a wrong answer. A slow figure gets fewer requests per run, so that it takes about BUDGET_S in
 * all (at least 2 per run): the table says how many were made.
 */
async function measure(call: (i: number) => Promise<void>): Promise<Measured> {
  let i = 0;
  // The quickest of three first calls (the very first is often a cold one).
  let once = Infinity;
  for (; i < 3; i++) {
    const t = performance.now();
    await call(i);
    once = Math.min(once, (performance.now() - t) / 1000);
  }
  const perRun = Math.max(2, Math.min(REQUESTS, Math.floor(BUDGET_S / RUNS / once)));
  for (let w = 3; w < Math.min(WARMUP, perRun); w++) await call(i++);
  const all: number[] = [];
  const runMedians: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const samples: number[] = [];
    for (let n = 0; n < perRun; n++) {
      const t = performance.now();
      await call(i++);
      samples.push(performance.now() - t);
    }
    samples.sort((x, y) => x - y);
    runMedians.push(quantile(samples, 0.5));
    all.push(...samples);
  }
  all.sort((x, y) => x - y);
  return { median: quantile(all, 0.5), p99: quantile(all, 0.99), runMedians, requests: `${RUNS} × ${perRun}` };
}

function against(name: string, sizeLabel: string, m: Measured): Figure {
  log(`  ${name}: median ${m.median.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms (${m.requests})`);
  return {
    name,
    size: sizeLabel,
    ...m,
    limit: `${LIMIT.median} / ${LIMIT.p99}`,
    pass: m.median <= LIMIT.median && m.p99 <= LIMIT.p99,
  };
}

async function getJson(app: BenchApp, headers: Record<string, string>, path: string): Promise<unknown> {
  const res = await fetch(`${app.config.publicUrl}${path}`, { headers });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${body.slice(0, 300)}`);
  return JSON.parse(body) as unknown;
}

interface Webhook {
  url: string;
  headers: Record<string, string>;
}

/**
 * A webhook batch of BATCH blood pressure readings of as many patients, each new (times between the
 * generated ones). Call n's readings were taken n seconds after `start`: within the two hours before the bench started, as a
 * device sends them, so they land in this month's table, the one stage 1 fills as stage 2 does.
 * (Dated 60 days back, they landed in a month that was empty at 1M readings and full at 20M.)
 * Each figure makes well under WEBHOOK_SPACING calls, so the four figures' readings never meet;
 * the last one's are still more than half an hour old when the bench started.
 */
const WEBHOOK_SPACING = 1_200;
if (3 + WARMUP + RUNS * REQUESTS > WEBHOOK_SPACING) throw new Error(`--runs × --requests must stay under ${WEBHOOK_SPACING}`);
function webhookCall(hook: Webhook, patients: number[], offset: number) {
  // On half seconds: never a generated time.
  const start = BENCH_STARTED - 7_200_000 + 500;
  return async (i: number) => {
    const n = offset + i;
    const body = Array.from({ length: BATCH }, (_, j) => {
      const p = patients[((n * BATCH + j) * 7919) % patients.length]!;
      return {
        hwi_device_id: `GROWTH-${p}`,
        metric: 'blood_pressure',
        value_1: 110 + ((n + j) % 40),
        value_2: 70 + ((n + j) % 20),
        timestamp: new Date(start + n * 1000).toISOString(),
        filter_params: { measurement_index: n },
      };
    });
    const res = await fetch(hook.url, { method: 'POST', headers: hook.headers, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`webhook: ${res.status} ${text.slice(0, 300)}`);
    // The write path timed is storing readings, not parking them as unmatched nor skipping duplicates.
    const stored = (JSON.parse(text) as { stored?: number }).stored;
    if (stored !== BATCH) throw new Error(`webhook: ${stored} of ${BATCH} readings stored: ${text.slice(0, 300)}`);
  };
}

/**
 * Reads this month's and last month's tables and indexes (the partitions a webhook writes in, and
 * those its alert window and billing month read), with every table that is not partitioned, into
 * the operating system's cache (pg_prewarm's 'read' mode, not PostgreSQL's buffers: 128 MB hold a
 * fraction of them). Why: at full size the database (25 GB) is larger than the machine's memory,
 * and generating the older months and vacuuming them minutes before the full-size figure pushes
 * the current month out of the cache. A clinic's server writes and reads the current month all
 * day, so it stays cached there; measured as left, the full-size figure compares a cold month
 * with the warm one of the 1M figure. Both sizes are measured both ways, so the table shows what
 * the cache is worth at each. 2026-11-28, --scale=full --system (25 GB), median of 3 × 200 calls:
 * as left 11.3 ms at 1M and 20.8 ms at full size; months read in 11.0 and 10.5 ms.
 */
async function warmWrittenMonths(db: pg.PoolClient): Promise<void> {
  await db.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
  const suffix = (monthsBack: number) => {
    const d = new Date();
    const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - monthsBack, 1));
    return `_y${m.getUTCFullYear()}m${String(m.getUTCMonth() + 1).padStart(2, '0')}`;
  };
  await db.query(
    `SELECT pg_prewarm(c.oid, 'read')
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i', 'm') AND c.relpersistence = 'p'
        AND (c.relname !~ '_y[0-9]{4}m[0-9]{2}' OR strpos(c.relname, $1) > 0 OR strpos(c.relname, $2) > 0)`,
    [suffix(0), suffix(1)],
  );
}

function table(figures: Figure[]): string {
  const f = (ms: number) => ms.toFixed(1);
  const lines = [
    '| figure | size | requests | median ms | p99 ms | range of run medians ms | limit ms (median / p99) | result |',
    '|---|---|---|---:|---:|---:|---|---|',
    ...figures.map(
      (x) =>
        `| ${x.name} | ${x.size} | ${x.requests} | ${f(x.median)} | ${f(x.p99)} | ${f(Math.min(...x.runMedians))}–${f(Math.max(...x.runMedians))} | ${x.limit} | ${x.pass === null ? '—' : x.pass ? 'pass' : 'FAIL'} |`,
    ),
  ];
  return lines.join('\n');
}

// ─── the run ───────────────────────────────────────────────────────────────────────────────────

const previousMonth = (() => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
})();
const thisMonth = new Date().toISOString().slice(0, 7);

log(
  `growth bench: ${size.patients.toLocaleString('en')} patients, ${size.providers} providers, ` +
    `${size.observations.toLocaleString('en')} observations over ${size.months} months, ${size.audit.toLocaleString('en')} audit records; ` +
    `${RUNS} runs × ${REQUESTS} requests after ${WARMUP}; ${flags.system ? 'PostgreSQL server' : 'embedded PostgreSQL'}; ` +
    `${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
);
const database = await createBenchDatabase(10, { embedded: true });
const { pool } = database;
const owner = await pool.connect();
let app: BenchApp | undefined;
// One pair of keys for both starts of the app (the first seals the identity settings with its master key).
const keys = benchKeys();
const figures: Figure[] = [];
try {
  await runMigrations(pool);
  await owner.query(`SET maintenance_work_mem = '512MB'`);
  await owner.query(`SET synchronous_commit = off`);
  const clinics = await seedBenchClinics(pool);
  const adminId = clinics.adminId;
  const t0 = performance.now();

  // Staff, patients (enrolled, active since before the data), their programs and devices: few
  // rows, through the schema's triggers (assignments, active spans).
  const providers = await owner.query<{ id: number }>(
    `INSERT INTO users (email, role, organization_id, first_name, last_name)
     SELECT 'growth-provider-' || g || '@example.com', 'provider', ($2::int[])[1 + g % cardinality($2::int[])], 'Provider', 'No ' || g
       FROM generate_series(1, $1::int) g RETURNING id`,
    [size.providers, clinics.organizationIds],
  );
  const providerIds = providers.rows.map((r) => r.id);
  const created = await owner.query<{ first: number; count: number }>(
    `WITH p AS (
       INSERT INTO patients (first_name, last_name, date_of_birth, gender, organization_id, primary_provider_id,
                             enrolled_rpm, enrollment_status, consent_date)
       SELECT (ARRAY['José','Maria','John','Élodie','Chen','Fatima','Olga','Liam'])[1 + g % 8], 'Growth ' || g,
              date '1940-01-01' + (g * 37) % 20000, (ARRAY['male','female','other'])[1 + g % 3],
              u.organization_id, u.id, true, 'Active', current_date - 400
         FROM generate_series(1, $1::int) g
         JOIN users u ON u.id = ($2::int[])[1 + g % cardinality($2::int[])]
       RETURNING id)
     SELECT min(id)::int AS first, count(*)::int AS count FROM p`,
    [size.patients, providerIds],
  );
  const patients = created.rows[0]!;
  await owner.query(
    `INSERT INTO patient_programs (patient_id, program_id)
     SELECT id, (ARRAY['hypertension', 'heart_failure', 'diabetes', 'copd'])[1 + id % 4] FROM patients`,
  );
  await owner.query(
    `INSERT INTO devices (device_id, model, patient_id) SELECT 'GROWTH-' || id, 'Growth BPM', id FROM patients`,
  );
  await owner.query(`UPDATE device_assignments SET assigned_from = now() - interval '${size.months + 2} months'`);
  const sourceId = randomUUID();
  const secret = newSourceSecret(sourceId);
  await owner.query(
    `INSERT INTO ingestion_sources (id, name, kind, auth_header, secret_hash, organization_id)
     VALUES ($1, 'growth tenovi', 'tenovi', $2, $3, $4)`,
    [sourceId, DEFAULT_INGEST_AUTH_HEADER, hashSecret(secret), clinics.orgId],
  );
  // The webhook's readings are of the source's own organization's patients: a source stores
  // readings for its organization only and parks the others as unmatched (which is what 4 in 5 of
  // the readings did before, measuring the parking path and a quota count that grew with each call).
  // Not the patients given an open alert: those alerts are made with the year's history, after the
  // 1M figures, and a reading that clears or ends one costs the write path more, which is not
  // growth (a clinic's open alerts are as many at 1M readings as at 20M).
  const senderPatients = (
    await owner.query<{ ids: number[] }>(
      `SELECT array_agg(id ORDER BY id) AS ids FROM patients WHERE organization_id = $1 AND id % $2::int <> 0`,
      [clinics.orgId, OPEN_ALERTS_EVERY],
    )
  ).rows[0]!.ids;
  // Each of the four webhook figures writes to its own quarter of them: a figure's readings join
  // its patients' week of readings (the alert window), so patients shared by the figures would
  // give each later figure larger windows than the one before.
  const sendersOf = (figure: number) => senderPatients.filter((_, k) => k % 4 === figure);
  // The write path at one size (`stage` 0 at 1M, 1 at full size), as left and then with the
  // months it writes in read into the cache; each after a checkpoint, so that neither pays for
  // another figure's dirty pages.
  const writePath = async (hook: Webhook, stage: 0 | 1, label: string) => {
    const out: Measured[] = [];
    for (const [way, how] of ['as left', 'months read in'].entries()) {
      if (way === 1) await warmWrittenMonths(owner);
      await owner.query('CHECKPOINT');
      const figure = 2 * stage + way;
      const m = await measure(webhookCall(hook, sendersOf(figure), figure * WEBHOOK_SPACING));
      log(`  webhook at ${label}, ${how}: median ${m.median.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms`);
      out.push(m);
    }
    return { asLeft: out[0]!, warm: out[1]! };
  };

  // The bulk rows: the audit chain's sealer queue, the observation counters and the closed-month
  // checks are statement triggers that would make generating millions of rows slow (or, for the
  // audit queue, hand the sealer millions of rows to link one by one). As the database owner, this
  // session skips triggers (`session_replication_role = replica`); what they keep — the counts and
  // the chain's links — is filled in bulk below. Nothing else writes meanwhile (no app is running).
  await owner.query(`SET session_replication_role = replica`);
  const gen = await generator(owner, size, patients, [adminId, ...providerIds]);
  const auditAtCompare = Math.round((size.audit * COMPARE_AT) / size.observations);
  let t = performance.now();
  // The newest readings first, the older history in stage 2: a clinic at 1M readings has this
  // month's readings as one at 20M does (same activity, shorter history), so the write path is
  // compared with the same month table filling. (Generated oldest first, the webhook at 1M wrote
  // into an empty month table and at 20M into one of 1.5M rows.) Audit records likewise: their ids
  // and chain positions follow their time whichever range is made first.
  await withoutIndexes(owner, 'observations', () => gen.observations(size.observations - COMPARE_AT, size.observations));
  await withoutIndexes(owner, 'audit_logs', () => gen.audit(size.audit - auditAtCompare, size.audit));
  await recount(owner);
  // Vacuumed like stage 2: left unvacuumed, autovacuum starts on the fresh million rows in the
  // middle of the baseline (one run's baseline median was 5.5 ms, the next one's 8.5).
  await owner.query('VACUUM ANALYZE');
  log(`stage 1 generated in ${secondsSince(t)} s: ${await tableSizes(owner)}`);

  // The write path at 1M observations (the app started on this database only for it).
  const hookOf = (a: BenchApp): Webhook => ({
    url: `${a.config.publicUrl}/api/ingest/tenovi/${sourceId}`,
    headers: { 'content-type': 'application/json', [DEFAULT_INGEST_AUTH_HEADER]: secret },
  });
  app = await startBenchApp(pool, { keys });
  const compareLabel = `${(COMPARE_AT / 1e6).toLocaleString('en')}M obs / ${(auditAtCompare / 1e6).toLocaleString('en')}M audit`;
  const atCompare = await writePath(hookOf(app), 0, compareLabel);
  const writeName = (how: string) => `webhook batch of ${BATCH} readings (write path), ${how}`;
  figures.push(
    { name: writeName('as left'), size: compareLabel, ...atCompare.asLeft, limit: 'baseline', pass: null },
    { name: writeName('months read in'), size: compareLabel, ...atCompare.warm, limit: 'baseline', pass: null },
  );
  await app.close();
  app = undefined;

  t = performance.now();
  await owner.query(`SET session_replication_role = replica`);
  await withoutIndexes(owner, 'observations', () => gen.observations(0, size.observations - COMPARE_AT));
  await withoutIndexes(owner, 'audit_logs', () => gen.audit(0, size.audit - auditAtCompare));
  await generateCareData(owner, size, [adminId, ...providerIds]);
  await recount(owner);
  await owner.query(`SET session_replication_role = origin`);
  const ta = performance.now();
  await owner.query('VACUUM ANALYZE');
  log(`stage 2 generated in ${secondsSince(t)} s (vacuum analyze ${secondsSince(ta)} s); all in ${secondsSince(t0)} s`);
  const sizes = await tableSizes(owner);
  log(sizes);

  app = await startBenchApp(pool, { keys });
  const headers = await app.headersOf(adminId);
  const a = app;
  const fullLabel = `${(size.observations / 1e6).toLocaleString('en')}M obs / ${(size.audit / 1e6).toLocaleString('en')}M audit`;
  const patientPath = (i: number) =>
    `/api/patients/${patients.first + ((i * 7919) % patients.count)}/vitals?limit=10&offset=0`;
  figures.push(
    against(
      'patient latest readings page (GET /api/patients/:id/vitals)',
      fullLabel,
      await measure((i) => getJson(a, headers, patientPath(i)).then(() => {})),
    ),
    against(
      'alerts worklist (GET /api/alerts/worklist)',
      fullLabel,
      await measure(() => getJson(a, headers, '/api/alerts/worklist').then(() => {})),
    ),
    against(
      `billing worklist (GET /api/billing/worklist?month=${thisMonth})`,
      fullLabel,
      await measure(() => getJson(a, headers, `/api/billing/worklist?month=${thisMonth}`).then(() => {})),
    ),
    against(
      `billing month report (GET /api/billing?month=${previousMonth})`,
      fullLabel,
      await measure(() => getJson(a, headers, `/api/billing?month=${previousMonth}`).then(() => {})),
    ),
    against(
      'audit log first page (GET /api/audit-logs?limit=50)',
      fullLabel,
      await measure(() => getJson(a, headers, '/api/audit-logs?limit=50').then(() => {})),
    ),
    against(
      'audit log page half-way (GET /api/audit-logs?limit=50&offset=N/2)',
      fullLabel,
      await measure(() =>
        getJson(a, headers, `/api/audit-logs?limit=50&offset=${Math.floor(size.audit / 2)}`).then(() => {}),
      ),
    ),
  );
  const atFull = await writePath(hookOf(app), 1, 'full size');
  // Not slower than at 1M, each way against its own baseline: the margin is the noise two runs
  // minutes apart show on a shared machine.
  const margin = 1.2;
  const versus = (m: Measured, baseline: Measured, how: string): Figure => ({
    name: writeName(how),
    size: fullLabel,
    ...m,
    limit: `≤ ${(baseline.median * margin).toFixed(1)} (baseline median +20 %) / ${LIMIT.p99}`,
    pass: m.median <= baseline.median * margin && m.p99 <= LIMIT.p99,
  });
  figures.splice(2, 0, versus(atFull.asLeft, atCompare.asLeft, 'as left'), versus(atFull.warm, atCompare.warm, 'months read in'));

  const title =
    `Growth bench, ${new Date().toISOString().slice(0, 16)}Z: ${sizes}; ${size.patients.toLocaleString('en')} patients, ${size.providers} providers; ` +
    `${RUNS} runs × ${REQUESTS} requests (one at a time, after ${WARMUP} warm-up) per figure; ${flags.system ? 'PostgreSQL server' : 'embedded PostgreSQL'}; ` +
    `load average after ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`;
  const output = `${title}\n\n${table(figures)}\n`;
  console.log(`\n${output}`);
  if (flags.out) await writeFile(flags.out, output);
  if (figures.some((x) => x.pass === false)) process.exitCode = 1;
} finally {
  await app?.close().catch(() => {});
  owner.release();
  if (flags.keep) {
    // Its connection to the server's admin database too: left open, the process never ended.
    await database.keep();
    log(`kept the database: ${database.url}`);
  } else await database.drop();
}
