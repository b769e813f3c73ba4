/**
 * The growth benchmark's data generation (bench-growth.ts times the portal on what this makes):
 * a clinic's year in SQL with generate_series, as the database owner, with secondary indexes
 * dropped while loading and month partitions made first.
 */
import type pg from 'pg';

/** How much the benchmark generates (bench-growth.ts reads it from its flags). */
export interface GrowthSize {
  patients: number;
  providers: number;
  observations: number;
  audit: number;
  months: number;
}

/** Rows per INSERT … SELECT generate_series: big enough to be cheap, small enough to show progress. */
export const CHUNK = 2_000_000;


export const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
export const secondsSince = (t: number) => ((performance.now() - t) / 1000).toFixed(1);

// ─── generation ────────────────────────────────────────────────────────────────────────────────

/** The secondary indexes of a table (not those behind a constraint): dropped while loading, built after. */
export async function secondaryIndexes(db: pg.ClientBase, table: string): Promise<{ name: string; def: string }[]> {
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
export async function withoutIndexes(db: pg.ClientBase, table: string, load: () => Promise<void>): Promise<void> {
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
export async function ensureMonthlyPartitions(db: pg.ClientBase, table: string, from: Date, to: Date): Promise<void> {
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

export interface Generator {
  /** Observations [from, to) of the whole series (patients round robin, oldest first). */
  observations: (from: number, to: number) => Promise<void>;
  /**
   * Audit records [from, to) of the whole series, linked into the chain. Record g has id g + 1 and
   * chain position g + 1 whatever order the ranges are generated in, so the newest records can be
   * made first and the older history after, with ids and positions still in time order.
   */
  audit: (from: number, to: number) => Promise<void>;
}

export async function generator(
  db: pg.ClientBase,
  size: GrowthSize,
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
        await db.query(
          `INSERT INTO audit_logs (id, "timestamp", user_id, ip_address, action, resource_type, resource_id, details,
                                   outcome, user_agent, request_id)
           OVERRIDING SYSTEM VALUE
           SELECT g + 1, $3::timestamptz + make_interval(secs => g * $4::float8), ($5::int[])[1 + g % cardinality($5::int[])],
                  '10.0.' || (g % 250) || '.' || (g % 7), (ARRAY['vitals.read','patient.read','alert.list','note.create',
                  'tracking.create','billing.patient','auth.sign_in','observation.read'])[1 + g % 8],
                  'patient', ($6::int + g % $7::int)::text, CASE WHEN g % 8 = 3 THEN '{"fields":["text"]}'::jsonb END,
                  CASE WHEN g % 97 = 0 THEN 'denied' ELSE 'success' END,
                  'Mozilla/5.0 (X11; Linux x86_64) Chrome/140', md5(g::text)
             FROM generate_series($1::bigint, $2::bigint - 1) g`,
          [a, b, start, auditStep, userIds, patientIds.first, patientIds.count],
        );
        // The chain's links in bulk, at the records' own place; their hashes are placeholders
        // (generating HMACs for millions of rows measures the sealer, not the reads timed here;
        // `audit:verify` does not pass on this database).
        await db.query(
          `INSERT INTO audit_chain (log_id, prev_hash, hash, position)
           SELECT g + 1, '\\x'::bytea, '\\x'::bytea, g + 1 FROM generate_series($1::bigint, $2::bigint - 1) g`,
          [a, b],
        );
      }
      // The portal's own records go on after the highest id generated so far: the sealer links
      // them after the highest position, so records of a later, older range never collide.
      await db.query(
        `SELECT setval(pg_get_serial_sequence('audit_logs', 'id'), greatest(${size.audit}, (SELECT max(id) FROM audit_logs)))`,
      );
    },
  };
}

/** One patient in OPEN_ALERTS_EVERY (by id) has an open alert (bench-growth.ts writes to the others). */
export const OPEN_ALERTS_EVERY = 5;

/** Alerts (open ones for a fifth of the patients, resolved ones over the year) and tracking time. */
export async function generateCareData(db: pg.ClientBase, size: GrowthSize, userIds: number[]): Promise<void> {
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
      WHERE p.id % $1::int = 0`,
    [OPEN_ALERTS_EVERY],
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
    [Math.ceil(size.months), userIds],
  );
}

/**
 * patient_observation_counts and the billing months' counted days as the (bypassed) triggers
 * would have kept them (the billing months by the schema's own rebuild, when it has them).
 */
export async function recount(db: pg.ClientBase): Promise<void> {
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

export async function tableSizes(db: pg.ClientBase): Promise<string> {
  const { rows } = await db.query<{ obs: string; audit: string; obs_n: string; audit_n: string; db: string }>(
    `SELECT (SELECT count(*) FROM observations)::text AS obs_n, (SELECT count(*) FROM audit_chain)::text AS audit_n,
            pg_size_pretty((SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c
                             WHERE c.relkind = 'r' AND (c.relname = 'observations' OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'observations'::regclass)))) AS obs,
            pg_size_pretty((SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c
                             WHERE c.relkind = 'r' AND (c.relname IN ('audit_logs', 'audit_chain') OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'audit_logs'::regclass)))) AS audit,
            pg_size_pretty(pg_database_size(current_database())) AS db`,
  );
  const r = rows[0]!;
  return `observations ${Number(r.obs_n).toLocaleString('en')} (${r.obs}), audit records ${Number(r.audit_n).toLocaleString('en')} (${r.audit} with the chain), database ${r.db}`;
}

