import type { AlertRule } from '@rpm/contracts';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { buildOrganization, buildPatient, buildReading } from '../../../test/support/factories.ts';
import { raiseAlert } from '../alerts/alerts.repository.ts';
import { monthsBefore, runPartitionMaintenance } from './partitions.service.ts';

/**
 * The references to a reading by id (an alert's last reading, the readings an alert counts) on
 * observations partitioned by month (migrations 1000, 1021): a reading in an old month is found by
 * its id and measured time in its own month table alone, a reference to no reading is refused
 * whatever time the referencing row carries, and a reading retention takes away removes its
 * references as a foreign key's cascade would.
 */
let db: TestDatabase;
let organizationId: number;
let patientId: number;
beforeAll(async () => {
  db = await createTestDatabase();
  organizationId = (await buildOrganization(db.pool, { name: 'References Clinic' })).id;
  patientId = await buildPatient(db.pool, { organizationId });
  // Month tables for the past months the readings below are dated in, as the migration makes them
  // for old rows (a reading of a month without one waits in the default partition).
  for (const months of [5, 6, 7, 30, 40]) {
    await db.ownerPool.query(`SELECT rpm_partition_create('observations', $1::date)`, [
      monthsBefore(new Date(), months),
    ]);
  }
});
afterAll(async () => db?.drop());

const owner = (text: string, values: unknown[] = []) => db.ownerPool.query(text, values);
/** Noon UTC on the 10th of the month `months` before this one. */
const inMonth = (months: number) => new Date(`${monthsBefore(new Date(), months).slice(0, 8)}10T12:00:00Z`);
const monthTable = (at: Date) => `observations_y${at.toISOString().slice(0, 4)}m${at.toISOString().slice(5, 7)}`;

const raise = (on: pg.PoolClient | pg.Pool, vitalId: number, at: Date, rule: AlertRule = 'bp_stage2') =>
  raiseAlert(on, {
    patientId,
    organizationId,
    rule,
    severity: 'warning',
    severityRank: 1,
    at,
    values: { systolic: 150, diastolic: 95, pulse: null, measured_at: at.toISOString() },
    vitalId,
  });

/** Index scans of each month table of observations in the current transaction of `c` (those with any). */
async function monthsProbed(c: pg.ClientBase): Promise<Record<string, number>> {
  const { rows } = await c.query<{ relname: string; n: string }>(
    `SELECT relname, idx_scan AS n FROM pg_stat_xact_user_tables
      WHERE schemaname = 'partitions' AND relname LIKE 'observations%' AND idx_scan > 0`,
  );
  return Object.fromEntries(rows.map((r) => [r.relname, Number(r.n)]));
}

describe('references to readings across month tables', () => {
  it('finds a reading of an old month in its own month table when the alert carries its time', async () => {
    const at = inMonth(5);
    const reading = await buildReading(db.pool, patientId, { systolic: 150, diastolic: 95, at });
    const c = await db.ownerPool.connect();
    try {
      await c.query('BEGIN');
      const alert = await raise(c, reading, at);
      expect(alert.created).toBe(true);
      // The alert's last reading and its alert_readings row: each one probe of that month's table.
      expect(await monthsProbed(c)).toEqual({ [monthTable(at)]: 2 });
      await c.query('ROLLBACK');
    } finally {
      c.release();
    }
  });

  it('accepts a reading whose time the referencing row does not carry, and refuses one that does not exist', async () => {
    const at = inMonth(7);
    const [reading, newer] = [
      await buildReading(db.pool, patientId, { systolic: 152, diastolic: 96, at }),
      await buildReading(db.pool, patientId, { systolic: 153, diastolic: 97, at: inMonth(6) }),
    ];
    const alert = await raise(db.pool, newer, inMonth(6), 'bp_crisis');
    // An older reading counted on the open alert: its alert_readings row has no time to go by.
    await raise(db.pool, reading, at, 'bp_crisis');
    const linked = await owner(`SELECT vital_id FROM alert_readings WHERE alert_id = $1 ORDER BY vital_id`, [alert.id]);
    expect(linked.rows.map((r) => Number(r.vital_id))).toEqual([reading, newer].sort((a, b) => a - b));
    expect(
      Number((await owner(`SELECT last_vital_id FROM alerts WHERE id = $1`, [alert.id])).rows[0].last_vital_id),
    ).toBe(newer);
    // Pointing at another stored reading while last_at still names the old one's time: found by id.
    await db.pool.query(`UPDATE alerts SET last_vital_id = $2 WHERE id = $1`, [alert.id, reading]);

    const missing = 9_000_000_000;
    const refused = { code: '23503' };
    // With a time that is a real reading's (the alert's last_at), an id of no reading is refused.
    await expect(
      db.pool.query(`UPDATE alerts SET last_vital_id = $2 WHERE id = $1`, [alert.id, missing]),
    ).rejects.toMatchObject(refused);
    await expect(raise(db.pool, missing, at, 'bp_low_severe')).rejects.toMatchObject(refused);
    await expect(
      db.pool.query(`UPDATE alert_readings SET vital_id = $2 WHERE alert_id = $1 AND vital_id = $3`, [
        alert.id,
        missing,
        reading,
      ]),
    ).rejects.toMatchObject(refused);
    expect((await owner(`SELECT count(*)::int AS n FROM alerts WHERE rule = 'bp_low_severe'`)).rows[0].n).toBe(0);
  });

  it('removes the references of readings that retention deletes, and of a month table it drops', async () => {
    await buildOrganization(db.pool, { name: 'Keeps Its Readings' });
    const at = inMonth(30);
    const expired = await buildReading(db.ownerPool, patientId, { systolic: 151, diastolic: 95, at });
    const alert = await raise(db.pool, expired, at, 'bp_low');
    const kept = await buildReading(db.pool, patientId, { systolic: 150, diastolic: 94 });
    await raise(db.pool, kept, new Date(), 'irregular_heartbeat');
    const links = async () =>
      (
        await owner(
          `SELECT vital_id FROM alert_readings ar JOIN alerts a ON a.id = ar.alert_id WHERE a.patient_id = $1`,
          [patientId],
        )
      ).rows
        .map((r) => Number(r.vital_id))
        .sort((a, b) => a - b);
    expect(await links()).toContain(expired);

    // This organization's retention passed for the reading; another organization keeps the month.
    await owner(`UPDATE organizations SET observation_retention_months = 24 WHERE id = $1`, [organizationId]);
    await owner(`UPDATE organizations SET observation_retention_months = NULL WHERE id <> $1`, [organizationId]);
    const run = await runPartitionMaintenance(db.pool, { auditRetentionMonths: undefined }, 'job:references-1');
    expect(run.observations.deleted).toContainEqual(expect.objectContaining({ organization_id: organizationId }));
    expect(await links()).not.toContain(expired);
    expect(await links()).toContain(kept);
    expect(
      (await owner(`SELECT last_vital_id FROM alerts WHERE id = $1`, [alert.id])).rows[0].last_vital_id,
    ).toBeNull();

    // A month every organization lets go is dropped whole, with the references into it.
    const older = inMonth(40);
    const [a, b] = [
      await buildReading(db.ownerPool, patientId, { systolic: 151, diastolic: 95, at: older }),
      await buildReading(db.ownerPool, patientId, {
        systolic: 152,
        diastolic: 95,
        at: new Date(older.getTime() + 3_600_000),
      }),
    ];
    // Stored after the retention run above, they wait for the next one; an open alert counts them.
    await owner(`UPDATE organizations SET observation_retention_months = NULL`);
    const dropped = await raise(db.pool, a, older, 'pulse_high');
    await raise(db.pool, b, new Date(older.getTime() + 3_600_000), 'pulse_high');
    expect(await links()).toEqual(expect.arrayContaining([a, b]));
    await owner(`UPDATE organizations SET observation_retention_months = 24`);
    const drop = await runPartitionMaintenance(db.pool, { auditRetentionMonths: undefined }, 'job:references-2');
    expect(drop.observations.dropped).toContainEqual({ month: monthsBefore(new Date(), 40).slice(0, 7), rows: 2 });
    expect((await links()).filter((id) => id === a || id === b)).toEqual([]);
    expect(
      (await owner(`SELECT last_vital_id FROM alerts WHERE id = $1`, [dropped.id])).rows[0].last_vital_id,
    ).toBeNull();
    await owner(`UPDATE organizations SET observation_retention_months = NULL`);
  });
});
