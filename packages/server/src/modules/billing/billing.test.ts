import {
  BillingCsvColumns,
  BillingErrors,
  CLOSED_MONTH_SQLSTATE,
  billingClosePath,
  billingExportPath,
  organizationSettingsPath,
  patientBillingPath,
  type BillingClosing,
  type BillingReport,
  type PatientBilling,
} from '@rpm/contracts';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createOrganization,
  signInNewStaff,
  type ApiClient,
  type TestServer,
  startTestServer,
} from '../../../test/support/http.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';
import { readingsInClosedMonths } from './billing.service.ts';
import { buildInsurances, buildPatient, buildReading, buildReadings, closeMonth, reopenMonth, setRpmEnrollment } from '../../../test/support/factories.ts';

let server: TestServer;
let admin: ApiClient;
let providerA: ApiClient;
let orgA: number;
let orgB: number;
const ids: Record<string, number> = {};

async function addPatient(key: string, orgId: number, first: string, last: string, enrolled = true) {
  const id = await buildPatient(server.db.pool, {
    firstName: first,
    lastName: last,
    organizationId: orgId,
    enrolledRpm: enrolled,
    dateOfBirth: '1950-02-03',
  });
  ids[key] = id;
  return id;
}

/** Readings at the given instants; `source` 'manual' for typed-in ones. */
async function addReadings(patientId: number, instants: string[], source = 'CUFF-1') {
  await buildReadings(
    server.db.pool,
    patientId,
    instants.map((at) => ({ at, source, systolic: 120, diastolic: 80 })),
  );
}

/** Noon in New York on each day of October 2026 given. */
const octoberNoons = (days: number[]) => days.map((d) => `2026-10-${String(d).padStart(2, '0')}T16:00:00Z`);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const report = async (client: ApiClient, query: string) => client.get<BillingReport>(`/api/billing?${query}`);
const rowOf = (r: BillingReport, key: string) => r.rows.find((row) => row.patient_id === ids[key]);

beforeAll(async () => {
  server = await startTestServer();
  orgA = (await createOrganization(server)).id;
  orgB = (await createOrganization(server)).id;
  admin = await signInNewStaff(server, 'admin', null);
  providerA = await signInNewStaff(server, 'provider', orgA);

  // 18 days of device data and 25 minutes with one call: 99453 (first period to reach 2 days), 99454, 99457.
  const full = await addPatient('full', orgA, 'Ada', 'Full');
  await addReadings(full, [
    ...octoberNoons(range(1, 18)),
    ...octoberNoons(range(1, 18)).map((t) => t.replace('16:00', '22:00')),
  ]);
  for (const [date, minutes, interactive] of [
    ['2026-10-03', 10, false],
    ['2026-10-09', 15, true],
  ] as const) {
    await providerA.post(`/api/patients/${full}/sessions`, { date, duration_minutes: minutes, interactive });
  }

  // Manual readings never count: 10 manual days and 1 device day.
  const manual = await addPatient('manual', orgA, 'Ben', 'Manual');
  await addReadings(manual, octoberNoons(range(1, 10)), 'manual');
  await addReadings(manual, octoberNoons([12]));

  // 23:30 and 00:30 New York time: two days there, one day in UTC (both are Oct 6 in UTC).
  const midnight = await addPatient('midnight', orgA, 'Cy', 'Midnight');
  await addReadings(midnight, ['2026-10-06T03:30:00Z', '2026-10-06T04:30:00Z']);

  // A name and policy a spreadsheet would run as formulas.
  const formula = await addPatient('formula', orgA, '=HYPERLINK("http://x")', '@Sum');
  await addReadings(formula, octoberNoons(range(1, 16)));
  await buildInsurances(server.db.pool, formula, [
    { type: 'Medicare', policyNumber: '+1-555' },
    { type: 'Other', policyNumber: 'second' },
  ]);

  await addPatient('notEnrolled', orgA, 'Dee', 'Unenrolled', false);
  const other = await addPatient('other', orgB, 'Eve', 'Elsewhere');
  await addReadings(other, octoberNoons(range(1, 20)));
});
afterAll(async () => server?.close());

describe('billing report', () => {
  it("answers a provider's own organization's enrolled patients with codes, days, minutes and totals", async () => {
    const res = await report(providerA, 'month=2026-10');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ month: '2026-10', closed: false, closed_at: null });
    expect(res.body.rows.map((r) => r.patient_id).sort()).toEqual(
      [ids.full, ids.manual, ids.midnight, ids.formula].sort(),
    );
    expect(rowOf(res.body, 'full')).toEqual({
      patient_id: ids.full,
      patient_name: 'Ada Full',
      organization_id: orgA,
      period_start: '2026-10-01',
      period_end: '2026-10-30',
      device_days: 18,
      minutes: 25,
      interactive: true,
      codes: [
        { code: '99453', units: 1, period_start: '2026-10-01', period_end: '2026-10-30' },
        { code: '99454', units: 1, period_start: '2026-10-01', period_end: '2026-10-30' },
        { code: '99457', units: 1, period_start: '2026-10-01', period_end: '2026-10-31' },
      ],
      missing: [],
    });
    expect(res.body.totals).toEqual([
      { code: '99453', units: 2 },
      { code: '99454', units: 2 },
      { code: '99457', units: 1 },
    ]);
    expect(await lastAuditOf(server, 'billing.report')).toMatchObject({ outcome: 'success', resource_id: '2026-10' });
  });

  it('ignores manual readings', async () => {
    const row = rowOf((await report(providerA, 'month=2026-10')).body, 'manual')!;
    // The first (and only) device day is Oct 12, so its period runs into November.
    expect(row).toMatchObject({ device_days: 1, period_start: '2026-10-12', codes: [] });
  });

  it("counts days in the organization's time zone, which an admin can change", async () => {
    expect(rowOf((await report(providerA, 'month=2026-10')).body, 'midnight')).toMatchObject({ device_days: 2 });
    const put = await admin.put(organizationSettingsPath(orgA), { require_mfa: false, time_zone: 'UTC' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ time_zone: 'UTC' });
    expect(rowOf((await report(providerA, 'month=2026-10')).body, 'midnight')).toMatchObject({ device_days: 1 });
    expect(
      (await admin.put(organizationSettingsPath(orgA), { require_mfa: false, time_zone: 'Mars/Olympus' })).status,
    ).toBe(400);
    await admin.put(organizationSettingsPath(orgA), { require_mfa: false, time_zone: 'America/New_York' });
  });

  it("never shows a provider another organization's rows, and audits the refusal", async () => {
    const refused = await report(providerA, `month=2026-10&organization_id=${orgB}`);
    expect(refused.status).toBe(403);
    expect(await lastAuditOf(server, 'billing.report')).toMatchObject({ outcome: 'denied' });
    expect((await providerA.get(`${billingExportPath}?month=2026-10&organization_id=${orgB}`)).status).toBe(403);
    expect((await providerA.get(`${patientBillingPath(ids.other!)}?month=2026-10`)).status).toBe(404);

    const all = await report(admin, 'month=2026-10');
    expect(all.body.rows.map((r) => r.patient_id)).toContain(ids.other);
    const onlyB = await report(admin, `month=2026-10&organization_id=${orgB}`);
    expect(onlyB.body.rows.map((r) => r.patient_id)).toEqual([ids.other]);
  });

  it('bills 99453 in the first period that reaches 2 days, and counts a long history by period', async () => {
    // One day in the first period (Jul 1–30), two in the second (Jul 31–Aug 29).
    const late = await addPatient('late', orgA, 'Gil', 'Latestart');
    await addReadings(late, ['2026-07-01T16:00:00Z', '2026-08-05T16:00:00Z', '2026-08-06T16:00:00Z']);
    // Every day since January 1: the period ending in October is Sep 28–Oct 27, with 30 days.
    const long = await addPatient('long', orgA, 'Hal', 'Longterm');
    await addReadings(
      long,
      range(0, 303).map((d) => new Date(Date.UTC(2026, 0, 1 + d, 16)).toISOString()),
      'CUFF-9',
    );
    const codes = (r: BillingReport, key: string) => rowOf(r, key)!.codes.map((c) => `${c.code} ${c.period_start}`);
    const july = (await report(providerA, 'month=2026-07')).body;
    expect(codes(july, 'late')).toEqual([]);
    const august = (await report(providerA, 'month=2026-08')).body;
    expect(codes(august, 'late')).toEqual(['99453 2026-07-31', '99445 2026-07-31']);
    expect(rowOf(august, 'late')).toMatchObject({ period_start: '2026-07-31', device_days: 2 });
    const october = (await report(providerA, 'month=2026-10')).body;
    expect(codes(october, 'long')).toEqual(['99454 2026-09-28']);
    expect(rowOf(october, 'long')).toMatchObject({
      period_start: '2026-09-28',
      period_end: '2026-10-27',
      device_days: 30,
    });
    const january = (await report(providerA, 'month=2026-01')).body;
    expect(codes(january, 'long')).toEqual(['99453 2026-01-01', '99454 2026-01-01']);
    await setRpmEnrollment(server.db.pool, [late!, long!], false);
  });

  it('refuses a malformed month and answers 401 without a session', async () => {
    expect((await report(providerA, 'month=2026-13')).status).toBe(400);
    expect((await report(providerA, 'month=26-10')).status).toBe(400);
    expect((await apiClient(server).get('/api/billing?month=2026-10')).status).toBe(401);
  });
});

describe('CSV export', () => {
  it('lists one line per patient and code with the claim fields, formulas escaped, and is audited', async () => {
    const res = await providerA.request('GET', `${billingExportPath}?month=2026-10`);
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/csv');
    expect(String(res.headers['content-disposition'])).toContain('billing-2026-10.csv');
    const records = parse(res.body as unknown as string) as string[][];
    expect(records[0]).toEqual([...BillingCsvColumns]);
    const formulaLines = records.filter((r) => r[0]!.includes('HYPERLINK'));
    expect(formulaLines.map((r) => r[6])).toEqual(['99453', '99454']);
    expect(formulaLines[0]).toEqual([
      `'=HYPERLINK("http://x") @Sum`,
      '1950-02-03',
      'Medicare',
      "'+1-555",
      '',
      expect.any(String),
      '99453',
      '1',
      '2026-10-01',
      '2026-10-30',
    ]);
    // No cell a spreadsheet would evaluate.
    for (const record of records) for (const cell of record) expect(cell).not.toMatch(/^[=+\-@]/);
    const full = records.filter((r) => r[0] === 'Ada Full').map((r) => [r[6], r[7]]);
    expect(full).toEqual([
      ['99453', '1'],
      ['99454', '1'],
      ['99457', '1'],
    ]);
    expect(records.some((r) => r[0] === 'Eve Elsewhere')).toBe(false);
    expect(await lastAuditOf(server, 'billing.export')).toMatchObject({ outcome: 'success', resource_id: '2026-10' });
  });
});

describe('closing a month', () => {
  it('lets an admin close a past month once, then refuses tracking time dated in it', async () => {
    expect((await providerA.post(billingClosePath('2026-09'))).status).toBe(403);
    const closed = await admin.post<BillingClosing>(billingClosePath('2026-09'));
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ month: '2026-09', closed: true });
    expect(await lastAuditOf(server, 'billing.close')).toMatchObject({ outcome: 'success', resource_id: '2026-09' });
    expect((await admin.post(billingClosePath('2026-09'))).status).toBe(409);

    const refused = await providerA.post<{ message: string }>(`/api/patients/${ids.full}/sessions`, {
      date: '2026-09-30',
      duration_minutes: 5,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(BillingErrors.monthClosed);
    expect(await lastAuditOf(server, 'tracking.create')).toMatchObject({ outcome: 'failure' });
    const { rows } = await server.db.pool.query(
      `SELECT count(*)::int AS n FROM tracking_entries WHERE date = '2026-09-30'`,
    );
    expect(rows[0].n).toBe(0);

    expect(
      (await providerA.post(`/api/patients/${ids.notEnrolled}/sessions`, { date: '2026-10-01', duration_minutes: 5 }))
        .status,
    ).toBe(201);
    expect((await report(providerA, 'month=2026-09')).body).toMatchObject({ closed: true });
    expect((await report(providerA, 'month=2026-10')).body).toMatchObject({ closed: false });
  });

  it('refuses to close a month that has not ended', async () => {
    const month = new Date().toISOString().slice(0, 7);
    expect((await admin.post(billingClosePath(month))).status).toBe(400);
  });
});

describe("one patient's month", () => {
  it('answers the progress and the evidence: days with readings and every entry with who logged it', async () => {
    const res = await providerA.get<PatientBilling>(`${patientBillingPath(ids.full!)}?month=2026-10`);
    expect(res.status).toBe(200);
    expect(res.body.row).toMatchObject({ device_days: 18, minutes: 25, interactive: true });
    expect(res.body.time_zone).toBe('America/New_York');
    expect(res.body.reading_days).toHaveLength(18);
    expect(res.body.reading_days[0]).toEqual({ day: '2026-10-01', readings: 2 });
    expect(res.body.entries.map((e) => [e.date, e.duration_minutes, e.interactive])).toEqual([
      ['2026-10-03', 10, false],
      ['2026-10-09', 15, true],
    ]);
    expect(res.body.entries[0]!.logged_by).toBe('Test provider');
    expect(await lastAuditOf(server, 'billing.patient')).toMatchObject({
      outcome: 'success',
      resource_id: String(ids.full),
    });
  });

  it('lists the interactive mark with tracking entries', async () => {
    const list = await providerA.get<{ items: { interactive: boolean }[] }>(`/api/patients/${ids.full}/sessions`);
    expect(list.body.items.map((i) => i.interactive)).toEqual([true, false]);
  });
});

describe('a closed month stays as it was closed', () => {
  const csvOf = async (query: string) =>
    (await providerA.request('GET', `${billingExportPath}?${query}`)).body as unknown as string;
  const evidenceOf = async (key: string) =>
    (await providerA.get<PatientBilling>(`${patientBillingPath(ids[key]!)}?month=2026-10`)).body;
  /** The database's refusal code of a statement run as the portal's runtime role. */
  const codeOf = async (statement: string, params: unknown[] = []) =>
    server.db.pool.query(statement, params).then(
      () => 'accepted',
      (err: { code?: string }) => err.code,
    );
  let closedCsv: string;
  let closedReport: BillingReport;
  let closedEvidence: PatientBilling;

  beforeAll(async () => {
    expect((await admin.post(billingClosePath('2026-10'))).status).toBe(200);
    closedCsv = await csvOf('month=2026-10');
    closedReport = (await report(providerA, 'month=2026-10')).body;
    closedEvidence = await evidenceOf('full');
    expect(closedReport.closed).toBe(true);
    expect(closedCsv).toContain('Ada Full');
  });

  it('un-enrolling a patient does not remove a line from the closed month CSV', async () => {
    // Enrollment is the patient's current state; November's day is open, so the portal may change it.
    await setRpmEnrollment(server.db.pool, ids.full!, false);
    try {
      expect(await csvOf('month=2026-10')).toBe(closedCsv);
      expect((await report(providerA, 'month=2026-10')).body).toEqual(closedReport);
    } finally {
      await setRpmEnrollment(server.db.pool, ids.full!, true);
    }
  });

  it('a back-dated webhook reading does not change the closed month evidence', async () => {
    // As the owner, the one role that may still write into a closed month (a repair by hand).
    await buildReading(server.db.ownerPool, ids.full!, {
      source: 'CUFF-1',
      at: '2026-10-25T16:00:00Z',
      systolic: 120,
      diastolic: 80,
    });
    expect(await evidenceOf('full')).toEqual(closedEvidence);
    expect(closedEvidence.reading_days).toHaveLength(18);
    expect((await report(providerA, 'month=2026-10')).body).toEqual(closedReport);
    expect(await csvOf('month=2026-10')).toBe(closedCsv);
  });

  it('the runtime role cannot insert, move or delete a reading of a closed month', async () => {
    const insert = `INSERT INTO observations (patient_id, source, created_at, kind, components, unit)
                    VALUES ($1, 'CUFF-1', $2, 'blood_pressure', '{"systolic": 120, "diastolic": 80}', 'mm[Hg]')`;
    expect(await codeOf(insert, [ids.full, '2026-10-26T16:00:00Z'])).toBe(CLOSED_MONTH_SQLSTATE);
    // Month membership is the organization's: 02:00 UTC on November 1 is October 31 in New York.
    expect(await codeOf(insert, [ids.full, '2026-11-01T02:00:00Z'])).toBe(CLOSED_MONTH_SQLSTATE);
    expect(await codeOf(insert, [ids.full, '2026-11-01T05:00:00Z'])).toBe('accepted');
    const october = `SELECT id FROM observations WHERE patient_id = $1 AND created_at = '2026-10-01T16:00:00Z'`;
    expect(
      await codeOf(`UPDATE observations SET created_at = '2026-11-02T16:00:00Z' WHERE id = (${october})`, [ids.full]),
    ).toBe(CLOSED_MONTH_SQLSTATE);
    expect(await codeOf(`DELETE FROM observations WHERE id = (${october})`, [ids.full])).toBe(CLOSED_MONTH_SQLSTATE);
  });

  it('tells ingestion which readings of a batch fall in a closed month, in the organization time zone', async () => {
    const answer = await readingsInClosedMonths(server.db.pool, [
      { patientId: ids.full!, at: '2026-10-15T12:00:00Z' },
      { patientId: ids.full!, at: '2026-11-01T02:00:00Z' },
      { patientId: ids.full!, at: '2026-11-01T05:00:00Z' },
      { patientId: ids.other!, at: '2026-12-01T12:00:00Z' },
    ]);
    expect(answer).toEqual([true, true, false, false]);
  });

  it('the runtime role cannot delete a close', async () => {
    expect(await codeOf(`DELETE FROM billing_closed_months WHERE month = '2026-10-01'`)).toBe(CLOSED_MONTH_SQLSTATE);
    expect(await codeOf(`UPDATE billing_closed_months SET month = '2026-08-01' WHERE month = '2026-10-01'`)).toBe(
      CLOSED_MONTH_SQLSTATE,
    );
    expect(await codeOf(`DELETE FROM billing_month_snapshots WHERE month = '2026-10-01'`)).toBe(CLOSED_MONTH_SQLSTATE);
    expect(
      await codeOf(
        `INSERT INTO billing_month_snapshots (month, patient_id, organization_id, enrolled, position, line, claim, evidence)
         SELECT month, $1, organization_id, true, -1, line, claim, evidence FROM billing_month_snapshots WHERE month = '2026-10-01' LIMIT 1`,
        [ids.notEnrolled],
      ),
    ).toBe(CLOSED_MONTH_SQLSTATE);
    expect((await report(providerA, 'month=2026-10')).body.closed).toBe(true);
  });

  it('the runtime role cannot update a closed month tracking row', async () => {
    const entry = `SELECT id FROM tracking_entries WHERE patient_id = $1 AND date = '2026-10-03'`;
    expect(await codeOf(`UPDATE tracking_entries SET duration_minutes = 60 WHERE id = (${entry})`, [ids.full])).toBe(
      CLOSED_MONTH_SQLSTATE,
    );
    expect(await codeOf(`UPDATE tracking_entries SET date = '2026-11-03' WHERE id = (${entry})`, [ids.full])).toBe(
      CLOSED_MONTH_SQLSTATE,
    );
    expect(await codeOf(`DELETE FROM tracking_entries WHERE id = (${entry})`, [ids.full])).toBe(CLOSED_MONTH_SQLSTATE);
    expect(
      await codeOf(`INSERT INTO tracking_entries (patient_id, date, duration_minutes) VALUES ($1, '2026-10-30', 5)`, [
        ids.full,
      ]),
    ).toBe(CLOSED_MONTH_SQLSTATE);
    // The owner may still repair a row.
    await server.db.ownerPool.query(`UPDATE tracking_entries SET notes = 'repaired' WHERE id = (${entry})`, [
      ids.full,
    ]);
  });

  it('answers a change the database refuses with the closed-month conflict, not a server error', async () => {
    const res = await providerA.post<{ message: string }>(`/api/patients/${ids.full}/vitals`, {
      measured_at: '2026-10-27T16:00:00Z',
      systolic: 120,
      diastolic: 80,
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(BillingErrors.monthClosed);
  });

  it("refuses an enrollment change while the organization's day is in a closed month", async () => {
    // The month of today in New York, closed by hand as an administrator would in the hours after a
    // UTC close; the close is taken back afterwards as the owner.
    const month = await closeMonth(server.db.ownerPool, { currentIn: 'America/New_York' });
    try {
      expect(await codeOf('UPDATE patients SET enrolled_rpm = false WHERE id = $1', [ids.full])).toBe(
        CLOSED_MONTH_SQLSTATE,
      );
      expect(await codeOf(`UPDATE patients SET enrollment_status = 'Paused' WHERE id = $1`, [ids.full])).toBe(
        CLOSED_MONTH_SQLSTATE,
      );
      // Other fields of the patient stay editable.
      expect(await codeOf(`UPDATE patients SET middle_name = 'Q' WHERE id = $1`, [ids.full])).toBe('accepted');
    } finally {
      await reopenMonth(server.db.ownerPool, month);
    }
  });
});
