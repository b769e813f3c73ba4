import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { verifyAuditChain } from '../modules/audit/audit-chain.ts';
import { sealPending, type UnsealedReader } from '../modules/audit/sealer.ts';
import { runMigrations } from './migrate.ts';
import { grantRuntimeRole } from './runtime-role.ts';

/**
 * Observations and audit records become monthly partitions (1000). A database of the schema
 * before it, with readings and audit records over several months (one far in the past), alerts
 * and FHIR identifiers pointing at readings, and a sealed audit chain, is migrated: every row
 * keeps its id and values in its month's table, the ids go on, the references still hold and act
 * as the foreign keys did, and the chain verifies across the month tables.
 */
const key = randomBytes(32);
let db: TestDatabase;
let patientId: number;
let readingIds: number[];
const MONTHS = ['2026-07-15T10:00:00Z', '2026-08-15T10:00:00Z', '2026-09-15T10:00:00Z', '2019-03-02T10:00:00Z'];
let before: {
  observations: Record<string, unknown>[];
  audit: Record<string, unknown>[];
  counts: Record<string, unknown>[];
  refs: Record<string, unknown>[];
  identifiers: Record<string, unknown>[];
  observationSeq: number;
  auditSeq: number;
};

const q = (text: string, values: unknown[] = []) => db.ownerPool.query(text, values);
const observationRows = () =>
  q(`SELECT id, patient_id, device_id, created_at, source, measurement_index, irregular_heartbeat, source_id, received_at,
            kind, components, unit, systolic, diastolic, pulse FROM observations ORDER BY id`).then((r) => r.rows);
const auditRows = () => q(`SELECT * FROM audit_logs ORDER BY id`).then((r) => r.rows);

beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
  await runMigrations(db.ownerPool, { before: '1000' });
  const org = (await q(`INSERT INTO organizations (name) VALUES ('Months Clinic') RETURNING id`)).rows[0].id as number;
  patientId = (
    await q(
      `INSERT INTO patients (first_name, last_name, organization_id, enrolled_rpm) VALUES ('Many', 'Months', $1, true) RETURNING id`,
      [org],
    )
  ).rows[0].id;
  const device = (
    await q(
      `INSERT INTO devices (device_id, model, type, patient_id) VALUES ('CUFF-M', 'BP', 'cuff', $1) RETURNING id`,
      [patientId],
    )
  ).rows[0].id;
  for (const [i, at] of MONTHS.entries()) {
    await q(
      `INSERT INTO observations (patient_id, device_id, source, created_at, kind, components, unit)
       SELECT $1, $2, 'CUFF-M', $3::timestamptz + g * interval '1 hour', 'blood_pressure',
              jsonb_build_object('systolic', 110 + g, 'diastolic', 70 + g, 'pulse', 60 + g), 'mm[Hg]'
         FROM generate_series(0, $4::int) g`,
      [patientId, device, at, 5 + i],
    );
    await q(
      `INSERT INTO observations (patient_id, created_at, kind, components, unit) VALUES ($1, $2::timestamptz + interval '3 days', 'weight', '{"weight": 81.5}', 'kg')`,
      [patientId, at],
    );
    await q(
      `INSERT INTO audit_logs ("timestamp", user_id, ip_address, action, resource_type, resource_id, details, outcome, request_id)
       SELECT $1::timestamptz + g * interval '1 minute', NULL, '203.0.113.9', 'patient.read', 'patient', $2::text,
              jsonb_build_object('g', g), 'success', 'req-' || g
         FROM generate_series(0, 6) g`,
      [at, patientId],
    );
  }
  readingIds = (await q(`SELECT id FROM observations ORDER BY id`)).rows.map((r) => Number(r.id));
  const alert = (
    await q(
      `INSERT INTO alerts (patient_id, organization_id, rule, severity, severity_rank, last_values, last_vital_id, first_at, last_at)
       VALUES ($1, $2, 'bp_stage2', 'warning', 1, '{"systolic": 150, "diastolic": 95}', $3, now(), now()) RETURNING id`,
      [patientId, org, readingIds[1]],
    )
  ).rows[0].id;
  await q(`INSERT INTO alert_readings (alert_id, vital_id) VALUES ($1, $2), ($1, $3)`, [
    alert,
    readingIds[0],
    readingIds[1],
  ]);
  await q(
    `INSERT INTO observation_identifiers (observation_id, organization_id, system, value) VALUES ($1, $2, 'urn:ehr', 'obs-1')`,
    [readingIds[2], org],
  );
  // The chain is sealed before the migration, over records of four months, from the queue as it
  // was then (its entries got the record's time in migration 1080).
  const queueBefore1080: UnsealedReader = async (tx, limit) =>
    (
      await tx.query<{ log_id: number; row_hash: Buffer }>(
        `SELECT u.log_id, audit_row_hash(a) AS row_hash FROM audit_unsealed u JOIN audit_logs a ON a.id = u.log_id
          ORDER BY u.log_id LIMIT $1`,
        [limit],
      )
    ).rows;
  expect(await sealPending(db.ownerPool, key, queueBefore1080)).toBe(28);
  before = {
    observations: await observationRows(),
    audit: await auditRows(),
    counts: (await q(`SELECT * FROM patient_observation_counts ORDER BY patient_id, kind`)).rows,
    refs: (
      await q(
        `SELECT a.id, a.last_vital_id, ar.vital_id FROM alerts a JOIN alert_readings ar ON ar.alert_id = a.id ORDER BY 3`,
      )
    ).rows,
    identifiers: (await q(`SELECT observation_id, value FROM observation_identifiers`)).rows,
    observationSeq: Number((await q(`SELECT last_value FROM observations_id_seq`)).rows[0].last_value),
    auditSeq: Number((await q(`SELECT last_value FROM audit_logs_id_seq`)).rows[0].last_value),
  };
  expect(await runMigrations(db.ownerPool, { before: '1001' })).toEqual(['1000_partitions.sql']);
  // Then the migrations after it, as a server upgraded across several releases runs them: what
  // 1000 kept must survive them too.
  await runMigrations(db.ownerPool);
  await grantRuntimeRole(db.ownerPool, inject('postgresRuntimeUser').role);
}, 120_000);
afterAll(async () => db?.drop());

describe('1000: observations and audit records partitioned by month', () => {
  it('keeps every row with its id and values, each in its month’s table, and the ids go on', async () => {
    expect(await observationRows()).toEqual(before.observations);
    expect(await auditRows()).toEqual(before.audit);
    expect((await q(`SELECT * FROM patient_observation_counts ORDER BY patient_id, kind`)).rows).toEqual(before.counts);
    const kinds = await q(
      `SELECT c.relname, c.relkind FROM pg_class c WHERE c.relname IN ('observations', 'audit_logs') ORDER BY 1`,
    );
    expect(kinds.rows).toEqual([
      { relname: 'audit_logs', relkind: 'p' },
      { relname: 'observations', relkind: 'p' },
    ]);
    const homes = await q(
      `SELECT tableoid::regclass::text AS home, count(*)::int AS n FROM observations GROUP BY 1 ORDER BY 1`,
    );
    expect(homes.rows).toEqual([
      { home: 'partitions.observations_y2019m03', n: 10 },
      { home: 'partitions.observations_y2026m07', n: 7 },
      { home: 'partitions.observations_y2026m08', n: 8 },
      { home: 'partitions.observations_y2026m09', n: 9 },
    ]);
    const auditHomes = await q(`SELECT DISTINCT tableoid::regclass::text AS home FROM audit_logs ORDER BY 1`);
    expect(auditHomes.rows.map((r) => r.home)).toEqual([
      'partitions.audit_logs_y2019m03',
      'partitions.audit_logs_y2026m07',
      'partitions.audit_logs_y2026m08',
      'partitions.audit_logs_y2026m09',
    ]);
    // The months from the oldest row to three months ahead have their tables.
    const ahead = new Date();
    ahead.setUTCMonth(ahead.getUTCMonth() + 3, 1);
    const name = `observations_y${ahead.getUTCFullYear()}m${String(ahead.getUTCMonth() + 1).padStart(2, '0')}`;
    expect((await q(`SELECT to_regclass($1) IS NOT NULL AS there`, [`partitions.${name}`])).rows[0].there).toBe(true);

    // As the portal writes: through the parents, with ids after the old ones.
    const reading = await db.pool.query(
      `INSERT INTO observations (patient_id, kind, components, unit) VALUES ($1, 'weight', '{"weight": 80}', 'kg') RETURNING id`,
      [patientId],
    );
    expect(Number(reading.rows[0].id)).toBe(before.observationSeq + 1);
    const record = await db.pool.query(
      `INSERT INTO audit_logs (action, outcome) VALUES ('patient.read', 'success') RETURNING id`,
    );
    expect(Number(record.rows[0].id)).toBe(before.auditSeq + 1);
  });

  it('keeps the references to readings, which still act as foreign keys', async () => {
    expect(
      (
        await q(
          `SELECT a.id, a.last_vital_id, ar.vital_id FROM alerts a JOIN alert_readings ar ON ar.alert_id = a.id ORDER BY 3`,
        )
      ).rows,
    ).toEqual(before.refs);
    expect((await q(`SELECT observation_id, value FROM observation_identifiers`)).rows).toEqual(before.identifiers);
    // A reference to no reading is refused.
    const alert = before.refs[0]!.id;
    await expect(
      db.pool.query(`INSERT INTO alert_readings (alert_id, vital_id) VALUES ($1, 999999)`, [alert]),
    ).rejects.toMatchObject({
      code: '23503',
    });
    await expect(
      db.pool.query(`UPDATE alerts SET last_vital_id = 999999 WHERE id = $1`, [alert]),
    ).rejects.toMatchObject({ code: '23503' });
    // Deleting readings takes their references with them (cascade, set null), and the counts follow.
    await db.pool.query(`DELETE FROM observations WHERE id = ANY($1::bigint[])`, [readingIds.slice(0, 3)]);
    expect((await q(`SELECT count(*)::int AS n FROM alert_readings`)).rows[0].n).toBe(0);
    expect((await q(`SELECT last_vital_id FROM alerts WHERE id = $1`, [alert])).rows[0].last_vital_id).toBeNull();
    expect((await q(`SELECT count(*)::int AS n FROM observation_identifiers`)).rows[0].n).toBe(0);
    const bp = (
      await q(`SELECT n FROM patient_observation_counts WHERE patient_id = $1 AND kind = 'blood_pressure'`, [patientId])
    ).rows[0];
    const beforeBp = before.counts.find((c) => c.kind === 'blood_pressure')!;
    expect(Number(bp.n)).toBe(Number(beforeBp.n) - 3);
  });

  it('verifies the audit chain sealed before the migration across the month tables, and goes on sealing', async () => {
    expect(await sealPending(db.pool, key)).toBe(1);
    const report = await verifyAuditChain(db.pool, key);
    expect(report.problems).toEqual([]);
    expect(report.checked).toBe(29);
    // Altering a record in an old month's table is still caught.
    const c = await db.ownerPool.connect();
    try {
      await c.query('BEGIN');
      await c.query(`SET LOCAL session_replication_role = replica`);
      await c.query(`UPDATE audit_logs SET details = '{"g": 99}' WHERE id = 1`);
      await c.query('COMMIT');
    } finally {
      c.release();
    }
    expect((await verifyAuditChain(db.pool, key)).problems.map((p) => `${p.kind}:${p.logId}`)).toEqual(['altered:1']);
  });
});
