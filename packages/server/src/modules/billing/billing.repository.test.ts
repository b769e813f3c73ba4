import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import {
  buildOrganization,
  buildPatient,
  buildReadings,
  buildTrackingEntry,
  setActiveSpans,
} from '../../../test/support/factories.ts';
import { billingInputs, readingDays } from './billing.repository.ts';

/** Days with device data count any physiologic kind of the registry, from any device, once a day. */
let db: TestDatabase;
let organizationId: number;
const october = { monthStart: '2026-10-01', monthEnd: '2026-10-31' };

const weight = (at: string, source: string, kg = 80) => ({
  at,
  source,
  kind: 'weight',
  components: { weight: kg },
  unit: 'kg',
});

beforeAll(async () => {
  db = await createTestDatabase();
  organizationId = (await buildOrganization(db.pool, { timeZone: 'America/New_York' })).id;
});
afterAll(async () => db?.drop());

async function patientWith(readings: Parameters<typeof buildReadings>[2]): Promise<number> {
  const id = await buildPatient(db.pool, { firstName: 'B', lastName: 'Billing', organizationId, enrolledRpm: true });
  await buildReadings(db.pool, id, readings);
  return id;
}

async function inputsOf(patientId: number) {
  const [row] = await billingInputs(db.pool, { ...october, organizationId, patientId });
  return {
    first_day: row?.first_day,
    period_days: row?.period_days,
    days: await readingDays(db.pool, october.monthStart, october.monthEnd, patientId),
  };
}

describe('days with device data', () => {
  it('count a cuff and a scale on one day (in the organization time zone) as one day', async () => {
    const id = await patientWith([
      { at: '2026-10-05T14:00:00Z', source: 'CUFF-1', systolic: 120, diastolic: 80 },
      weight('2026-10-05T20:00:00Z', 'SCALE-1'),
      // 23:30 in New York, still 5 October there.
      weight('2026-10-06T03:30:00Z', 'SCALE-1'),
    ]);
    expect(await inputsOf(id)).toEqual({
      first_day: '2026-10-05',
      period_days: { 0: 1 },
      days: [{ patient_id: id, day: '2026-10-05', readings: 3 }],
    });
  });

  it('let a scale-only patient earn days', async () => {
    const id = await patientWith(['01', '02', '03'].map((d) => weight(`2026-10-${d}T16:00:00Z`, 'SCALE-2')));
    const inputs = await inputsOf(id);
    expect(inputs.first_day).toBe('2026-10-01');
    expect(inputs.period_days).toEqual({ 0: 3 });
    expect(inputs.days.map((d) => d.day)).toEqual(['2026-10-01', '2026-10-02', '2026-10-03']);
  });

  it('never count manual readings, nor a kind the registry does not know as physiologic', async () => {
    const id = await patientWith([
      weight('2026-10-07T16:00:00Z', 'manual'),
      { at: '2026-10-08T16:00:00Z', source: 'manual', systolic: 130, diastolic: 85 },
      {
        at: '2026-10-09T16:00:00Z',
        source: 'THERMO-1',
        kind: 'body_temperature',
        components: { temperature: 37 },
        unit: 'Cel',
      },
      weight('2026-10-10T16:00:00Z', 'SCALE-3'),
    ]);
    expect(await inputsOf(id)).toEqual({
      first_day: '2026-10-10',
      period_days: { 0: 1 },
      days: [{ patient_id: id, day: '2026-10-10', readings: 1 }],
    });
  });
});

describe('days while the patient was active', () => {
  it('are exactly those of the readings rpm_patient_active_at accepts, at the edges of each span', async () => {
    const id = await buildPatient(db.pool, { firstName: 'S', lastName: 'Spans', organizationId, enrolledRpm: true });
    // Active until Oct 10 12:00 UTC, again from Oct 20 12:00 UTC.
    await setActiveSpans(db.pool, id, [
      ['-infinity', '2026-10-10T12:00:00Z'],
      ['2026-10-20T12:00:00Z', null],
    ]);
    const instants = [
      '2026-10-02T16:00:00Z',
      '2026-10-10T11:59:59Z', // last second of the first span
      '2026-10-10T12:00:00Z', // its end: no longer active
      '2026-10-11T16:00:00Z',
      '2026-10-20T11:59:59Z',
      '2026-10-20T12:00:00Z', // the second span's first instant
      '2026-10-25T16:00:00Z',
    ];
    await buildReadings(
      db.pool,
      id,
      instants.map((at) => ({ at, source: 'CUFF-S', systolic: 120, diastolic: 80 })),
    );
    const { rows } = await db.pool.query<{ day: string }>(
      `SELECT DISTINCT to_char((created_at AT TIME ZONE 'America/New_York')::date, 'YYYY-MM-DD') AS day
         FROM observations WHERE patient_id = $1 AND rpm_patient_active_at(patient_id, created_at) ORDER BY 1`,
      [id],
    );
    expect(rows.map((r) => r.day)).toEqual(['2026-10-02', '2026-10-10', '2026-10-20', '2026-10-25']);
    const inputs = await inputsOf(id);
    expect(inputs.days.map((d) => d.day)).toEqual(rows.map((r) => r.day));
    expect(inputs.period_days).toEqual({ 0: 4 });
    const [row] = await billingInputs(db.pool, { ...october, organizationId, patientId: id });
    expect(row).toMatchObject({ first_day: '2026-10-02', last_day: '2026-10-25' });
  });

  it('count the tracking time of exactly the days rpm_patient_active_on accepts', async () => {
    const id = await buildPatient(db.pool, { firstName: 'T', lastName: 'Spans', organizationId, enrolledRpm: true });
    // Paused at 03:59 UTC on Oct 10 (23:59 on Oct 9 in New York), back at 04:00 UTC on Oct 20 (midnight there).
    await setActiveSpans(db.pool, id, [
      ['-infinity', '2026-10-10T03:59:00Z'],
      ['2026-10-20T04:00:00Z', null],
    ]);
    // One minute on each day from Oct 8 to Oct 21, and a second one on Oct 20.
    for (let day = 8; day <= 21; day++)
      await buildTrackingEntry(db.pool, {
        patientId: id,
        date: `2026-10-${String(day).padStart(2, '0')}`,
        durationMinutes: day === 20 ? 2 : 1,
      });
    const { rows } = await db.pool.query<{ minutes: number }>(
      `SELECT sum(duration_minutes)::int AS minutes FROM tracking_entries
        WHERE patient_id = $1 AND rpm_patient_active_on(patient_id, date, 'America/New_York')`,
      [id],
    );
    // Oct 8 and 9, then Oct 20 (2) and 21.
    expect(rows[0]!.minutes).toBe(5);
    const [row] = await billingInputs(db.pool, { ...october, organizationId, patientId: id });
    expect(row!.minutes).toBe(5);
  });
});
