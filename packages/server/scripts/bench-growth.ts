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
 *     1,000,000 observations (and the same share of the audit records), then at full size.
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
 * Measured on the shared 2-core development machine (PostgreSQL 15 server, other test runs going,
 * load average 10 to 18), medians / p99 in ms; "before" is the single-table schema, "after" the
 * monthly partitions (migration 1000). The quarter runs shared the machine with the full one.
 *
 *   --scale=full --system --budget=60 (before; generated in 26.5 min, database 23 GB)
 *     webhook batch of 10: at 1M 19.4 / 48.1, at 20M 24.7 / 180.5 (27 % slower: FAIL)
 *     patient readings page 14.2 / 111.4; alerts worklist 47.0 / 194.7; audit page 7.0 / 49.8,
 *     half-way 13.6 / 105.6; billing worklist 14,029 / 17,978 and billing month 8,430 / 16,631 (FAIL)
 *   --scale=quarter --system --budget=30, before → after
 *     webhook at 0.5M 53.8 → 57.9, at 5M 51.4 → 11.1; patient readings page 18.6 → 11.6;
 *     alerts worklist 33.6 → 25.5; audit page 21.1 → 9.9, half-way 25.7 → 9.0;
 *     billing worklist 8,479 → 10,003; billing month 8,875 → 8,140 (both far above the limit)
 *
 * Caution on the billing figures: that server has JIT on, and the billing queries' estimated
 * costs pass jit_above_cost, so compiling dominates. At 50 patients on partitions, EXPLAIN ANALYZE
 * of the billing inputs took 960 ms with jit = on and 12 ms with jit = off; the embedded
 * PostgreSQL (no JIT) answered the billing worklist in 27 ms. Full-size figures with jit = off are
 * not measured yet.
 *
 * Works on the single-table schema and on monthly partitions of observations and audit_logs: it
 * inserts into the parent tables and creates a month's partition first if none holds that month.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { DEFAULT_INGEST_AUTH_HEADER } from '@rpm/contracts';
import type pg from 'pg';
import { runMigrations } from '../src/db/migrate.ts';
import { hashSecret, newSourceSecret } from '../src/modules/ingestion/source-secret.ts';
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
const size = {
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
const LIMIT = { median: 50, p99: 200 };
/** Rows per INSERT … SELECT generate_series: big enough to be cheap, small enough to show progress. */
const CHUNK = 2_000_000;

if (flags.system) process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
if (flags.keep && !flags.system) throw new Error('--keep needs --system (an embedded database goes with its process)');

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const secondsSince = (t: number) => ((performance.now() - t) / 1000).toFixed(1);

// ─── generation ────────────────────────────────────────────────────────────────────────────────

/** The secondary indexes of a table (not those behind a constraint): dropped while loading, built after. */
async function secondaryIndexes(db: pg.ClientBase, table: string): Promise<{ name: string; def: string }[]> {
  const { rows } = await db.query<{ name: string; def: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i
      WHERE i.indrelid = $1::regclass
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
    [table],
  );
  return rows;
}

/**
 * Loads rows with the table's secondary indexes dropped and builds them again after: one sort per
 * index instead of millions of scattered inserts (the indexes are the same, by their own definition).
 */
async function withoutIndexes(db: pg.ClientBase, table: string, load: () => Promise<void>): Promise<void> {
  const indexes = await secondaryIndexes(db, table);
  for (const i of indexes) await db.query(`DROP INDEX ${i.name}`);
  await load();
  const t = performance.now();
  // pg_get_indexdef says ON ONLY for a partitioned table's index; built again for every partition.
  for (const i of indexes) await db.query(i.def.replace(' ON ONLY ', ' ON '));
  log(`  ${table}: ${indexes.length} indexes built in ${secondsSince(t)} s`);
}

/**
 * On a partitioned table, a partition for every month in [from, to) that none holds yet: by the
 * schema's own maintenance function (rpm_partition_create) when it has one, otherwise as
 * <table>_gYYYYMM over the UTC month. A month some partition already covers is left as it is.
 */
async function ensureMonthlyPartitions(db: pg.ClientBase, table: string, from: Date, to: Date): Promise<void> {
  const partitioned = await db.query(`SELECT 1 FROM pg_partitioned_table WHERE partrelid = $1::regclass`, [table]);
  if (partitioned.rowCount === 0) return;
  const maintained =
    (await db.query(`SELECT to_regproc('rpm_partition_create') IS NOT NULL AS ok`)).rows[0]?.ok === true;
  const month = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), 1));
  const outcomes: string[] = [];
  while (month < to) {
    const next = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
    const day = month.toISOString().slice(0, 10);
    if (maintained) {
      const r = await db.query<{ outcome: string }>(`SELECT rpm_partition_create($1, $2::date) AS outcome`, [
        table,
        day,
      ]);
      outcomes.push(r.rows[0]!.outcome);
    } else {
      const name = `${table}_g${day.slice(0, 7).replace('-', '')}`;
      try {
        await db.query(
          `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF ${table}
             FOR VALUES FROM ('${month.toISOString()}') TO ('${next.toISOString()}')`,
        );
        outcomes.push('created');
      } catch (err) {
        // 42P17: the month overlaps a partition the schema made otherwise; that one holds it.
        if ((err as { code?: string }).code !== '42P17') throw err;
        outcomes.push('exists');
      }
    }
    month.setTime(next.getTime());
  }
  log(`  ${table} is partitioned by month: ${outcomes.length} months (${[...new Set(outcomes)].join(', ')})`);
}

interface Generator {
  /** Observations [from, to) of the whole series (patients round robin, oldest first). */
  observations: (from: number, to: number) => Promise<void>;
  /** Audit records [from, to) of the whole series, oldest first, linked into the chain. */
  audit: (from: number, to: number) => Promise<void>;
}

async function generator(
  db: pg.ClientBase,
  patientIds: { first: number; count: number },
  userIds: number[],
): Promise<Generator> {
  const periodSeconds = Math.round(size.months * 30.5 * 86_400);
  const perPatient = Math.ceil(size.observations / patientIds.count);
  // Readings of one patient are this far apart (whole seconds: the webhook's readings fall between).
  const stepSeconds = Math.max(60, Math.floor(periodSeconds / perPatient));
  const auditStep = periodSeconds / size.audit;
  const { rows } = await db.query<{ start: Date; now: Date }>(
    `SELECT date_trunc('minute', now()) - make_interval(secs => $1) AS start, now() AS now`,
    [periodSeconds],
  );
  const start = rows[0]!.start;
  // Each patient's device (one each, labelled GROWTH-<patient id>), by the patient's place in the series.
  const devices = await db.query<{ ids: number[] }>(
    `SELECT array_agg(id ORDER BY patient_id) AS ids FROM devices WHERE device_id LIKE 'GROWTH-%'`,
  );
  const deviceIds = devices.rows[0]!.ids;
  const end = new Date(rows[0]!.now.getTime() + 62 * 86_400_000);
  await ensureMonthlyPartitions(db, 'observations', start, end);
  await ensureMonthlyPartitions(db, 'audit_logs', start, end);

  return {
    async observations(from, to) {
      for (let a = from; a < to; a += CHUNK) {
        const b = Math.min(to, a + CHUNK);
        // g → patient g % P, its k-th reading (k = g / P). Half blood pressure (with its pulse, as
        // the schema stores it), the rest heart rate, weight, glucose and SpO2. One device per patient.
        await db.query(
          `INSERT INTO observations (patient_id, device_id, source, created_at, received_at, measurement_index, kind, components, unit)
           SELECT p, ($7::int[])[1 + (g % $4)::int], 'GROWTH-' || p, t, t + interval '40 seconds', 0, k.kind, k.components, k.unit
             FROM generate_series($1::bigint, $2::bigint - 1) g,
                  LATERAL (SELECT $3::int + (g % $4)::int AS p,
                                  $5::timestamptz + make_interval(secs => (g / $4) * $6 + (g % $4) % 1800) AS t) x,
                  LATERAL (SELECT CASE WHEN g % 10 < 5 THEN 'blood_pressure' WHEN g % 10 < 7 THEN 'heart_rate'
                                       WHEN g % 10 = 7 THEN 'weight' WHEN g % 10 = 8 THEN 'glucose' ELSE 'spo2' END AS kind,
                                  CASE WHEN g % 10 < 5 THEN jsonb_build_object('systolic', 105 + g % 60, 'diastolic', 65 + g % 30, 'pulse', 55 + g % 40)
                                       WHEN g % 10 < 7 THEN jsonb_build_object('pulse', 55 + g % 45)
                                       WHEN g % 10 = 7 THEN jsonb_build_object('weight', 60 + (g % 500) / 10.0)
                                       WHEN g % 10 = 8 THEN jsonb_build_object('glucose', 80 + g % 140)
                                       ELSE jsonb_build_object('spo2', 88 + g % 12) END AS components,
                                  CASE WHEN g % 10 < 5 THEN 'mm[Hg]' WHEN g % 10 < 7 THEN '/min'
                                       WHEN g % 10 = 7 THEN 'kg' WHEN g % 10 = 8 THEN 'mg/dL' ELSE '%' END AS unit) k
            WHERE x.t < now()`,
          [a, b, patientIds.first, patientIds.count, start, stepSeconds, deviceIds],
        );
      }
    },
    async audit(from, to) {
      for (let a = from; a < to; a += CHUNK) {
        const b = Math.min(to, a + CHUNK);
        const before = await db.query<{ id: string }>(`SELECT coalesce(max(id), 0)::text AS id FROM audit_logs`);
        await db.query(
          `INSERT INTO audit_logs ("timestamp", user_id, ip_address, action, resource_type, resource_id, details,
                                   outcome, user_agent, request_id)
           SELECT $3::timestamptz + make_interval(secs => g * $4::float8), ($5::int[])[1 + g % cardinality($5::int[])],
                  '10.0.' || (g % 250) || '.' || (g % 7), (ARRAY['vitals.read','patient.read','alert.list','note.create',
                  'tracking.create','billing.patient','auth.sign_in','observation.read'])[1 + g % 8],
                  'patient', ($6::int + g % $7::int)::text, CASE WHEN g % 8 = 3 THEN '{"fields":["text"]}'::jsonb END,
                  CASE WHEN g % 97 = 0 THEN 'denied' ELSE 'success' END,
                  'Mozilla/5.0 (X11; Linux x86_64) Chrome/140', md5(g::text)
             FROM generate_series($1::bigint, $2::bigint - 1) g`,
          [a, b, start, auditStep, userIds, patientIds.first, patientIds.count],
        );
        // The chain's links in bulk, numbered as the sealer would; their hashes are placeholders
        // (generating HMACs for millions of rows measures the sealer, not the reads timed here;
        // `audit:verify` does not pass on this database).
        await db.query(
          `INSERT INTO audit_chain (log_id, prev_hash, hash, position)
           SELECT id, '\\x'::bytea, '\\x'::bytea,
                  (SELECT coalesce(max(position), 0) FROM audit_chain) + row_number() OVER (ORDER BY id)
             FROM audit_logs WHERE id > $1::bigint`,
          [before.rows[0]!.id],
        );
      }
    },
  };
}

/** Alerts (open ones for a fifth of the patients, resolved ones over the year) and tracking time. */
async function generateCareData(db: pg.ClientBase, userIds: number[]): Promise<void> {
  await db.query(
    `INSERT INTO alerts (patient_id, organization_id, rule, severity, severity_rank, status, count, first_at, last_at,
                         last_values, acknowledged_by, acknowledged_at, resolved_by, resolved_at, resolution_reason)
     SELECT p.id, p.organization_id, r.rule, r.severity, r.rank, 'resolved', 1 + k % 3,
            now() - make_interval(days => 10 + k * 37 + p.id % 20), now() - make_interval(days => 9 + k * 37 + p.id % 20),
            '{"systolic": 165, "diastolic": 102}', u, now() - make_interval(days => 9 + k * 37 + p.id % 20),
            u, now() - make_interval(days => 8 + k * 37 + p.id % 20), 'reached_patient'
       FROM patients p, generate_series(0, 9) k,
            LATERAL (SELECT (ARRAY['bp_stage2','pulse_high','glucose_high','spo2_low'])[1 + (p.id + k) % 4] AS rule,
                            CASE WHEN (p.id + k) % 4 = 0 THEN 'warning' ELSE 'info' END AS severity,
                            CASE WHEN (p.id + k) % 4 = 0 THEN 1 ELSE 2 END::smallint AS rank,
                            ($1::int[])[1 + (p.id + k) % cardinality($1::int[])] AS u) r`,
    [userIds],
  );
  await db.query(
    `INSERT INTO alerts (patient_id, organization_id, rule, severity, severity_rank, status, count, first_at, last_at, last_values)
     SELECT p.id, p.organization_id, r.rule, r.severity, r.rank,
            CASE WHEN p.id % 3 = 0 THEN 'acknowledged' ELSE 'open' END, 1 + p.id % 4,
            now() - make_interval(hours => 1 + p.id % 72), now() - make_interval(mins => p.id % 600),
            '{"systolic": 182, "diastolic": 121}'
       FROM patients p,
            LATERAL (SELECT (ARRAY['bp_crisis','bp_stage2','pulse_low','stale_data'])[1 + p.id % 4] AS rule,
                            (ARRAY['critical','warning','warning','info'])[1 + p.id % 4] AS severity,
                            (ARRAY[0, 1, 1, 2])[1 + p.id % 4]::smallint AS rank) r
      WHERE p.id % 5 = 0`,
  );
  // Three entries a month per patient, the first an interactive phone call.
  await db.query(
    `INSERT INTO tracking_entries (patient_id, user_id, date, duration_minutes, interactive, contact_type, activity)
     SELECT p.id, ($2::int[])[1 + p.id % cardinality($2::int[])],
            (date_trunc('month', now()) - make_interval(months => m) + make_interval(days => 2 + k * 8 + p.id % 5))::date,
            4 + (p.id + k) % 12, k = 0, CASE WHEN k = 0 THEN 'phone' END,
            CASE WHEN k = 0 THEN 'phone_call' ELSE 'review_readings' END
       FROM patients p, generate_series(0, $1::int) m, generate_series(0, 2) k
      WHERE (date_trunc('month', now()) - make_interval(months => m) + make_interval(days => 2 + k * 8 + p.id % 5))::date <= current_date`,
    [size.months, userIds],
  );
}

/**
 * patient_observation_counts and the billing months' counted days as the (bypassed) triggers
 * would have kept them (the billing months by the schema's own rebuild, when it has them).
 */
async function recount(db: pg.ClientBase): Promise<void> {
  await db.query('DELETE FROM patient_observation_counts');
  await db.query(
    `INSERT INTO patient_observation_counts (patient_id, kind, n)
     SELECT patient_id, kind, count(*) FROM observations GROUP BY patient_id, kind`,
  );
  const billingMonths = await db.query(`SELECT to_regproc('rpm_billing_reading_months_rebuild') IS NOT NULL AS ok`);
  if (billingMonths.rows[0]?.ok === true) {
    const t = performance.now();
    await db.query('SELECT rpm_billing_reading_months_rebuild()');
    log(`  billing reading months rebuilt in ${secondsSince(t)} s`);
  }
}

async function tableSizes(db: pg.ClientBase): Promise<string> {
  const { rows } = await db.query<{ obs: string; audit: string; obs_n: string; audit_n: string; db: string }>(
    `SELECT (SELECT count(*) FROM observations)::text AS obs_n, (SELECT coalesce(max(position), 0) FROM audit_chain)::text AS audit_n,
            pg_size_pretty((SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c
                             WHERE c.relkind = 'r' AND (c.relname = 'observations' OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'observations'::regclass)))) AS obs,
            pg_size_pretty((SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c
                             WHERE c.relkind = 'r' AND (c.relname IN ('audit_logs', 'audit_chain') OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'audit_logs'::regclass)))) AS audit,
            pg_size_pretty(pg_database_size(current_database())) AS db`,
  );
  const r = rows[0]!;
  return `observations ${Number(r.obs_n).toLocaleString('en')} (${r.obs}), audit records ${Number(r.audit_n).toLocaleString('en')} (${r.audit} with the chain), database ${r.db}`;
}

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

/** A webhook batch of BATCH blood pressure readings of as many patients, each new (times between the generated ones). */
function webhookCall(hook: Webhook, patients: { first: number; count: number }, offset: number) {
  // Within the ingestion's accepted age (90 days by default), on half seconds: never a generated time.
  const start = Date.now() - 60 * 86_400_000 + 500;
  return async (i: number) => {
    const n = offset + i;
    const body = Array.from({ length: BATCH }, (_, j) => {
      const p = patients.first + (((n * BATCH + j) * 7919) % patients.count);
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
  };
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

  // The bulk rows: the audit chain's sealer queue, the observation counters and the closed-month
  // checks are statement triggers that would make generating millions of rows slow (or, for the
  // audit queue, hand the sealer millions of rows to link one by one). As the database owner, this
  // session skips triggers (`session_replication_role = replica`); what they keep — the counts and
  // the chain's links — is filled in bulk below. Nothing else writes meanwhile (no app is running).
  await owner.query(`SET session_replication_role = replica`);
  const gen = await generator(owner, patients, [adminId, ...providerIds]);
  const auditAtCompare = Math.round((size.audit * COMPARE_AT) / size.observations);
  let t = performance.now();
  await withoutIndexes(owner, 'observations', () => gen.observations(0, COMPARE_AT));
  await withoutIndexes(owner, 'audit_logs', () => gen.audit(0, auditAtCompare));
  await recount(owner);
  await owner.query('ANALYZE');
  log(`stage 1 generated in ${secondsSince(t)} s: ${await tableSizes(owner)}`);

  // The write path at 1M observations (the app started on this database only for it).
  const hookOf = (a: BenchApp): Webhook => ({
    url: `${a.config.publicUrl}/api/ingest/tenovi/${sourceId}`,
    headers: { 'content-type': 'application/json', [DEFAULT_INGEST_AUTH_HEADER]: secret },
  });
  app = await startBenchApp(pool, { keys });
  const compareLabel = `${(COMPARE_AT / 1e6).toLocaleString('en')}M obs / ${(auditAtCompare / 1e6).toLocaleString('en')}M audit`;
  const atCompare = await measure(webhookCall(hookOf(app), patients, 0));
  log(`  webhook at ${compareLabel}: median ${atCompare.median.toFixed(1)} ms, p99 ${atCompare.p99.toFixed(1)} ms`);
  figures.push({
    name: `webhook batch of ${BATCH} readings (write path)`,
    size: compareLabel,
    ...atCompare,
    limit: 'baseline',
    pass: null,
  });
  await app.close();
  app = undefined;

  t = performance.now();
  await owner.query(`SET session_replication_role = replica`);
  await withoutIndexes(owner, 'observations', () => gen.observations(COMPARE_AT, size.observations));
  await withoutIndexes(owner, 'audit_logs', () => gen.audit(auditAtCompare, size.audit));
  await generateCareData(owner, [adminId, ...providerIds]);
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
  const atFull = await measure(webhookCall(hookOf(app), patients, 1_000_000));
  log(`  webhook at full size: median ${atFull.median.toFixed(1)} ms, p99 ${atFull.p99.toFixed(1)} ms`);
  // Not slower than at 1M: the margin is the noise two runs minutes apart show on a shared machine.
  const margin = 1.2;
  figures.splice(1, 0, {
    name: `webhook batch of ${BATCH} readings (write path)`,
    size: fullLabel,
    ...atFull,
    limit: `≤ ${(atCompare.median * margin).toFixed(1)} (baseline median +20 %) / ${LIMIT.p99}`,
    pass: atFull.median <= atCompare.median * margin && atFull.p99 <= LIMIT.p99,
  });

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
    await pool.end();
    log(`kept the database: ${database.url}`);
  } else await database.drop();
}
