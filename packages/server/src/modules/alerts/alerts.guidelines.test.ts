import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { kysely } from '../../db/kysely.ts';
import { buildAlertSettings, buildOrganization, buildPatient, buildPatientPrograms, buildReadings, buildStoredReadings, type ReadingOptions, setAlertStatus, setPatientThresholds } from '../../../test/support/factories.ts';
import { serviceDatabase } from '../../../test/support/service-database.ts';
import { evaluateStoredReadings } from './alerts.evaluate.ts';
import { closeAlertsForEnrollmentEnd, reevaluatePatients } from './alerts.reevaluate.ts';

/*
 * The evaluation engine against the real database, one boundary per rule (the issue "Alerts
 * clinicians trust"). Readings are stored as ingestion stores them, then evaluated as the storing
 * transaction does.
 */

const db = serviceDatabase();
let org: number;

beforeAll(async () => {
  org = (await buildOrganization(db.pool, { timeZone: 'America/New_York' })).id;
});

async function activePatient(o: { organizationId?: number; enrolled?: boolean; status?: string | null } = {}) {
  return buildPatient(db.pool, {
    organizationId: o.organizationId ?? org,
    enrolledRpm: o.enrolled ?? true,
    enrollmentStatus: o.status === undefined ? 'Active' : o.status,
  });
}

/** Stores readings without evaluating them (the history before the reading under test). */
const history = (patientId: number, readings: ReadingOptions[]) => buildReadings(db.pool, patientId, readings);

/** Stores one reading and evaluates it. */
async function measure(patientId: number, r: ReadingOptions) {
  const [stored] = await buildStoredReadings(db.pool, patientId, [r]);
  await evaluateStoredReadings(db.pool, [stored!]);
  return stored!.id;
}

interface Row {
  id: number;
  rule: string;
  severity: string;
  status: string;
  count: number;
  confirmed: boolean | null;
  cleared_at: Date | null;
  last_values: Record<string, unknown>;
  resolution_reason: string | null;
}
async function alertsOf(patientId: number): Promise<Row[]> {
  return (await kysely(db.pool)
    .selectFrom('alerts')
    .select([
      'id',
      'rule',
      'severity',
      'status',
      'count',
      'confirmed',
      'cleared_at',
      'last_values',
      'resolution_reason',
    ])
    .where('patient_id', '=', patientId)
    .orderBy('id')
    .execute()) as Row[];
}
const rulesOf = async (patientId: number) => (await alertsOf(patientId)).map((a) => a.rule);

const HOUR = 3600_000;
const MIN = 60_000;
const ago = (ms: number) => new Date(Date.now() - ms);
const bp = (at: Date, systolic: number, diastolic: number, pulse?: number): ReadingOptions => ({
  at,
  systolic,
  diastolic,
  ...(pulse === undefined ? {} : { pulse }),
});
/** `n` blood-pressure readings an hour apart, the last `endAgo` ago. */
const bpSeries = (n: number, endAgo: number, systolic: number, diastolic: number) =>
  Array.from({ length: n }, (_, i) => bp(ago(endAgo + (n - 1 - i) * HOUR), systolic, diastolic));

describe('enrollment', () => {
  it('a patient not enrolled in RPM, or enrolled but paused, gets no alert', async () => {
    const notEnrolled = await activePatient({ enrolled: false });
    const paused = await activePatient({ status: 'Paused' });
    const noStatus = await activePatient({ status: null });
    for (const p of [notEnrolled, paused, noStatus]) await measure(p, bp(ago(0), 200, 130));
    for (const p of [notEnrolled, paused, noStatus]) expect(await alertsOf(p)).toEqual([]);
  });
});

describe('blood pressure, one reading', () => {
  it('180/120 is no crisis; 181 is, critical and unconfirmed alone; a stage-2 reading alone raises nothing', async () => {
    const p = await activePatient();
    await measure(p, bp(ago(3 * HOUR), 180, 120));
    await measure(p, bp(ago(2 * HOUR), 150, 95));
    expect(await alertsOf(p)).toEqual([]);
    await measure(p, bp(ago(HOUR), 181, 80));
    expect(await alertsOf(p)).toEqual([
      expect.objectContaining({ rule: 'bp_crisis', severity: 'critical', confirmed: false, status: 'open' }),
    ]);
  });

  it('a second crisis reading 14:59 later confirms it; 15:01 later does not', async () => {
    const confirmed = await activePatient();
    const t0 = ago(HOUR);
    await measure(confirmed, bp(t0, 190, 100));
    await measure(confirmed, bp(new Date(t0.getTime() + 14 * MIN + 59_000), 185, 100));
    expect(await alertsOf(confirmed)).toEqual([
      expect.objectContaining({ rule: 'bp_crisis', confirmed: true, count: 2 }),
    ]);

    const apart = await activePatient();
    await measure(apart, bp(t0, 190, 100));
    await measure(apart, bp(new Date(t0.getTime() + 15 * MIN + 1000), 185, 100));
    expect(await alertsOf(apart)).toEqual([expect.objectContaining({ rule: 'bp_crisis', confirmed: false, count: 2 })]);
  });

  it('below 80/50 with a pulse above 100 is a severe low (critical)', async () => {
    const p = await activePatient();
    await measure(p, bp(ago(HOUR), 78, 48, 105));
    expect(await alertsOf(p)).toEqual([expect.objectContaining({ rule: 'bp_low_severe', severity: 'critical' })]);
  });
});

describe('blood pressure, the window mean', () => {
  it('5 readings at stage 2 raise nothing, the 6th raises bp_stage2 (warning) with the mean', async () => {
    const p = await activePatient();
    await history(p, bpSeries(4, 2 * HOUR, 150, 95));
    await measure(p, bp(ago(HOUR), 150, 95));
    expect(await alertsOf(p)).toEqual([]);
    await measure(p, bp(ago(0), 150, 95));
    const [a] = await alertsOf(p);
    expect(a).toMatchObject({ rule: 'bp_stage2', severity: 'warning' });
    expect(a!.last_values).toMatchObject({ systolic: 150, diastolic: 95, mean_of: 6 });
  });

  it('a mean of exactly 135/85 alerts, 134/84 does not', async () => {
    const at = await activePatient();
    // (3 × 130 + 3 × 140) / 6 = 135, (3 × 80 + 3 × 90) / 6 = 85.
    await history(at, [...bpSeries(3, 4 * HOUR, 130, 80), ...bpSeries(2, HOUR, 140, 90)]);
    await measure(at, bp(ago(0), 140, 90));
    expect(await rulesOf(at)).toEqual(['bp_stage2']);
    const below = await activePatient();
    await history(below, [...bpSeries(3, 4 * HOUR, 129, 79), ...bpSeries(2, HOUR, 139, 89)]);
    await measure(below, bp(ago(0), 139, 89));
    expect(await rulesOf(below)).toEqual([]);
  });

  it('a mean below 90/60 is bp_low', async () => {
    const p = await activePatient();
    await history(p, bpSeries(5, HOUR, 85, 55));
    await measure(p, bp(ago(0), 86, 58));
    expect(await alertsOf(p)).toEqual([expect.objectContaining({ rule: 'bp_low', severity: 'warning' })]);
  });

  /*
   * New York, daylight saving began on 2026-03-08 at 02:00. A reading on 2026-03-14 (EDT) has the
   * seven days 03-08 … 03-14 as its window, starting at 03-08 00:00 EST (05:00 UTC). A reading at
   * 00:30 EST on 03-08 is on day 7; one at 23:30 EST on 03-07 (04:30 UTC) is on day 8, which a
   * window counted back in 24-hour days from 03-14 00:00 EDT (04:00 UTC) would wrongly take in.
   */
  it("counts the organization's calendar days across a daylight-saving change: day 7 in, day 8 out", async () => {
    const rest = [10, 11, 12, 13].map((d) => bp(new Date(`2026-03-${d}T12:00:00Z`), 150, 95));
    const inside = await activePatient();
    await history(inside, [bp(new Date('2026-03-08T05:30:00Z'), 150, 95), ...rest]);
    await measure(inside, bp(new Date('2026-03-14T13:00:00Z'), 150, 95));
    expect(await rulesOf(inside)).toEqual(['bp_stage2']);
    expect((await alertsOf(inside))[0]!.last_values.window_from).toBe('2026-03-08T05:00:00.000Z');

    const outside = await activePatient();
    await history(outside, [bp(new Date('2026-03-08T04:30:00Z'), 150, 95), ...rest]);
    await measure(outside, bp(new Date('2026-03-14T13:00:00Z'), 150, 95));
    expect(await rulesOf(outside)).toEqual([]);
  });

  it('and at the autumn change (2026-11-01): the window starts at local midnight in EDT', async () => {
    const rest = [2, 3, 4, 5].map((d) => bp(new Date(`2026-11-0${d}T17:00:00Z`), 150, 95));
    const inside = await activePatient();
    // 2026-11-01 00:10 EDT is 04:10 UTC: day 7 of a window ending on 11-07 (EST).
    await history(inside, [bp(new Date('2026-11-01T04:10:00Z'), 150, 95), ...rest]);
    await measure(inside, bp(new Date('2026-11-07T17:00:00Z'), 150, 95));
    expect(await rulesOf(inside)).toEqual(['bp_stage2']);
    const outside = await activePatient();
    // 2026-10-31 23:50 EDT is 03:50 UTC: day 8.
    await history(outside, [bp(new Date('2026-11-01T03:50:00Z'), 150, 95), ...rest]);
    await measure(outside, bp(new Date('2026-11-07T17:00:00Z'), 150, 95));
    expect(await rulesOf(outside)).toEqual([]);
  });

  it('a resolved alert does not reopen until the rule is met again on readings after its resolution', async () => {
    const p = await activePatient();
    await history(p, bpSeries(5, 20 * HOUR, 150, 95));
    await measure(p, bp(ago(19 * HOUR), 150, 95));
    const [first] = await alertsOf(p);
    expect(first!.rule).toBe('bp_stage2');
    await setAlertStatus(db.pool, { id: first!.id }, 'resolved', {
      resolvedAt: ago(18 * HOUR),
      resolutionReason: 'reached_patient',
    });
    for (let i = 5; i >= 1; i--) await measure(p, bp(ago(i * HOUR), 150, 95));
    expect((await alertsOf(p)).filter((a) => a.status !== 'resolved')).toEqual([]);
    await measure(p, bp(ago(0), 150, 95));
    const open = (await alertsOf(p)).filter((a) => a.status !== 'resolved');
    expect(open).toEqual([expect.objectContaining({ rule: 'bp_stage2', count: 1 })]);
    expect(open[0]!.last_values.mean_of).toBe(6);
  });

  it('marks the alert cleared when the mean is back in range, and un-clears it when met again', async () => {
    const p = await activePatient();
    await history(p, bpSeries(5, 10 * HOUR, 150, 95));
    await measure(p, bp(ago(9 * HOUR), 150, 95));
    // Each reading counts while the mean stays at stage 2 (4 more); the fifth brings it to
    // (6 × 150 + 5 × 110) / 11 = 131.8 over (6 × 95 + 5 × 70) / 11 = 83.6: in range.
    for (let i = 5; i >= 1; i--) await measure(p, bp(ago(i * HOUR + 30 * MIN), 110, 70));
    let [a] = await alertsOf(p);
    expect(a).toMatchObject({ rule: 'bp_stage2', status: 'open' });
    expect(a!.cleared_at).toBeInstanceOf(Date);
    await measure(p, bp(ago(0), 170, 110));
    [a] = await alertsOf(p);
    expect(a).toMatchObject({ rule: 'bp_stage2', cleared_at: null, count: 6 });
  });

  it('readings evaluated in one batch (one webhook call) each get their own window, as one at a time', async () => {
    // Stage 2 builds up (the 6th raises), then means back in range (cleared), then met again.
    const series = [
      ...bpSeries(6, 12 * HOUR, 150, 95),
      ...bpSeries(5, 6 * HOUR, 110, 70),
      bp(ago(HOUR), 170, 110),
      bp(ago(0), 60, 40, 45),
    ];
    const single = await activePatient();
    for (const r of series) await measure(single, r);
    const batch = await activePatient();
    const other = await activePatient();
    // Another patient's readings in the same batch, interleaved: windows must not mix.
    const ids = await buildStoredReadings(db.pool, batch, series);
    const otherIds = await buildStoredReadings(db.pool, other, bpSeries(6, 0, 85, 55));
    await evaluateStoredReadings(db.pool, ids.flatMap((r, i) => [r, ...(otherIds[i] ? [otherIds[i]] : [])]));
    const shape = (rows: Row[]) =>
      rows.map((a) => ({ rule: a.rule, status: a.status, count: a.count, cleared: a.cleared_at !== null, values: a.last_values }));
    expect(await alertsOf(single)).toEqual([expect.objectContaining({ rule: 'bp_stage2', count: 6 })]);
    expect(shape(await alertsOf(batch))).toEqual(shape(await alertsOf(single)));
    expect(await rulesOf(other)).toEqual(['bp_low']);
  });

  it("a patient threshold beats the organization's", async () => {
    const other = (await buildOrganization(db.pool, { timeZone: 'America/New_York' })).id;
    await buildAlertSettings(db.pool, { organizationId: other, thresholds: { stage2_systolic: 150 } });
    const own = await activePatient({ organizationId: other });
    await setPatientThresholds(db.pool, own, { stage2_systolic: 125 });
    const orgOnly = await activePatient({ organizationId: other });
    for (const p of [own, orgOnly]) {
      await history(p, bpSeries(5, HOUR, 140, 75));
      await measure(p, bp(ago(0), 140, 75));
    }
    expect(await rulesOf(own)).toEqual(['bp_stage2']);
    expect(await rulesOf(orgOnly)).toEqual([]);
  });
});

describe('pulse', () => {
  it('one fast heart rate raises nothing; a window mean above 120 raises pulse_high', async () => {
    const p = await activePatient();
    const hr = (at: Date, pulse: number): ReadingOptions => ({ at, systolic: null, diastolic: null, pulse });
    await measure(p, hr(ago(6 * HOUR), 140));
    expect(await alertsOf(p)).toEqual([]);
    await history(
      p,
      [4, 3, 2, 1].map((h) => hr(ago(h * HOUR), 125)),
    );
    await measure(p, hr(ago(0), 125));
    expect(await alertsOf(p)).toEqual([expect.objectContaining({ rule: 'pulse_high', severity: 'warning' })]);
  });
});

describe('weight (HFSA)', () => {
  const w = (at: Date, weight: number): ReadingOptions => ({ at, kind: 'weight', components: { weight }, unit: 'kg' });
  it('a gain of exactly 0.9 kg over the previous day is not more than 0.9; 0.91 is', async () => {
    const exact = await activePatient();
    const more = await activePatient();
    for (const [p, now] of [
      [exact, 80.9],
      [more, 80.91],
    ] as const) {
      await history(p, [w(new Date('2026-05-04T12:00:00Z'), 80)]);
      await measure(p, w(new Date('2026-05-05T12:00:00Z'), now));
    }
    expect(await alertsOf(exact)).toEqual([]);
    const [a] = await alertsOf(more);
    expect(a).toMatchObject({ rule: 'weight_gain_day', severity: 'warning' });
    expect(a!.last_values.gain).toBe(0.91);
  });

  it('a gain of more than 2.3 kg against the weight 7 days earlier', async () => {
    const p = await activePatient();
    await history(p, [w(new Date('2026-05-01T11:00:00Z'), 70), w(new Date('2026-05-01T22:00:00Z'), 75)]);
    await measure(p, w(new Date('2026-05-08T12:00:00Z'), 72.31));
    // The one closest to the same time of day 7 days earlier (70 at 11:00, not 75 at 22:00).
    expect(await alertsOf(p)).toEqual([expect.objectContaining({ rule: 'weight_gain_week' })]);
    const exact = await activePatient();
    await history(exact, [w(new Date('2026-05-01T11:00:00Z'), 70)]);
    await measure(exact, w(new Date('2026-05-08T12:00:00Z'), 72.3));
    expect(await alertsOf(exact)).toEqual([]);
  });
});

describe('glucose (ADA)', () => {
  const g = (at: Date, glucose: number): ReadingOptions => ({
    at,
    kind: 'glucose',
    components: { glucose },
    unit: 'mg/dL',
  });
  it.each([
    [70, []],
    [69.9, ['glucose_low']],
    [54, ['glucose_low']],
    [53.9, ['glucose_very_low']],
    [400, []],
    [400.1, ['glucose_very_high']],
  ])('one reading of %s raises %j', async (value, rules) => {
    const p = await activePatient();
    await measure(p, g(ago(HOUR), value));
    expect(await rulesOf(p)).toEqual(rules);
  });

  it('above 250 twice within 24 hours raises glucose_high; 250 twice does not', async () => {
    const twice = await activePatient();
    await measure(twice, g(ago(23 * HOUR), 400));
    await measure(twice, g(ago(0), 251));
    expect(await alertsOf(twice)).toEqual([expect.objectContaining({ rule: 'glucose_high', severity: 'warning' })]);
    const at250 = await activePatient();
    await measure(at250, g(ago(2 * HOUR), 250));
    await measure(at250, g(ago(0), 250));
    expect(await alertsOf(at250)).toEqual([]);
    const apart = await activePatient();
    await measure(apart, g(ago(25 * HOUR), 300));
    await measure(apart, g(ago(0), 300));
    expect(await alertsOf(apart)).toEqual([]);
  });
});

describe('oxygen saturation (BTS)', () => {
  const s = (at: Date, spo2: number): ReadingOptions => ({ at, kind: 'spo2', components: { spo2 }, unit: '%' });
  it('91 twice within 60 minutes raises spo2_low; 61 minutes apart, or 92, does not', async () => {
    const t0 = ago(3 * HOUR);
    const later = (ms: number) => new Date(t0.getTime() + ms);
    const within = await activePatient();
    await measure(within, s(t0, 91));
    await measure(within, s(later(60 * MIN), 91));
    expect(await rulesOf(within)).toEqual(['spo2_low']);
    const apart = await activePatient();
    await measure(apart, s(t0, 91));
    await measure(apart, s(later(61 * MIN), 91));
    expect(await rulesOf(apart)).toEqual([]);
    const atTarget = await activePatient();
    await measure(atTarget, s(ago(2 * HOUR), 92));
    await measure(atTarget, s(ago(HOUR), 92));
    expect(await rulesOf(atTarget)).toEqual([]);
  });

  it('in the COPD program the target is 88: 89 twice is fine, 87 twice is low; below 85 is critical at once', async () => {
    const p = await activePatient();
    await buildPatientPrograms(db.pool, p, ['copd']);
    await measure(p, s(ago(3 * HOUR), 89));
    await measure(p, s(ago(3 * HOUR - 10 * MIN), 89));
    expect(await rulesOf(p)).toEqual([]);
    await measure(p, s(ago(2 * HOUR), 87));
    await measure(p, s(ago(2 * HOUR - 10 * MIN), 87));
    expect(await rulesOf(p)).toEqual(['spo2_low']);
    await measure(p, s(ago(HOUR), 84));
    expect(await alertsOf(p)).toEqual(
      expect.arrayContaining([expect.objectContaining({ rule: 'spo2_critical', severity: 'critical' })]),
    );
  });
});

describe('fever (CDC)', () => {
  const t = (at: Date, temperature: number): ReadingOptions => ({
    at,
    kind: 'temperature',
    components: { temperature },
    unit: 'Cel',
  });
  it('37.9 is none, 38.0 is fever; the next normal reading clears it, a fever again un-clears it', async () => {
    const p = await activePatient();
    await measure(p, t(ago(4 * HOUR), 37.9));
    expect(await alertsOf(p)).toEqual([]);
    await measure(p, t(ago(3 * HOUR), 38));
    expect(await alertsOf(p)).toEqual([
      expect.objectContaining({ rule: 'fever', severity: 'warning', cleared_at: null }),
    ]);
    await measure(p, t(ago(2 * HOUR), 37));
    expect((await alertsOf(p))[0]!.cleared_at).toBeInstanceOf(Date);
    await measure(p, t(ago(HOUR), 38.4));
    expect(await alertsOf(p)).toEqual([expect.objectContaining({ rule: 'fever', cleared_at: null, count: 2 })]);
  });
});

describe('re-evaluation and the end of enrollment', () => {
  it('reevaluatePatients raises what new thresholds meet on recent readings, and clears what they no longer meet', async () => {
    const p = await activePatient();
    await history(p, bpSeries(5, HOUR, 132, 80));
    await measure(p, bp(ago(0), 132, 80));
    expect(await alertsOf(p)).toEqual([]);
    await setPatientThresholds(db.pool, p, { stage2_systolic: 130 });
    await reevaluatePatients(db.pool, [p]);
    expect(await alertsOf(p)).toEqual([expect.objectContaining({ rule: 'bp_stage2', cleared_at: null, count: 1 })]);
    await setPatientThresholds(db.pool, p, { stage2_systolic: null });
    await reevaluatePatients(db.pool, [p]);
    const [a] = await alertsOf(p);
    expect(a!.cleared_at).toBeInstanceOf(Date);
    expect(a!.count).toBe(1);
  });

  it('closeAlertsForEnrollmentEnd resolves the open alerts with its reason and records it', async () => {
    const p = await activePatient();
    await measure(p, bp(ago(HOUR), 200, 100));
    await closeAlertsForEnrollmentEnd(db.pool, p);
    expect(await alertsOf(p)).toEqual([
      expect.objectContaining({ status: 'resolved', resolution_reason: 'enrollment_ended' }),
    ]);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM audit_logs
      WHERE action = 'alert.close_enrollment_ended' AND resource_id = ${String(p)}`.execute(kysely(db.pool));
    expect(rows[0]!.n).toBe(1);
  });
});
