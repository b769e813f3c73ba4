import {
  BillingErrors,
  CLOSED_MONTH_SQLSTATE,
  billingClaimsSentPath,
  billingClosePath,
  billingReopenPath,
  patientBillingPath,
  type BillingClaimsSent,
  type BillingReopening,
  type BillingReport,
  type Patient,
  type PatientUpdate,
  type PatientBilling,
} from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrganization,
  createStaff,
  signInNewStaff,
  type ApiClient,
  type TestServer,
  startTestServer,
} from '../../../test/support/http.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';
import {
  buildDevice,
  buildInsurances,
  buildPatient,
  buildReadings,
  dateAssignmentEnd,
  dateSpanEdge,
  oldStyleSnapshot,
  reopenMonth,
  setClaimFacts,
  unassignDevice,
} from '../../../test/support/factories.ts';

/**
 * The care month's billing rules over HTTP: days a patient was not active earn nothing, an admin
 * reopens a closed month with a reason until its claims are sent, and the evidence names who the
 * claim is for. Every date is fixed (months of 2026, in New York).
 */
let server: TestServer;
let admin: ApiClient;
let provider: ApiClient;
let org: number;

beforeAll(async () => {
  server = await startTestServer();
  org = (await createOrganization(server)).id;
  admin = await signInNewStaff(server, 'admin', null);
  provider = await signInNewStaff(server, 'provider', org);
});
afterAll(async () => server?.close());

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** Noon in New York on these days of a 2026 month ('10' for October). */
const noons = (month: string, days: number[]) =>
  days.map((d) => `2026-${month}-${String(d).padStart(2, '0')}T16:00:00Z`);
const addReadings = (patientId: number, instants: string[]) =>
  buildReadings(
    server.db.pool,
    patientId,
    instants.map((at) => ({ at, source: 'CUFF-1', systolic: 120, diastolic: 80 })),
  );
const logTime = (client: ApiClient, patientId: number, date: string, minutes: number, contact?: 'phone') =>
  client.post(`/api/patients/${patientId}/sessions`, {
    date,
    duration_minutes: minutes,
    ...(contact ? { contact_type: contact } : {}),
  });
const report = async (month: string) => (await provider.get<BillingReport>(`/api/billing?month=${month}`)).body;
const rowOf = (r: BillingReport, patientId: number) => r.rows.find((row) => row.patient_id === patientId);

/**
 * Changes the patient's enrollment status through the API, as staff do; the database records the
 * change at the present instant, which is then moved to `at` (the test plays a past month).
 */
async function setStatusAt(patientId: number, status: 'Active' | 'Paused', at: string) {
  const p = (await provider.get<Patient>(`/api/patients/${patientId}`)).body;
  const res = await provider.put(`/api/patients/${patientId}`, {
    first_name: p.first_name,
    middle_name: p.middle_name,
    last_name: p.last_name,
    date_of_birth: p.date_of_birth,
    gender: p.gender,
    organization_id: p.organization_id,
    primary_provider_id: p.primary_provider_id,
    enrolled_rpm: p.enrolled_rpm,
    enrollment_status: status,
  } satisfies PatientUpdate);
  expect(res.body).toMatchObject({ enrollment_status: status });
  const rowCount = await dateSpanEdge(server.db.ownerPool, patientId, status === 'Paused' ? 'end' : 'start', at);
  expect(rowCount).toBe(1);
}

describe('days a patient was not active earn nothing', () => {
  let pausedMid: number;
  let pausedAll: number;

  beforeAll(async () => {
    // Active, paused on October 9 (08:00 in New York), active again on October 24 (08:00): the
    // readings go on every day, the tracking time too.
    pausedMid = await buildPatient(server.db.pool, {
      organizationId: org,
      firstName: 'Paula',
      lastName: 'Midmonth',
      enrolledRpm: true,
      enrollmentStatus: 'Active',
    });
    await addReadings(pausedMid, noons('10', range(1, 31)));
    await logTime(provider, pausedMid, '2026-10-05', 8, 'phone');
    // The day of the pause: active part of that day, so its time counts.
    await logTime(provider, pausedMid, '2026-10-09', 2);
    await logTime(provider, pausedMid, '2026-10-15', 10);
    await logTime(provider, pausedMid, '2026-10-25', 5);
    await setStatusAt(pausedMid, 'Paused', '2026-10-09T12:00:00Z');
    await setStatusAt(pausedMid, 'Active', '2026-10-24T12:00:00Z');

    // Enrolled but paused the whole month: readings and a call every week.
    pausedAll = await buildPatient(server.db.pool, {
      organizationId: org,
      firstName: 'Pia',
      lastName: 'Allpaused',
      enrolledRpm: true,
      enrollmentStatus: 'Paused',
    });
    await addReadings(pausedAll, noons('10', range(1, 31)));
    for (const day of ['02', '09', '16', '23']) await logTime(provider, pausedAll, `2026-10-${day}`, 10, 'phone');
  });

  it('counts the readings before the pause and after the return, not between', async () => {
    const row = rowOf(await report('2026-10'), pausedMid)!;
    // Oct 1–8 and Oct 24–30 of the period Oct 1–30: 15 days, so 99445 and not 99454.
    expect(row).toMatchObject({ period_start: '2026-10-01', period_end: '2026-10-30', device_days: 15 });
    // 8 + 2 + 5 minutes: the 10 of October 15 (paused) do not count: 99470, not 99457.
    expect(row).toMatchObject({ minutes: 15, interactive: true });
    expect(row.codes.map((c) => c.code)).toEqual(['99453', '99445', '99470']);
  });

  it('shows the same days and entries as evidence', async () => {
    const evidence = (await provider.get<PatientBilling>(`${patientBillingPath(pausedMid)}?month=2026-10`)).body;
    expect(evidence.reading_days.map((d) => d.day)).toEqual([
      ...range(1, 8).map((d) => `2026-10-0${d}`),
      ...range(24, 31).map((d) => `2026-10-${d}`),
    ]);
    expect(evidence.entries.map((e) => [e.date, e.duration_minutes, e.contact_type])).toEqual([
      ['2026-10-05', 8, 'phone'],
      ['2026-10-09', 2, null],
      ['2026-10-25', 5, null],
    ]);
  });

  it('gives a patient paused all month nothing, although enrolled', async () => {
    const row = rowOf(await report('2026-10'), pausedAll)!;
    expect(row).toMatchObject({ device_days: 0, minutes: 0, interactive: false, codes: [] });
  });
});

describe('reopening a closed month', () => {
  let patient: number;

  beforeAll(async () => {
    patient = await buildPatient(server.db.pool, {
      organizationId: org,
      firstName: 'Rita',
      lastName: 'Reopen',
      enrolledRpm: true,
    });
    await addReadings(patient, noons('09', range(1, 10)));
    await logTime(provider, patient, '2026-09-10', 12, 'phone');
    expect((await admin.post(billingClosePath('2026-09'))).status).toBe(200);
  });

  it('is refused to a provider, and audited', async () => {
    const res = await provider.post(billingReopenPath('2026-09'), { reason: 'Wrong minutes' });
    expect(res.status).toBe(403);
    expect(await lastAuditOf(server, 'access.denied')).toMatchObject({
      outcome: 'denied',
      resource_id: 'POST /api/billing/:month/reopen',
    });
    expect((await report('2026-09')).closed).toBe(true);
  });

  it('needs a reason', async () => {
    for (const body of [{}, { reason: '' }, { reason: '   ' }]) {
      expect((await admin.post(billingReopenPath('2026-09'), body)).status).toBe(400);
    }
  });

  it('refuses a month that is not closed', async () => {
    const res = await admin.post<{ message: string }>(billingReopenPath('2026-08'), { reason: 'Nothing to reopen' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(BillingErrors.notClosed);
    expect(await lastAuditOf(server, 'billing.reopen')).toMatchObject({ outcome: 'failure', resource_id: '2026-08' });
  });

  it('lets an admin reopen with a reason: tracking time and readings are accepted again, a new close takes a fresh snapshot', async () => {
    expect((await logTime(provider, patient, '2026-09-20', 10)).status).toBe(409);
    const reason = 'Minutes of a call on Sep 20 were missing';
    const res = await admin.post<BillingReopening>(billingReopenPath('2026-09'), { reason });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ month: '2026-09', closed: false, reopened_at: expect.any(String) });
    const audited = await lastAuditOf(server, 'billing.reopen');
    expect(audited).toMatchObject({
      outcome: 'success',
      resource_id: '2026-09',
      details: { reason_length: reason.length },
    });
    expect(JSON.stringify(audited)).not.toContain('Sep 20');
    const { rows } = await server.db.pool.query(
      'SELECT reason, reopened_by FROM billing_month_reopenings WHERE month = $1',
      ['2026-09-01'],
    );
    expect(rows).toEqual([{ reason, reopened_by: expect.any(Number) }]);

    expect((await report('2026-09')).closed).toBe(false);
    expect((await logTime(provider, patient, '2026-09-20', 10)).status).toBe(201);
    // The runtime role may write readings of the month again.
    await addReadings(patient, noons('09', [11]));

    expect((await admin.post(billingClosePath('2026-09'))).status).toBe(200);
    const again = await report('2026-09');
    expect(again.closed).toBe(true);
    expect(rowOf(again, patient)).toMatchObject({ device_days: 11, minutes: 22 });
    expect(rowOf(again, patient)!.codes.map((c) => c.code)).toContain('99457');
    // Closed again, the month is protected again.
    expect(
      await reopenMonth(server.db.pool, '2026-09-01').then(
        () => 'accepted',
        (err: { code?: string }) => err.code,
      ),
    ).toBe(CLOSED_MONTH_SQLSTATE);
  });
});

describe('marking the claims sent', () => {
  beforeAll(async () => {
    expect((await admin.post(billingClosePath('2026-07'))).status).toBe(200);
  });

  it('is refused to a provider, and audited', async () => {
    expect((await provider.post(billingClaimsSentPath('2026-07'))).status).toBe(403);
    expect(await lastAuditOf(server, 'access.denied')).toMatchObject({
      resource_id: 'POST /api/billing/:month/claims-sent',
    });
  });

  it('refuses a month that is not closed', async () => {
    const res = await admin.post<{ message: string }>(billingClaimsSentPath('2026-06'));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(BillingErrors.notClosed);
    expect(await lastAuditOf(server, 'billing.claims_sent')).toMatchObject({
      outcome: 'failure',
      resource_id: '2026-06',
    });
  });

  it('marks them once, shows when in the report, and the month can no longer be reopened', async () => {
    const res = await admin.post<BillingClaimsSent>(billingClaimsSentPath('2026-07'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ month: '2026-07', claims_sent_at: expect.any(String) });
    expect(await lastAuditOf(server, 'billing.claims_sent')).toMatchObject({
      outcome: 'success',
      resource_id: '2026-07',
    });
    const july = await report('2026-07');
    expect(july).toMatchObject({ closed: true, claims_sent_at: res.body.claims_sent_at });
    expect((await report('2026-10')).claims_sent_at).toBeNull();

    const twice = await admin.post<{ message: string }>(billingClaimsSentPath('2026-07'));
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(BillingErrors.claimsAlreadySent);

    const reopen = await admin.post<{ message: string }>(billingReopenPath('2026-07'), { reason: 'Too late' });
    expect(reopen.status).toBe(409);
    expect(reopen.body.message).toBe(BillingErrors.claimsSent);
    expect(await lastAuditOf(server, 'billing.reopen')).toMatchObject({ outcome: 'failure', resource_id: '2026-07' });
    expect((await report('2026-07')).closed).toBe(true);
  });
});

describe('the evidence names who the claim is for', () => {
  let patient: number;
  const evidenceOf = async (month: string) =>
    (await provider.get<PatientBilling>(`${patientBillingPath(patient)}?month=${month}`)).body;

  beforeAll(async () => {
    const ordering = await createStaff(server, { role: 'provider', organizationId: org });
    patient = await buildPatient(server.db.pool, {
      organizationId: org,
      firstName: 'Evan',
      middleName: 'Q',
      lastName: 'Evidence',
      dateOfBirth: '1948-05-17',
      enrolledRpm: true,
    });
    await buildInsurances(server.db.pool, patient, [
      { type: 'Medicare', policyNumber: '1EG4-TE5-MK72' },
      { type: 'Private', policyNumber: 'SUP-55' },
    ]);
    await setClaimFacts(server.db.pool, patient, {
      orderingProviderId: ordering.id,
      consentDate: '2026-04-30',
      diagnosisCodes: ['I10', 'E11.9'],
    });
    // A cuff the whole spring, and a scale given in May, taken back at the end of May.
    await buildDevice(server.db.pool, {
      deviceId: 'CUFF-SN-0042',
      model: 'BP7000',
      type: 'blood_pressure',
      patientId: patient,
      assignedFrom: '2026-04-01T00:00:00Z',
    });
    const scale = await buildDevice(server.db.pool, {
      deviceId: 'SCALE-SN-7',
      model: null,
      type: null,
      patientId: patient,
      assignedFrom: '2026-05-02T00:00:00Z',
    });
    // Taken back now (the database closes the assignment), then dated back to May 31.
    await unassignDevice(server.db.pool, scale);
    await dateAssignmentEnd(server.db.ownerPool, scale, '2026-05-31T12:00:00Z');
    await addReadings(patient, noons('05', range(1, 20)));
    await logTime(provider, patient, '2026-05-12', 9, 'phone');
  });

  const expected = {
    name: 'Evan Q Evidence',
    date_of_birth: '1948-05-17',
    insurances: [
      { type: 'Medicare', policy_number: '1EG4-TE5-MK72' },
      { type: 'Private', policy_number: 'SUP-55' },
    ],
    ordering_provider: 'Test provider',
    consent_date: '2026-04-30',
    diagnosis_codes: ['I10', 'E11.9'],
  };

  it('lists date of birth, insurances with member ids, the devices of the month with serials, ordering provider, consent and diagnoses', async () => {
    const may = await evidenceOf('2026-05');
    expect(may.patient).toEqual({
      ...expected,
      devices: [
        { name: 'BP7000 blood_pressure', serial: 'CUFF-SN-0042' },
        { name: 'SCALE-SN-7', serial: 'SCALE-SN-7' },
      ],
    });
    // In June the scale was gone.
    expect((await evidenceOf('2026-06')).patient.devices).toEqual([
      { name: 'BP7000 blood_pressure', serial: 'CUFF-SN-0042' },
    ]);
  });

  it('keeps them as they were when the month closed', async () => {
    expect((await admin.post(billingClosePath('2026-05'))).status).toBe(200);
    await setClaimFacts(server.db.pool, patient, { diagnosisCodes: ['I50.22'], consentDate: null });
    const may = await evidenceOf('2026-05');
    expect(may.closed).toBe(true);
    expect(may.patient).toMatchObject({ diagnosis_codes: ['I10', 'E11.9'], consent_date: '2026-04-30' });
  });

  it('reads them live for a month closed before they were kept', async () => {
    // A snapshot as closing wrote it before this change: no patient block, entries without a
    // contact type or activity (a repair as the owner).
    await oldStyleSnapshot(server.db.ownerPool, '2026-05-01', patient);
    const may = await evidenceOf('2026-05');
    expect(may.closed).toBe(true);
    expect(may.patient).toMatchObject({ name: 'Evan Q Evidence', diagnosis_codes: ['I50.22'], consent_date: null });
    expect(may.row.device_days).toBe(20);
    expect(may.entries).toEqual([
      expect.objectContaining({ date: '2026-05-12', duration_minutes: 9, contact_type: null, activity: null }),
    ]);
  });
});
