import { OUTREACH_NOTES_MAX_LENGTH, type Outreach, type OutreachPage } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInNewStaff, startPatientFixture, type ApiClient, type TestServer } from '../../../test/support/http.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';

let server: TestServer;
let provider: ApiClient;
let otherProvider: ApiClient;
let admin: ApiClient;
let patientId: number;
let otherPatientId: number;
let otherOrganization: number;

beforeAll(async () => {
  ({ server, provider, patientId, otherPatientId } = await startPatientFixture('Outreach'));
  const { rows } = await server.db.pool.query<{ organization_id: number }>('SELECT organization_id FROM patients WHERE id = $1', [
    otherPatientId,
  ]);
  otherOrganization = rows[0]!.organization_id;
  otherProvider = await signInNewStaff(server, 'provider', otherOrganization);
  admin = await signInNewStaff(server, 'admin', null);
});
afterAll(async () => server?.close());

const path = (id: number) => `/api/patients/${id}/outreach`;

describe('outreach on the patient record', () => {
  it('records an outreach with who and when, lists it newest first, and audits both without the notes', async () => {
    const first = await provider.post<Outreach>(path(patientId), { outcome: 'left_message', notes: '  ' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ patient_id: patientId, outcome: 'left_message', notes: null, user_name: expect.any(String) });
    const second = await provider.post<Outreach>(path(patientId), { outcome: 'device_problem', notes: 'Cuff does not pair' });
    expect(await lastAuditOf(server, 'patient.outreach_create')).toMatchObject({
      outcome: 'success',
      resource_type: 'patient',
      resource_id: String(patientId),
      details: { outreach_id: second.body.id, outcome: 'device_problem' },
    });
    expect(JSON.stringify((await lastAuditOf(server, 'patient.outreach_create')).details)).not.toContain('Cuff');
    const list = await provider.get<OutreachPage>(path(patientId));
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.items.map((o) => o.outcome)).toEqual(['device_problem', 'left_message']);
    expect(await lastAuditOf(server, 'patient.outreach_list')).toMatchObject({ outcome: 'success', resource_id: String(patientId) });
    // Admins may too.
    expect((await admin.post(path(patientId), { outcome: 'shipped_replacement' })).status).toBe(201);
  });

  it("refuses another organization's provider with 404, records the refusal, and stores nothing", async () => {
    const before = (await admin.get<OutreachPage>(path(patientId))).body.total;
    const write = await otherProvider.post(path(patientId), { outcome: 'called' });
    expect(write.status).toBe(404);
    expect(await lastAuditOf(server, 'patient.outreach_create')).toMatchObject({ outcome: 'denied', resource_id: String(patientId) });
    const read = await otherProvider.get(path(patientId));
    expect(read.status).toBe(404);
    expect(await lastAuditOf(server, 'patient.outreach_list')).toMatchObject({ outcome: 'denied', resource_id: String(patientId) });
    expect((await admin.get<OutreachPage>(path(patientId))).body.total).toBe(before);
    // Their own organization's patient is theirs to work.
    expect((await otherProvider.post(path(otherPatientId), { outcome: 'called' })).status).toBe(201);
  });

  it('refuses an unknown outcome and notes over the limit', async () => {
    expect((await provider.post(path(patientId), { outcome: 'emailed' })).status).toBe(400);
    const long = 'x'.repeat(OUTREACH_NOTES_MAX_LENGTH + 1);
    expect((await provider.post(path(patientId), { outcome: 'called', notes: long })).status).toBe(400);
    expect((await provider.post(path(patientId), { outcome: 'called', notes: long.slice(1) })).status).toBe(201);
  });
});
