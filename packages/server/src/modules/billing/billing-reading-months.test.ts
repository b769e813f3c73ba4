import { MEASUREMENT_KINDS } from '@rpm/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import {
  assignDevice,
  buildDevice,
  buildOrganization,
  buildPatient,
  buildReadings,
  buildTrackingEntry,
  setActiveSpans,
} from '../../../test/support/factories.ts';
import { runMigrations } from '../../db/migrate.ts';
import { createPool } from '../../db/pool.ts';
import { billingInputs } from './billing.repository.ts';

/**
 * billing_reading_months is kept by triggers as readings, activity and time zones change; the
 * billing queries trust it instead of the readings. Each case changes what it depends on and
 * compares the kept days with the days counted again from the readings themselves.
 */
const physiologic = MEASUREMENT_KINDS.filter((k) => k.physiologic).map((k) => k.kind);
const october = { monthStart: '2026-10-01', monthEnd: '2026-10-31' };
let db: TestDatabase;
let organizationId: number;

beforeAll(async () => {
  db = await createTestDatabase();
  const clinic = await buildOrganization(db.pool, { timeZone: 'America/New_York' });
  organizationId = clinic.id;
});
afterAll(async () => db?.drop());

type Day = { day: string; readings: number };

/** The kept days of a patient: the day of each month row's non-zero entry. */
async function kept(pool: pg.Pool, patientId: number): Promise<Day[]> {
  const { rows } = await pool.query<Day>(
    `SELECT to_char(b.month + u.i::int - 1, 'YYYY-MM-DD') AS day, u.n AS readings
       FROM billing_reading_months b, unnest(b.readings) WITH ORDINALITY AS u(n, i)
      WHERE b.patient_id = $1 AND u.n > 0 ORDER BY 1`,
    [patientId],
  );
  return rows;
}

/** The same days counted from the readings: device readings of a physiologic kind while active. */
async function counted(pool: pg.Pool, patientId: number): Promise<Day[]> {
  const { rows } = await pool.query<Day>(
    `SELECT to_char((v.created_at AT TIME ZONE o.time_zone)::date, 'YYYY-MM-DD') AS day, count(*)::int AS readings
       FROM observations v JOIN patients p ON p.id = v.patient_id JOIN organizations o ON o.id = p.organization_id
      WHERE v.patient_id = $1 AND v.source <> 'manual' AND v.kind = ANY($2::text[])
        AND rpm_patient_active_at(v.patient_id, v.created_at)
      GROUP BY 1 ORDER BY 1`,
    [patientId, physiologic],
  );
  return rows;
}

/** The patient's kept first two days (billing_reading_starts), none without any. */
async function starts(pool: pg.Pool, patientId: number): Promise<string[]> {
  const { rows } = await pool.query<{ first_day: string; second_day: string | null }>(
    `SELECT to_char(first_day, 'YYYY-MM-DD') AS first_day, to_char(second_day, 'YYYY-MM-DD') AS second_day
       FROM billing_reading_starts WHERE patient_id = $1`,
    [patientId],
  );
  return rows.flatMap((r) => [r.first_day, ...(r.second_day === null ? [] : [r.second_day])]);
}

async function expectInStep(patientId: number, days: string[]): Promise<void> {
  const rows = await kept(db.pool, patientId);
  expect(rows).toEqual(await counted(db.pool, patientId));
  expect(rows.map((r) => r.day)).toEqual(days);
  expect(await starts(db.pool, patientId)).toEqual(days.slice(0, 2));
}

const patient = (lastName = 'Months') =>
  buildPatient(db.pool, { firstName: 'K', lastName, organizationId, enrolledRpm: true });
const cuff = (at: string, source = 'CUFF-M') => ({ at, source, systolic: 120, diastolic: 80 });

describe('the kept days with device data', () => {
  it('put a reading at the month boundary on the clinic day, in the clinic month', async () => {
    const id = await patient();
    // 23:30 on October 31 in New York; 00:30 on November 1 there.
    await buildReadings(db.pool, id, [cuff('2026-11-01T03:30:00Z'), cuff('2026-11-01T04:30:00Z')]);
    await expectInStep(id, ['2026-10-31', '2026-11-01']);
    const [row] = await billingInputs(db.pool, { ...october, organizationId, patientId: id });
    expect(row).toMatchObject({ first_day: '2026-10-31', last_day: '2026-10-31', period_days: { 0: 1 } });
  });

  it('count manual readings and kinds that are not physiologic nowhere', async () => {
    const id = await patient();
    await buildReadings(db.pool, id, [
      { ...cuff('2026-10-03T15:00:00Z'), source: 'manual' },
      { at: '2026-10-04T15:00:00Z', source: 'DEV-X', kind: 'steps', components: { steps: 1000 }, unit: '1' },
      cuff('2026-10-05T15:00:00Z'),
    ]);
    await expectInStep(id, ['2026-10-05']);
  });

  it('follow readings deleted and moved, and leave no month without a day', async () => {
    const id = await patient();
    const [a, b, c] = await buildReadings(db.pool, id, [
      cuff('2026-09-20T15:00:00Z'),
      cuff('2026-10-02T15:00:00Z'),
      cuff('2026-10-02T18:00:00Z'),
    ]);
    await expectInStep(id, ['2026-09-20', '2026-10-02']);
    await db.pool.query('DELETE FROM observations WHERE id = $1', [b]);
    await expectInStep(id, ['2026-09-20', '2026-10-02']);
    await db.pool.query('DELETE FROM observations WHERE id = $1', [a]);
    await expectInStep(id, ['2026-10-02']);
    const months = await db.pool.query('SELECT month FROM billing_reading_months WHERE patient_id = $1', [id]);
    expect(months.rows).toHaveLength(1);
    await db.pool.query(`UPDATE observations SET created_at = '2026-10-09T15:00:00Z' WHERE id = $1`, [c]);
    await expectInStep(id, ['2026-10-09']);
    const [row] = await billingInputs(db.pool, { ...october, organizationId, patientId: id });
    expect(row).toMatchObject({ first_day: '2026-10-09', last_day: '2026-10-09' });
  });

  it('leave out the readings of a month table dropped by retention', async () => {
    const id = await patient();
    await db.ownerPool.query(`SELECT rpm_partition_create('observations', '2019-03-01')`);
    await buildReadings(db.pool, id, [cuff('2019-03-10T15:00:00Z'), cuff('2026-10-06T15:00:00Z')]);
    await expectInStep(id, ['2019-03-10', '2026-10-06']);
    await db.ownerPool.query(`SELECT rpm_partition_drop('observations', '2019-03-01', 'test')`);
    await expectInStep(id, ['2026-10-06']);
  });

  it('follow pauses and resumptions, also moved afterwards', async () => {
    const id = await patient();
    await buildReadings(
      db.pool,
      id,
      [3, 8, 12, 20, 25].map((d) => cuff(`2026-10-${String(d).padStart(2, '0')}T15:00:00Z`)),
    );
    await expectInStep(id, ['2026-10-03', '2026-10-08', '2026-10-12', '2026-10-20', '2026-10-25']);
    await setActiveSpans(db.ownerPool, id, [
      ['-infinity', '2026-10-10T12:00:00Z'],
      ['2026-10-22T12:00:00Z', null],
    ]);
    await expectInStep(id, ['2026-10-03', '2026-10-08', '2026-10-25']);
    await db.ownerPool.query(
      `UPDATE patient_active_spans SET active_from = '2026-10-15T12:00:00Z' WHERE patient_id = $1 AND active_to IS NULL`,
      [id],
    );
    await expectInStep(id, ['2026-10-03', '2026-10-08', '2026-10-20', '2026-10-25']);
    // Paused now through the app's own path: readings measured from now on no longer count.
    await db.pool.query(`UPDATE patients SET enrollment_status = 'Paused' WHERE id = $1`, [id]);
    await buildReadings(db.pool, id, [cuff('2099-01-05T15:00:00Z')]);
    await expectInStep(id, ['2026-10-03', '2026-10-08', '2026-10-20', '2026-10-25']);
    await db.pool.query(`UPDATE patients SET enrollment_status = 'Active' WHERE id = $1`, [id]);
    await expectInStep(id, ['2026-10-03', '2026-10-08', '2026-10-20', '2026-10-25', '2099-01-05']);
  });

  it('move with the organization time zone and with the patient organization', async () => {
    const org = (await buildOrganization(db.pool, { timeZone: 'America/New_York' })).id;
    const utc = (await buildOrganization(db.pool, { timeZone: 'UTC' })).id;
    const id = await buildPatient(db.pool, {
      firstName: 'Z',
      lastName: 'Zone',
      organizationId: org,
      enrolledRpm: true,
    });
    await buildReadings(db.pool, id, [cuff('2026-10-05T02:00:00Z')]);
    await expectInStep(id, ['2026-10-04']);
    await db.pool.query(`UPDATE organizations SET time_zone = 'Asia/Tokyo' WHERE id = $1`, [org]);
    await expectInStep(id, ['2026-10-05']);
    await db.pool.query(`UPDATE organizations SET time_zone = 'Pacific/Honolulu' WHERE id = $1`, [org]);
    await expectInStep(id, ['2026-10-04']);
    await db.pool.query(`UPDATE patients SET organization_id = $2 WHERE id = $1`, [id, utc]);
    await expectInStep(id, ['2026-10-05']);
  });

  it('keep a patient device readings after the device is unassigned', async () => {
    const id = await patient();
    const device = await buildDevice(db.pool, { patientId: id, assignedFrom: '2026-09-01T00:00:00Z' });
    await buildReadings(db.pool, id, [cuff('2026-10-07T15:00:00Z', 'DEV-U')]);
    await db.pool.query(`UPDATE devices SET patient_id = NULL WHERE id = $1`, [device]);
    await expectInStep(id, ['2026-10-07']);
    const other = await patient('Other');
    await assignDevice(db.pool, device, other);
    await expectInStep(id, ['2026-10-07']);
    await expectInStep(other, []);
  });

  it('count a statement of thousands of readings in time linear in them, after the connection planned for one', async () => {
    // One patient's readings of every other day over forty years, in one statement: 7,300 days in
    // 480 months. The trigger's plan is made for the connection's first statement (PL/pgSQL keeps
    // it), here one reading, as a webhook's connection plans for its first small call. Planned for
    // one row, each month's days were joined to the counted days by a rescan of all of them:
    // 480 x 31 x 7,300 comparisons, 12 s here, against 0.7 s with each month built from its own
    // days (migration 1090).
    const id = await patient('Decades');
    await setActiveSpans(db.pool, id, [['1980-01-01T00:00:00Z', null]]);
    const client = await db.pool.connect();
    try {
      await buildReadings(client, id, [cuff('1980-01-01T15:00:00Z')]);
      const dayMs = 24 * 60 * 60 * 1000;
      const first = Date.UTC(1980, 0, 2, 15);
      const days = Array.from({ length: 7_300 }, (_, i) => cuff(new Date(first + 2 * i * dayMs).toISOString()));
      const started = performance.now();
      await buildReadings(client, id, days);
      // The insert itself (its indexes and other triggers) takes a few hundred ms; a quadratic
      // count, seconds.
      expect(performance.now() - started).toBeLessThan(4_000);
    } finally {
      client.release();
    }
    const rows = await kept(db.pool, id);
    expect(rows).toHaveLength(7_301);
    expect(rows).toEqual(await counted(db.pool, id));
  }, 120_000);

  it('are those a rebuild from every reading counts', async () => {
    const both = async () => [
      (await db.pool.query('SELECT patient_id, month, readings FROM billing_reading_months ORDER BY 1, 2')).rows,
      (await db.pool.query('SELECT patient_id, first_day, second_day FROM billing_reading_starts ORDER BY 1')).rows,
    ];
    const before = await both();
    await db.ownerPool.query('SELECT rpm_billing_reading_months_rebuild()');
    expect(await both()).toEqual(before);
    expect(before[0]!.length).toBeGreaterThan(5);
    expect(before[1]!.length).toBeGreaterThan(5);
  });
});

describe('a reading stored at the moment the same patient is paused or resumed', () => {
  /**
   * The change (a pause or a resumption) is left uncommitted while a reading of the patient is
   * stored in another transaction, then committed. Each side once counted from what it saw, and
   * neither saw the other: a resumption lost the reading, a pause kept it.
   */
  async function beside(id: number, status: 'Paused' | 'Active', at: string): Promise<void> {
    const change = await db.pool.connect();
    const reading = await db.pool.connect();
    try {
      const { rows } = await reading.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await change.query('BEGIN');
      await change.query('UPDATE patients SET enrollment_status = $2 WHERE id = $1', [id, status]);
      await reading.query('BEGIN');
      let settled = false;
      const stored = buildReadings(reading, id, [cuff(at)])
        .then(() => reading.query('COMMIT'))
        .finally(() => {
          settled = true;
        });
      // The reading's statement runs as far as it can: to its end, or to a wait on the change.
      const waits = async () =>
        (
          await db.ownerPool.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = $2', [
            rows[0]!.pid,
            'Lock',
          ])
        ).rowCount === 1;
      for (let i = 0; i < 200 && !settled && !(await waits()); i++) await new Promise((r) => setTimeout(r, 10));
      await change.query('COMMIT');
      await stored;
    } finally {
      change.release();
      reading.release();
    }
  }

  it('counts the reading of a patient resumed beside it', async () => {
    const id = await patient('Resumed');
    await db.pool.query(`UPDATE patients SET enrollment_status = 'Paused' WHERE id = $1`, [id]);
    await beside(id, 'Active', '2099-02-05T15:00:00Z');
    await expectInStep(id, ['2099-02-05']);
  });

  it('hold one lock per patient, or one for all when a statement changes hundreds', async () => {
    const advisoryLocks = async (client: pg.PoolClient) =>
      Number(
        (
          await client.query<{ n: string }>(
            `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()`,
          )
        ).rows[0]!.n,
      );
    const org = (await buildOrganization(db.pool, { timeZone: 'America/Chicago' })).id;
    const ids: number[] = [];
    for (let i = 0; i < 300; i++) {
      ids.push(
        await buildPatient(db.pool, { firstName: 'L', lastName: `Lock${i}`, organizationId: org, enrolledRpm: true }),
      );
    }
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await buildReadings(client, ids[0]!, [cuff('2026-10-05T15:00:00Z')]);
      // The shared lock over all patients, and the patient's own.
      expect(await advisoryLocks(client)).toBe(2);
      await client.query(`UPDATE organizations SET time_zone = 'Asia/Tokyo' WHERE id = $1`, [org]);
      // 300 patients recounted: the lock over all of them, now also held exclusively (a second row), not 300 more.
      expect(await advisoryLocks(client)).toBe(3);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await expectInStep(ids[0]!, ['2026-10-06']);
  });

  it('leaves out the reading of a patient paused beside it', async () => {
    const id = await patient('Paused');
    await buildReadings(db.pool, id, [cuff('2026-10-05T15:00:00Z')]);
    await beside(id, 'Paused', '2099-03-05T15:00:00Z');
    await expectInStep(id, ['2026-10-05']);
  });
});

describe('tracking time in the month inputs', () => {
  it('follows entries edited and deleted', async () => {
    const id = await patient('Minutes');
    const entry = await buildTrackingEntry(db.pool, { patientId: id, date: '2026-10-12', durationMinutes: 7 });
    await buildTrackingEntry(db.pool, { patientId: id, date: '2026-10-13', durationMinutes: 5 });
    const minutes = async () =>
      (await billingInputs(db.pool, { ...october, organizationId, patientId: id }))[0]!.minutes;
    expect(await minutes()).toBe(12);
    await db.pool.query('UPDATE tracking_entries SET duration_minutes = 9 WHERE id = $1', [entry]);
    expect(await minutes()).toBe(14);
    await db.pool.query(`UPDATE tracking_entries SET date = '2026-11-02' WHERE id = $1`, [entry]);
    expect(await minutes()).toBe(5);
    await db.pool.query('DELETE FROM tracking_entries WHERE patient_id = $1', [id]);
    expect(await minutes()).toBe(0);
  });
});

describe('the database function of billable kinds', () => {
  it('names the physiologic kinds of the registry, and no other', async () => {
    const kinds = [...MEASUREMENT_KINDS.map((k) => k.kind), 'unknown', 'steps'];
    const { rows } = await db.pool.query<{ kind: string; billable: boolean }>(
      'SELECT k AS kind, rpm_billable_kind(k) AS billable FROM unnest($1::text[]) AS k',
      [kinds],
    );
    expect(rows).toEqual(kinds.map((kind) => ({ kind, billable: physiologic.includes(kind) })));
  });
});

describe('the migration', () => {
  it('fills the months of readings stored before it', async () => {
    // A database of its own, at the migration before this one.
    const url = new URL(inject('postgresAdminUrl'));
    const admin = new pg.Client({ connectionString: url.toString() });
    const name = `rpm_test_billing_months_${Date.now()}`;
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    url.pathname = `/${name}`;
    const pool = createPool(url.toString(), 2);
    try {
      await runMigrations(pool, { before: '1010' });
      const org = await buildOrganization(pool, { timeZone: 'America/Chicago' });
      const id = await buildPatient(pool, {
        firstName: 'O',
        lastName: 'Old',
        organizationId: org.id,
        enrolledRpm: true,
      });
      await buildReadings(pool, id, [
        cuff('2026-10-01T04:00:00Z'),
        cuff('2026-10-01T06:00:00Z'),
        cuff('2026-10-20T15:00:00Z'),
      ]);
      expect(await runMigrations(pool)).toContain('1010_billing_reading_months.sql');
      expect(await kept(pool, id)).toEqual(await counted(pool, id));
      expect((await kept(pool, id)).map((d) => d.day)).toEqual(['2026-09-30', '2026-10-01', '2026-10-20']);
      expect(await starts(pool, id)).toEqual(['2026-09-30', '2026-10-01']);
    } finally {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
