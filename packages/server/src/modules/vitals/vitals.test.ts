import { IngestionErrors, MANUAL_SOURCE, type Vital, type VitalPage, type VitalSeries } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient, startPatientFixture, type TestServer } from '../../../test/support/http.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';
import { buildPatient, buildReading, buildReadings, moveReadings, removePatient, removeReadings } from '../../../test/support/factories.ts';

const HOUR = 60 * 60 * 1000;
/** 1, 2, … n: the readings' positions in a series. */
const series = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

let server: TestServer;
let provider: ApiClient;
let organizationId: number;
let patientId: number;
let otherPatientId: number;

beforeAll(async () => {
  ({ server, provider, organizationId, patientId, otherPatientId } = await startPatientFixture('V'));
  // 25 readings one hour apart in January (outside the chart's recent window).
  await buildReadings(
    server.db.pool,
    patientId,
    series(25).map((g) => ({ at: new Date(Date.UTC(2026, 0, 1) + g * HOUR), systolic: 100 + g, diastolic: 60 + g, pulse: null })),
  );
  await buildReading(server.db.pool, otherPatientId, { at: { ago: '1 hour' }, systolic: 150, diastolic: 95 });
});
afterAll(async () => server?.close());

describe('GET /api/patients/{id}/vitals', () => {
  it('pages newest first with a total, 10 by default, and audits the read', async () => {
    const res = await provider.get<VitalPage>(`/api/patients/${patientId}/vitals`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(25);
    expect(res.body.items).toHaveLength(10);
    expect(res.body.items[0]).toEqual({ created_at: '2026-01-02T01:00:00.000Z', systolic: 125, diastolic: 85, pulse: null, source: 'manual' });
    const page3 = await provider.get<VitalPage>(`/api/patients/${patientId}/vitals?limit=10&offset=20`);
    expect(page3.body.items.map((v) => v.systolic)).toEqual([105, 104, 103, 102, 101]);
    const record = await lastAuditOf(server, 'vitals.list');
    expect(record).toMatchObject({ outcome: 'success', resource_type: 'patient', resource_id: String(patientId) });
    expect(record.details).toMatchObject({ limit: 10, offset: 20, count: 5 });
  });

  it('writes exactly one record per read, with who, from where and which request, and none beside a refusal', async () => {
    const recordsOf = async (requestId: string) =>
      (
        await server.db.pool.query<{ user_id: number | null; ip_address: string; user_agent: string | null; outcome: string; details: unknown }>(
          `SELECT user_id, ip_address, user_agent, outcome, details FROM audit_logs WHERE request_id = $1`,
          [requestId],
        )
      ).rows;
    // The fixture's one provider, of the patient's organization.
    const me = (
      await server.db.pool.query<{ id: number }>(
        `SELECT u.id FROM users u JOIN patients p ON p.organization_id = u.organization_id WHERE p.id = $1 AND u.role = 'provider'`,
        [patientId],
      )
    ).rows[0]!.id;
    const read = await provider.request('GET', `/api/patients/${patientId}/vitals?limit=3`, { headers: { 'user-agent': 'vitals-test/1' } });
    expect(read.status).toBe(200);
    expect(await recordsOf(String(read.headers['x-request-id']))).toEqual([
      { user_id: me, ip_address: '127.0.0.1', user_agent: 'vitals-test/1', outcome: 'success', details: { limit: 3, offset: 0, count: 3 } },
    ]);
    const refused = await provider.get(`/api/patients/${otherPatientId}/vitals`);
    expect(refused.status).toBe(404);
    expect((await recordsOf(String(refused.headers['x-request-id']))).map((r) => r.outcome)).toEqual(['denied']);
  });

  it.each(['limit=0', 'limit=101', 'offset=-1', 'limit=abc', 'sort=asc'])('refuses %s with 400', async (q) => {
    expect((await provider.get(`/api/patients/${patientId}/vitals?${q}`)).status).toBe(400);
  });

  it("answers 404 for another organization's patient and 401 without a session", async () => {
    expect((await provider.get(`/api/patients/${otherPatientId}/vitals`)).status).toBe(404);
    expect((await provider.get(`/api/patients/${otherPatientId}/vitals/series`)).status).toBe(404);
    expect((await apiClient(server).get(`/api/patients/${patientId}/vitals`)).status).toBe(401);
  });

  it('records each refusal with its reason, and answers an empty page for a patient without readings', async () => {
    const refusal = async () =>
      (
        await server.db.pool.query<{ outcome: string; reason: string; resource_id: string }>(
          `SELECT outcome, reason, resource_id FROM audit_logs WHERE action = 'vitals.list' ORDER BY id DESC LIMIT 1`,
        )
      ).rows[0];
    expect((await provider.get(`/api/patients/${otherPatientId}/vitals?limit=10`)).status).toBe(404);
    expect(await refusal()).toEqual({ outcome: 'denied', reason: 'patient of another organization', resource_id: String(otherPatientId) });
    expect((await provider.get('/api/patients/987654321/vitals')).status).toBe(404);
    expect(await refusal()).toEqual({ outcome: 'failure', reason: 'no such patient', resource_id: '987654321' });

    const empty = await buildPatient(server.db.pool, { firstName: 'E', lastName: 'Empty', organizationId });
    const res = await provider.get<VitalPage>(`/api/patients/${empty}/vitals`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [], total: 0 });
    expect(await lastAuditOf(server, 'vitals.list')).toMatchObject({ outcome: 'success', resource_id: String(empty), details: { count: 0 } });
    // An offset past the end: the total still comes with the (empty) page.
    expect((await provider.get<VitalPage>(`/api/patients/${patientId}/vitals?offset=5000`)).body).toMatchObject({ items: [], total: 25 });
  });

  it('gives the chart a series of the recent days, oldest first', async () => {
    await buildReadings(server.db.pool, patientId, series(3).map((g) => ({ at: { ago: `${g} days` }, systolic: 120 + g, diastolic: 80 })));
    const res = await provider.get<VitalSeries>(`/api/patients/${patientId}/vitals/series?days=7`);
    expect(res.status).toBe(200);
    expect(res.body.systolic).toEqual([123, 122, 121]);
    expect(res.body.t[0]).toBeLessThan(res.body.t[2]!);
  });

  it('keeps total exact through bulk inserts, deletes, moves and a deleted patient', async () => {
    const pool = server.db.pool;
    const fresh = await buildPatient(pool, { firstName: 'C', lastName: 'Counter', organizationId });
    const total = async (id: number) => (await provider.get<VitalPage>(`/api/patients/${id}/vitals`)).body.total;
    const actual = async (id: number) =>
      (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM observations WHERE patient_id = $1', [id])).rows[0]!.n;
    expect(await total(fresh)).toBe(0);
    const ids = await buildReadings(pool, fresh, Array.from({ length: 500 }, () => ({ systolic: 120, diastolic: 80 })));
    expect(await total(fresh)).toBe(500);
    await removeReadings(pool, { ids: ids.filter((id) => id % 5 === 0) });
    expect(await total(fresh)).toBe(await actual(fresh));
    const before = await total(patientId);
    await moveReadings(pool, ids.filter((id) => id % 5 !== 0).slice(0, 7), patientId);
    expect(await total(patientId)).toBe(before + 7);
    expect(await total(fresh)).toBe(await actual(fresh));
    // A rolled-back insert leaves the count as it was.
    const client = await pool.connect();
    await client.query('BEGIN');
    await buildReading(client, fresh, { systolic: 120, diastolic: 80 });
    await client.query('ROLLBACK');
    client.release();
    expect(await total(fresh)).toBe(await actual(fresh));
    await removePatient(pool, fresh);
    expect((await pool.query('SELECT 1 FROM patient_observation_counts WHERE patient_id = $1', [fresh])).rowCount).toBe(0);
  });
});

describe('POST /api/patients/{id}/vitals', () => {
  const reading = { measured_at: '2026-01-03T08:30:00.000Z', systolic: 128, diastolic: 84, pulse: 71 };

  it('adds a manual reading, listed with source manual, and audits it', async () => {
    const res = await provider.post<Vital>(`/api/patients/${patientId}/vitals`, reading);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ created_at: reading.measured_at, systolic: 128, diastolic: 84, pulse: 71, source: MANUAL_SOURCE });
    const page = await provider.get<VitalPage>(`/api/patients/${patientId}/vitals?limit=100`);
    expect(page.body.items.find((v) => v.created_at === reading.measured_at)).toMatchObject({ source: MANUAL_SOURCE });
    expect(await lastAuditOf(server, 'vitals.create')).toMatchObject({ outcome: 'success', resource_type: 'patient', resource_id: String(patientId) });
  });

  it.each([
    [{ ...reading, systolic: 301 }, 400],
    [{ ...reading, diastolic: 19 }, 400],
    [{ ...reading, pulse: 301 }, 400],
    [{ ...reading, measured_at: 'yesterday' }, 400],
    [{ ...reading, extra: 1 }, 400],
  ])('refuses %o with %i and stores nothing', async (body, status) => {
    const before = (await provider.get<VitalPage>(`/api/patients/${patientId}/vitals`)).body.total;
    expect((await provider.post(`/api/patients/${patientId}/vitals`, body)).status).toBe(status);
    expect((await provider.get<VitalPage>(`/api/patients/${patientId}/vitals`)).body.total).toBe(before);
  });

  it('names the rule for systolic not above diastolic and a future time', async () => {
    const same = await provider.post<{ message: string }>(`/api/patients/${patientId}/vitals`, { ...reading, systolic: 90, diastolic: 90 });
    expect(same.status).toBe(400);
    expect(same.body.message).toBe(IngestionErrors.systolicAboveDiastolic('systolic', 'diastolic'));
    const future = await provider.post<{ message: string }>(`/api/patients/${patientId}/vitals`, {
      ...reading,
      measured_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(future.body.message).toBe(IngestionErrors.future('measured_at'));
    expect(await lastAuditOf(server, 'vitals.create')).toMatchObject({ outcome: 'failure' });
  });

  it("answers 404 for another organization's patient", async () => {
    expect((await provider.post(`/api/patients/${otherPatientId}/vitals`, reading)).status).toBe(404);
  });
});
