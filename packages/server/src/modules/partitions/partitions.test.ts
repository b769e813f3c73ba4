import { randomBytes } from 'node:crypto';
import {
  AUDIT_MIN_RETENTION_YEARS,
  AuditActions,
  OBSERVATION_RETENTION_MONTHS_MAX,
  OBSERVATION_RETENTION_MONTHS_MIN,
  PARTITION_MONTHS_AHEAD,
  RETENTION_REFUSED_SQLSTATE,
} from '@rpm/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import {
  buildAuditRecords,
  buildOrganization,
  buildPatient,
  buildReadings,
  removeReadings,
  setObservationRetention,
} from '../../../test/support/factories.ts';
import { startTestServer } from '../../../test/support/http.ts';
import { insertAuditLog } from '../../kernel/audit-writer.repository.ts';
import { verifyAuditChain } from '../audit/audit-chain.ts';
import { sealPending } from '../audit/sealer.ts';
import { PARTITION_MAINTENANCE_QUEUE, startPartitionJobs, startRunKey, type PartitionJobs } from './partitions.jobs.ts';
import { monthsBefore, runPartitionMaintenance } from './partitions.service.ts';

/**
 * The monthly partitions' maintenance (migration 1000, this module), against a real PostgreSQL as
 * the portal's runtime role: month tables made ahead by one job when two instances start, drops
 * of expired months audited in their transaction, audit months younger than six years and
 * readings inside an organization's retention refused by the database itself, no DROP or DETACH
 * for the runtime role, and the audit chain verifying across months and after a drop.
 */
const key = randomBytes(32);
const log = pino({ level: 'silent' });
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

const owner = (text: string, values: unknown[] = []) => db.ownerPool.query(text, values);
/** Midnight UTC `days` after a month's first day ('YYYY-MM-DD'). */
const dayAfter = (month: string, days: number) =>
  new Date(Date.parse(`${month}T00:00:00Z`) + days * 24 * 60 * 60 * 1000);
const tableName = (base: string, month: string) => `${base}_y${month.slice(0, 4)}m${month.slice(5, 7)}`;
const exists = async (base: string, month: string) =>
  (await owner(`SELECT to_regclass($1) IS NOT NULL AS there`, [`partitions.${tableName(base, month)}`])).rows[0]
    .there as boolean;
/** A month table for a past month, as the migration makes them for old rows (owner only). */
const pastMonth = async (base: string, month: string) => {
  await owner(`SELECT rpm_partition_create($1, $2::date)`, [base, month]);
};
const refusal = { code: RETENTION_REFUSED_SQLSTATE };

/** Takes away the furthest month tables made ahead (empty), to see the maintenance make them again. */
async function dropFurthestAhead(on: TestDatabase, bases: string[]): Promise<string> {
  const furthest = monthsBefore(new Date(), -PARTITION_MONTHS_AHEAD);
  for (const base of bases) {
    await on.ownerPool.query(`ALTER TABLE ${base} DETACH PARTITION partitions.${tableName(base, furthest)}`);
    await on.ownerPool.query(`DROP TABLE partitions.${tableName(base, furthest)}`);
  }
  return furthest;
}

/** Waits for the maintenance to make the table, then checks that one run, at start, did. */
async function expectOneRunAtStart(on: TestDatabase, base: string, month: string, runKey: string): Promise<void> {
  const there = async () =>
    (await on.ownerPool.query(`SELECT to_regclass($1) IS NOT NULL AS t`, [`partitions.${tableName(base, month)}`]))
      .rows[0].t as boolean;
  const started = Date.now();
  while (!(await there()) && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 100));
  expect(await there()).toBe(true);
  // Let a second run, if one had been queued, be taken.
  await new Promise((r) => setTimeout(r, 2_000));
  const jobs = await on.pool.query(`SELECT state, singleton_key FROM pgboss.job WHERE name = $1`, [
    PARTITION_MAINTENANCE_QUEUE,
  ]);
  expect(jobs.rows).toEqual([{ state: 'completed', singleton_key: runKey }]);
}

describe('partition maintenance', () => {
  it('creates the month tables ahead, once, when two instances start', async () => {
    const furthest = await dropFurthestAhead(db, ['observations', 'audit_logs']);
    expect(await exists('observations', furthest)).toBe(false);

    const runKey = startRunKey();
    const instances: PartitionJobs[] = [];
    try {
      // Both start (and each asks for its run at start) at the same time.
      instances.push(
        ...(await Promise.all(
          [0, 1].map(() =>
            startPartitionJobs({ pool: db.pool, log, auditRetentionMonths: undefined, pollingIntervalSeconds: 0.5 }),
          ),
        )),
      );
      await expectOneRunAtStart(db, 'audit_logs', furthest, runKey);
      expect(await exists('observations', furthest)).toBe(true);
      // A later request under the same key queues nothing; under a new one, one run.
      const again = await Promise.all(instances.map((j) => j.requestMaintenance('daily-test')));
      expect(again.filter((id) => id !== null)).toHaveLength(1);
    } finally {
      for (const j of instances) await j.stop();
    }
  }, 60_000);

  it('keeps readings inside a retention, deletes an organization’s expired ones, and drops a month every organization lets go, audited', async () => {
    const keeps = (await buildOrganization(db.pool, { name: 'Keeps Everything' })).id;
    const expires = (await buildOrganization(db.pool, { name: 'Two Years' })).id;
    const kept = await buildPatient(db.pool, { organizationId: keeps });
    const gone = await buildPatient(db.pool, { organizationId: expires });
    const old = monthsBefore(new Date(), 36);
    await pastMonth('observations', old);
    for (const patient of [kept, gone]) {
      await buildReadings(db.ownerPool, patient, [
        ...[0, 1, 2].map((g) => ({ kind: 'weight', components: { weight: 80 }, unit: 'kg', at: dayAfter(old, g) })),
        { kind: 'weight', components: { weight: 81 }, unit: 'kg' },
      ]);
    }
    await setObservationRetention(db.ownerPool, { organizationId: expires }, 24);
    const readings = async (patient: number) =>
      (await db.pool.query(`SELECT count(*)::int AS n FROM observations WHERE patient_id = $1`, [patient])).rows[0].n;
    const counted = async (patient: number) =>
      Number(
        (await db.pool.query(`SELECT n FROM patient_observation_counts WHERE patient_id = $1`, [patient])).rows[0].n,
      );

    // One organization keeps its readings: the month stays, whoever asks.
    await expect(db.pool.query(`SELECT rpm_observations_drop_month($1::date, 'test')`, [old])).rejects.toMatchObject(
      refusal,
    );
    const first = await runPartitionMaintenance(db.pool, { auditRetentionMonths: undefined }, 'job:retention-1');
    expect(first.observations.dropped).toEqual([]);
    expect(first.observations.deleted).toEqual([{ organization_id: expires, deleted: 3 }]);
    expect(await exists('observations', old)).toBe(true);
    expect([await readings(kept), await readings(gone)]).toEqual([4, 1]);
    expect([await counted(kept), await counted(gone)]).toEqual([4, 1]);
    const deletion = await db.pool.query(
      `SELECT user_id, ip_address, request_id, resource_type, details FROM audit_logs WHERE action = 'observation.retention'`,
    );
    expect(deletion.rows).toEqual([
      {
        user_id: null,
        ip_address: 'system',
        request_id: 'job:retention-1',
        resource_type: 'partition',
        details: { organization_id: expires, deleted: 3, retention_months: 24 },
      },
    ]);

    // Every organization lets the month go: its table is dropped whole, with its references and counts.
    await setObservationRetention(db.ownerPool, 'every organization', 24);
    const second = await runPartitionMaintenance(db.pool, { auditRetentionMonths: undefined }, 'job:retention-2');
    expect(second.observations.dropped).toEqual([{ month: old.slice(0, 7), rows: 3 }]);
    expect(await exists('observations', old)).toBe(false);
    expect([await readings(kept), await counted(kept)]).toEqual([1, 1]);
    const drop = await db.pool.query(
      `SELECT request_id, resource_id, details FROM audit_logs WHERE action = 'partition.drop'`,
    );
    expect(drop.rows).toEqual([
      {
        request_id: 'job:retention-2',
        resource_id: `observations/${old.slice(0, 7)}`,
        details: expect.objectContaining({ table: 'observations', month: old.slice(0, 7), rows: 3 }),
      },
    ]);
    await setObservationRetention(db.ownerPool, 'every organization', null);
  });

  it('refuses audit months younger than six years, drops an older one audited, and the chain verifies across months before and after', async () => {
    const ancient = monthsBefore(new Date(), AUDIT_MIN_RETENTION_YEARS * 12 + 13);
    const young = monthsBefore(new Date(), AUDIT_MIN_RETENTION_YEARS * 12 - 1);
    const recent = [monthsBefore(new Date(), 2), monthsBefore(new Date(), 1)];
    for (const m of [ancient, young, ...recent]) await pastMonth('audit_logs', m);
    for (const m of [ancient, young, ...recent]) {
      await buildAuditRecords(db.ownerPool, 4, (n) => ({
        action: 'patient.read',
        details: { g: n - 1 },
        at: new Date(Date.parse(`${m}T00:00:00Z`) + (n - 1) * 60 * 60 * 1000),
      }));
    }
    for (let i = 0; i < 3; i++)
      await insertAuditLog(db.pool, { action: 'patient.read', outcome: 'success', details: { now: i } });
    await sealPending(db.pool, key);
    const homes = await db.pool.query(`SELECT count(DISTINCT tableoid)::int AS n FROM audit_logs`);
    expect(homes.rows[0].n).toBeGreaterThanOrEqual(5);
    const before = await verifyAuditChain(db.pool, key);
    expect(before.problems).toEqual([]);

    // Younger than six years: refused by the database, whatever the caller or its settings.
    for (const m of [young, recent[0], monthsBefore(new Date(), 0)]) {
      await expect(db.pool.query(`SELECT rpm_audit_drop_month($1::date, 'test')`, [m])).rejects.toMatchObject(refusal);
    }
    expect(await exists('audit_logs', young)).toBe(true);

    const run = await runPartitionMaintenance(
      db.pool,
      { auditRetentionMonths: AUDIT_MIN_RETENTION_YEARS * 12 },
      'job:audit-1',
    );
    expect(run.auditMonthsDropped).toEqual([{ month: ancient, rows: 4 }]);
    expect(await exists('audit_logs', ancient)).toBe(false);
    expect(await exists('audit_logs', young)).toBe(true);
    const drop = await db.pool.query(
      `SELECT user_id, ip_address, request_id, details FROM audit_logs WHERE action = 'partition.drop' AND resource_id LIKE 'audit_logs/%'`,
    );
    expect(drop.rows).toEqual([
      {
        user_id: null,
        ip_address: 'system',
        request_id: 'job:audit-1',
        details: expect.objectContaining({ table: 'audit_logs', month: ancient.slice(0, 7), rows: 4 }),
      },
    ]);

    // The dropped month's links still chain; its records are reported as expired, not deleted.
    await sealPending(db.pool, key);
    const after = await verifyAuditChain(db.pool, key);
    expect(after.problems).toEqual([]);
    expect(after.expired).toBe(4);
    expect(after.checked).toBe(before.checked + 1);
    // A record removed otherwise is still a problem.
    const c = await db.ownerPool.connect();
    try {
      await c.query('BEGIN');
      await c.query(`SET LOCAL session_replication_role = replica`);
      const victim = await c.query(
        `DELETE FROM audit_logs WHERE id = (SELECT min(id) FROM audit_logs WHERE "timestamp" >= $1::date AND "timestamp" < $1::date + interval '1 month')`,
        [recent[1]],
      );
      expect(victim.rowCount).toBe(1);
      await c.query('COMMIT');
    } finally {
      c.release();
    }
    expect((await verifyAuditChain(db.pool, key)).problems.map((p) => p.kind)).toEqual(['deleted']);
  });

  it('stores a reading dated where no month table is, and leaves that month to an operator rather than fail', async () => {
    const furthest = await dropFurthestAhead(db, ['observations']);
    const org = (await buildOrganization(db.pool)).id;
    const patient = await buildPatient(db.pool, { organizationId: org });
    await buildReadings(db.pool, patient, [
      { kind: 'weight', components: { weight: 70 }, unit: 'kg', at: dayAfter(furthest, 2) },
    ]);
    const home = await owner(`SELECT tableoid::regclass::text AS t FROM observations WHERE patient_id = $1`, [patient]);
    expect(home.rows).toEqual([{ t: 'partitions.observations_default' }]);
    const run = await runPartitionMaintenance(db.pool, { auditRetentionMonths: undefined }, 'job:default');
    expect(run.leftInDefault).toEqual([tableName('observations', furthest)]);
    expect(run.created).toEqual([]);
    expect(await exists('observations', furthest)).toBe(false);
    await removeReadings(db.pool, { patientId: patient });
    expect(
      (await runPartitionMaintenance(db.pool, { auditRetentionMonths: undefined }, 'job:default-2')).created,
    ).toEqual([tableName('observations', furthest)]);
  });

  it('leaves the runtime role no DROP, DETACH or direct access to a month table, only the owner’s functions', async () => {
    const month = monthsBefore(new Date(), 0);
    const statements = [
      `ALTER TABLE audit_logs DETACH PARTITION partitions.${tableName('audit_logs', month)}`,
      `ALTER TABLE observations DETACH PARTITION partitions.${tableName('observations', month)}`,
      `DROP TABLE partitions.${tableName('audit_logs', month)}`,
      `DROP TABLE partitions.observations_default`,
      `TRUNCATE partitions.${tableName('audit_logs', month)}`,
      `DELETE FROM partitions.${tableName('audit_logs', month)}`,
      `SELECT count(*) FROM partitions.${tableName('observations', month)}`,
      `CREATE TABLE partitions.audit_logs_y1990m01 PARTITION OF audit_logs FOR VALUES FROM ('1990-01-01') TO ('1990-02-01')`,
      `CREATE TABLE public.audit_logs_y1990m01 PARTITION OF audit_logs FOR VALUES FROM ('1990-01-01') TO ('1990-02-01')`,
      `SELECT rpm_partition_drop('audit_logs', '${month}'::date, 'x')`,
      `SELECT rpm_partition_create('audit_logs', '1990-01-01'::date)`,
    ];
    for (const text of statements) {
      await expect(db.pool.query(text), text).rejects.toMatchObject({ code: expect.stringMatching(/^(42501|42P17)$/) });
    }
    expect(await exists('audit_logs', month)).toBe(true);
  });

  it('writes only audit actions of the contracts, and holds the six years the contracts say', async () => {
    for (const action of ['partition.drop', 'observation.retention']) expect(AuditActions).toContain(action);
    const { rows } = await owner(`SELECT pg_get_functiondef('rpm_audit_drop_month(date, text)'::regprocedure) AS def`);
    expect(rows[0].def).toContain(`now() - interval '${AUDIT_MIN_RETENTION_YEARS} years'`);
    const check = await owner(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'organizations_observation_retention_months_check'`,
    );
    expect(check.rows[0].def).toContain(
      `>= ${OBSERVATION_RETENTION_MONTHS_MIN}) AND (observation_retention_months <= ${OBSERVATION_RETENTION_MONTHS_MAX}`,
    );
  });

  it('runs once at start, by one of two app instances on one database', async () => {
    const own = await createTestDatabase();
    const furthest = await dropFurthestAhead(own, ['observations']);
    const runKey = startRunKey();
    const servers = await Promise.all([startTestServer({}, own), startTestServer({}, own)]);
    try {
      await expectOneRunAtStart(own, 'observations', furthest, runKey);
      const ran = servers.map(
        (s) =>
          s
            .logs()
            .split('\n')
            .filter((l) => l.includes('partition maintenance done')).length,
      );
      expect(ran.sort()).toEqual([0, 1]);
    } finally {
      // Both share the database: the second one's close drops it.
      await servers[0]!.app.close();
      await servers[0]!.identity.close();
      await servers[1]!.close();
    }
  }, 90_000);
});
