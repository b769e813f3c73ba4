import {
  BillingErrors,
  IngestionErrors,
  KG_PER_LB,
  MANUAL_SOURCE,
  MeasurementTexts,
  type Observation,
  type ObservationPage,
  type ObservationSummary,
} from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient, startPatientFixture, type TestServer } from '../../../test/support/http.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';
import { buildPatient, buildReadings, closeMonth } from '../../../test/support/factories.ts';

const HOUR = 60 * 60 * 1000;
const series = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

let server: TestServer;
let provider: ApiClient;
let organizationId: number;
let patientId: number;
let otherPatientId: number;

const path = (id: number, query = '') => `/api/patients/${id}/observations${query}`;

beforeAll(async () => {
  ({ server, provider, organizationId, patientId, otherPatientId } = await startPatientFixture('O'));
  // 12 weights one hour apart on 1 February 2026, 3 blood pressures, a glucose.
  await buildReadings(
    server.db.pool,
    patientId,
    series(12).map((g) => ({ at: new Date(Date.UTC(2026, 1, 1) + g * HOUR), kind: 'weight', components: { weight: 80 + g }, unit: 'kg', source: 'SCALE-1' })),
  );
  await buildReadings(
    server.db.pool,
    patientId,
    series(3).map((g) => ({ at: new Date(Date.UTC(2026, 1, 2) + g * HOUR), systolic: 120 + g, diastolic: 80, source: 'CUFF-1' })),
  );
  await buildReadings(server.db.pool, patientId, [{ at: '2026-02-03T08:00:00Z', kind: 'glucose', components: { glucose: 105 }, unit: 'mg/dL' }]);
  await buildReadings(server.db.pool, otherPatientId, [{ kind: 'weight', components: { weight: 70 }, unit: 'kg' }]);
});
afterAll(async () => server?.close());

describe('GET /api/patients/{id}/observations', () => {
  it('pages one kind newest first, in canonical units, with the total, and audits the read', async () => {
    const res = await provider.get<ObservationPage>(path(patientId, '?kind=weight&limit=5&offset=5'));
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(12);
    expect(res.body.items.map((o) => o.components.weight)).toEqual([87, 86, 85, 84, 83]);
    expect(res.body.items[0]).toEqual({
      id: expect.any(Number),
      kind: 'weight',
      created_at: '2026-02-01T07:00:00.000Z',
      components: { weight: 87 },
      unit: 'kg',
      source: 'SCALE-1',
    });
    const record = await lastAuditOf(server, 'observation.list');
    expect(record).toMatchObject({ outcome: 'success', resource_type: 'patient', resource_id: String(patientId) });
    expect(record.details).toMatchObject({ kind: 'weight', limit: 5, offset: 5, count: 5 });
  });

  it('counts per kind, and counts the range when one is given', async () => {
    const bp = await provider.get<ObservationPage>(path(patientId, '?kind=blood_pressure'));
    expect(bp.body.total).toBe(3);
    expect(bp.body.items[0]!.components).toEqual({ systolic: 123, diastolic: 80 });
    expect((await provider.get<ObservationPage>(path(patientId, '?kind=spo2'))).body).toEqual({ items: [], total: 0 });
    const ranged = await provider.get<ObservationPage>(
      path(patientId, '?kind=weight&from=2026-02-01T03:00:00.000Z&to=2026-02-01T06:00:00.000Z'),
    );
    expect(ranged.body.total).toBe(3);
    expect(ranged.body.items.map((o) => o.components.weight)).toEqual([85, 84, 83]);
  });

  it('refuses an unknown kind with the registry text, and bad paging', async () => {
    const res = await provider.get<{ message: string }>(path(patientId, '?kind=body_temperature'));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(MeasurementTexts.unknownKind('body_temperature'));
    expect(await lastAuditOf(server, 'observation.list')).toMatchObject({ outcome: 'failure', reason: 'unknown kind' });
    for (const q of ['', '?kind=weight&limit=0', '?kind=weight&limit=101', '?kind=weight&offset=-1', '?kind=Weight']) {
      expect((await provider.get(path(patientId, q))).status).toBe(400);
    }
  });

  it("answers 404 for another organization's patient (recorded) and 401 without a session", async () => {
    expect((await provider.get(path(otherPatientId, '?kind=weight'))).status).toBe(404);
    expect(await lastAuditOf(server, 'observation.list')).toMatchObject({
      outcome: 'denied',
      reason: 'patient of another organization',
      resource_id: String(otherPatientId),
    });
    expect((await provider.get(path(987654321, '?kind=weight'))).status).toBe(404);
    expect((await apiClient(server).get(path(patientId, '?kind=weight'))).status).toBe(401);
  });
});

describe('GET /api/patients/{id}/observations/summary', () => {
  it('answers each kind the patient has, in registry order, with its total and latest, in one audited read', async () => {
    const res = await provider.get<ObservationSummary>(path(patientId, '/summary'));
    expect(res.status).toBe(200);
    expect(res.body.kinds.map((k) => [k.kind, k.total])).toEqual([
      ['blood_pressure', 3],
      ['weight', 12],
      ['glucose', 1],
    ]);
    expect(res.body.kinds[1]!.latest).toMatchObject({ kind: 'weight', components: { weight: 92 }, created_at: '2026-02-01T12:00:00.000Z' });
    expect(await lastAuditOf(server, 'observation.summary')).toMatchObject({ outcome: 'success', resource_id: String(patientId) });
    const empty = await buildPatient(server.db.pool, { firstName: 'E', lastName: 'Empty', organizationId });
    expect((await provider.get<ObservationSummary>(path(empty, '/summary'))).body).toEqual({ kinds: [] });
  });

  it("answers 404 for another organization's patient and 401 without a session", async () => {
    expect((await provider.get(path(otherPatientId, '/summary'))).status).toBe(404);
    expect((await apiClient(server).get(path(patientId, '/summary'))).status).toBe(401);
  });
});

describe('POST /api/patients/{id}/observations', () => {
  const at = '2026-02-05T08:30:00.000Z';
  const total = async (kind: string) => (await provider.get<ObservationPage>(path(patientId, `?kind=${kind}`))).body.total;

  it('stores a manual weight given in pounds in kilograms, lists it, and audits it', async () => {
    const res = await provider.post<Observation>(path(patientId), { kind: 'weight', created_at: at, components: { weight: 180 }, unit: '[lb_av]' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      kind: 'weight',
      created_at: at,
      components: { weight: Math.round(180 * KG_PER_LB * 100) / 100 },
      unit: 'kg',
      source: MANUAL_SOURCE,
    });
    const { rows } = await server.db.pool.query(`SELECT components, unit, source FROM observations WHERE id = $1`, [res.body.id]);
    expect(rows[0]).toEqual({ components: { weight: 81.65 }, unit: 'kg', source: MANUAL_SOURCE });
    expect((await provider.get<ObservationPage>(path(patientId, '?kind=weight&limit=1'))).body.items[0]!.id).toBe(res.body.id);
    expect(await lastAuditOf(server, 'observation.create')).toMatchObject({
      outcome: 'success',
      resource_type: 'patient',
      resource_id: String(patientId),
      details: { observation_id: res.body.id, kind: 'weight', source: MANUAL_SOURCE },
    });
  });

  it('refuses an out-of-range weight with the registry message and stores nothing', async () => {
    const before = await total('weight');
    const res = await provider.post<{ message: string }>(path(patientId), { kind: 'weight', created_at: at, components: { weight: 512 } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(MeasurementTexts.outsideRange('Weight', '512', '20', '350', 'kg'));
    expect(await lastAuditOf(server, 'observation.create')).toMatchObject({ outcome: 'failure' });
    expect(await total('weight')).toBe(before);
  });

  it.each([
    [{ kind: 'weight', created_at: at, components: { weight: 80 }, unit: 'mmol/L' }, MeasurementTexts.unknownUnit('mmol/L', 'Weight')],
    [{ kind: 'weight', created_at: at, components: { mass: 80 } }, MeasurementTexts.unknownComponent('mass', 'Weight')],
    [{ kind: 'blood_pressure', created_at: at, components: { systolic: 120 } }, MeasurementTexts.missingComponent('Diastolic', 'blood pressure')],
    [{ kind: 'body_temperature', created_at: at, components: { temperature: 37 } }, MeasurementTexts.unknownKind('body_temperature')],
    [{ kind: 'weight', created_at: new Date(Date.now() + 3_600_000).toISOString(), components: { weight: 80 } }, IngestionErrors.future('created_at')],
    [{ kind: 'blood_pressure', created_at: at, components: { systolic: 90, diastolic: 90 } }, IngestionErrors.systolicAboveDiastolic('systolic', 'diastolic')],
  ])('refuses %o with its message and stores nothing', async (body, message) => {
    const before = (await provider.get<ObservationSummary>(path(patientId, '/summary'))).body;
    const res = await provider.post<{ message: string }>(path(patientId), body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect((await provider.get<ObservationSummary>(path(patientId, '/summary'))).body).toEqual(before);
  });

  it('stores a blood pressure as the vitals form does, seen in the vitals list too', async () => {
    const res = await provider.post<Observation>(path(patientId), {
      kind: 'blood_pressure',
      created_at: at,
      components: { systolic: 131, diastolic: 85, pulse: 70 },
      unit: 'mm[Hg]',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'blood_pressure', components: { systolic: 131, diastolic: 85, pulse: 70 }, unit: 'mm[Hg]' });
    const vitals = await provider.get<{ items: { created_at: string; systolic: number; source: string }[] }>(`/api/patients/${patientId}/vitals?limit=100`);
    expect(vitals.body.items.find((v) => v.created_at === at)).toMatchObject({ systolic: 131, source: MANUAL_SOURCE });
  });

  it('refuses a reading dated in a month closed for billing (409) and one with an unknown body field', async () => {
    await closeMonth(server.db.pool, { month: '2025-11-01' });
    const res = await provider.post<{ message: string }>(path(patientId), { kind: 'weight', created_at: '2025-11-15T12:00:00.000Z', components: { weight: 80 } });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(BillingErrors.monthClosed);
    expect(await lastAuditOf(server, 'observation.create')).toMatchObject({ outcome: 'failure', reason: 'month closed for billing' });
    expect((await provider.post(path(patientId), { kind: 'weight', created_at: at, components: { weight: 80 }, extra: 1 })).status).toBe(400);
  });

  it("answers 404 for another organization's patient and 401 without a session", async () => {
    const body = { kind: 'weight', created_at: at, components: { weight: 80 } };
    expect((await provider.post(path(otherPatientId), body)).status).toBe(404);
    expect(await lastAuditOf(server, 'observation.create')).toMatchObject({ outcome: 'denied', resource_id: String(otherPatientId) });
    expect((await apiClient(server).post(path(patientId), body)).status).toBe(401);
  });
});
