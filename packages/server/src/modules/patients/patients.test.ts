import { Validation, PatientErrors, ApiErrors, type PatientDetail, type PatientList } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createOrganization,
  createStaff,
  signIn,
  startTestServer,
  type ApiClient,
  type Staff,
  type TestServer,
} from '../../../test/support/http.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';
import { buildDevice } from '../../../test/support/factories.ts';

let server: TestServer;
let orgA: { id: number };
let orgB: { id: number };
let admin: ApiClient;
let providerA: ApiClient;
let staffA: Staff;
let staffB: Staff;

beforeAll(async () => {
  server = await startTestServer();
  orgA = await createOrganization(server);
  orgB = await createOrganization(server);
  const adminStaff = await createStaff(server, { role: 'admin', organizationId: orgA.id });
  staffA = await createStaff(server, { role: 'provider', organizationId: orgA.id });
  staffB = await createStaff(server, { role: 'provider', organizationId: orgB.id });
  admin = await signIn(server, adminStaff);
  providerA = await signIn(server, staffA);
});
afterAll(async () => server?.close());

const body = (over: Record<string, unknown> = {}) => ({
  first_name: 'Ada',
  middle_name: null,
  last_name: 'Lovelace',
  date_of_birth: '1950-12-10',
  gender: 'female',
  organization_id: orgA.id,
  primary_provider_id: staffA.id,
  enrolled_rpm: true,
  enrollment_status: 'Active',
  insurances: [
    { type: 'Private', provider_name: 'Acme', policy_number: 'P-1', policyholder: 'Ada', policyholder_birthdate: '1950-12-10' },
    { type: 'Medicare', provider_name: 'CMS', policy_number: 'M-1', policyholder: '', policyholder_birthdate: '' },
  ],
  ...over,
});

const lastAudit = (action: string) => lastAuditOf(server, action);
const insertDevice = (deviceId: string) => buildDevice(server.db.pool, { deviceId, model: 'BP-1', type: 'cuff' });

describe('POST /api/patients', () => {
  it('creates a patient with insurances, stores empty strings as null and audits it', async () => {
    const res = await providerA.post<PatientDetail>('/api/patients', body());
    expect(res.status).toBe(201);
    expect(res.body.first_name).toBe('Ada');
    expect(res.body.organization_name).toBeTruthy();
    expect(res.body.insurances).toHaveLength(2);
    expect(res.body.insurances[1]).toMatchObject({ type: 'Medicare', policyholder: null, policyholder_birthdate: null });
    expect(res.body.insurances[0]).toMatchObject({ policyholder: 'Ada', policyholder_birthdate: '1950-12-10' });
    const a = await lastAudit('patient.create');
    expect(a).toMatchObject({ outcome: 'success', resource_type: 'patient', resource_id: String(res.body.id) });
    // No health information in the audit details.
    expect(JSON.stringify(a.details)).not.toContain('Lovelace');
  });

  it.each([
    ['an unknown field', { nickname: 'x' }],
    ['a bad gender', { gender: 'robot' }],
    ['a bad insurance type', { insurances: [{ type: 'Gold', provider_name: 'x', policy_number: '1' }] }],
    ['a wrong type', { enrolled_rpm: 'yes' }],
    ['a string organization id', { organization_id: String(1) }],
    ['an unknown insurance field', { insurances: [{ type: 'Other', provider_name: 'x', policy_number: '1', extra: 1 }] }],
    ['a bad date', { date_of_birth: '10/12/1950' }],
  ])('refuses %s with 400', async (_label, over) => {
    const before = await server.db.pool.query('SELECT count(*)::int AS n FROM patients');
    const res = await providerA.post('/api/patients', body(over));
    expect(res.status).toBe(400);
    const after = await server.db.pool.query('SELECT count(*)::int AS n FROM patients');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('refuses policyholder fields on Medicare and audits the failure', async () => {
    const res = await providerA.post<{ message: string }>(
      '/api/patients',
      body({ insurances: [{ type: 'Medicare', provider_name: 'CMS', policy_number: 'M', policyholder: 'Someone' }] }),
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(PatientErrors.policyholderOnlyPrivate);
    expect(await lastAudit('patient.create')).toMatchObject({ outcome: 'failure' });
  });

  it('refuses blank first or last names with the form texts', async () => {
    const first = await providerA.post<{ message: string }>('/api/patients', body({ first_name: '   ' }));
    expect(first.status).toBe(400);
    expect(first.body.message).toBe(Validation.firstNameRequired);
    const last = await providerA.post<{ message: string }>('/api/patients', body({ last_name: '' }));
    expect(last.status).toBe(400);
    expect(last.body.message).toBe(Validation.lastNameRequired);
  });

  it('answers 401 without a session', async () => {
    const res = await apiClient(server).post('/api/patients', body());
    expect(res.status).toBe(401);
    expect((await apiClient(server).get('/api/patients')).status).toBe(401);
  });

  it('refuses a provider creating a patient in another organization, or with a provider from one', async () => {
    const res = await providerA.post('/api/patients', body({ organization_id: orgB.id, primary_provider_id: null }));
    expect(res.status).toBe(403);
    expect(await lastAudit('patient.create')).toMatchObject({ outcome: 'denied' });
    const other = await providerA.post<{ message: string }>('/api/patients', body({ primary_provider_id: staffB.id }));
    expect(other.status).toBe(400);
    expect(other.body.message).toBe(PatientErrors.providerNotInOrganization);
  });

  it('refuses a provider assigning devices, and saves nothing', async () => {
    const device = await insertDevice('NEW-PROV-1');
    const before = await server.db.pool.query('SELECT count(*)::int AS n FROM patients');
    const res = await providerA.post('/api/patients', body({ device_ids: [device] }));
    expect(res.status).toBe(403);
    const after = await server.db.pool.query('SELECT count(*)::int AS n FROM patients');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
});

describe('reading patients', () => {
  it('lists only the own organization for a provider, everything for an admin, with audit', async () => {
    const a = await admin.post<PatientDetail>('/api/patients', body({ first_name: 'Ben', organization_id: orgB.id, primary_provider_id: staffB.id }));
    expect(a.status).toBe(201);
    const mine = await providerA.get<PatientList>('/api/patients?limit=100');
    expect(mine.status).toBe(200);
    expect(mine.body.items.length).toBeGreaterThan(0);
    expect(mine.body.items.every((p) => p.organization_id === orgA.id)).toBe(true);
    expect(mine.body.items.some((p) => p.id === a.body.id)).toBe(false);
    expect(await lastAudit('patient.list')).toMatchObject({ outcome: 'success', resource_type: 'patient' });
    const all = await admin.get<PatientList>('/api/patients?limit=100');
    expect(all.body.items.some((p) => p.id === a.body.id)).toBe(true);
  });

  it("answers 404 for another organization's patient, never its data, and audits the denial", async () => {
    const other = await admin.post<PatientDetail>('/api/patients', body({ first_name: 'Cleo', organization_id: orgB.id, primary_provider_id: null }));
    for (const path of ['', '/insurance', '/vitals', '/notes', '/sessions']) {
      const res = await providerA.get<{ message: string }>(`/api/patients/${other.body.id}${path}`);
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain('Cleo');
    }
    expect(await lastAudit('patient.read')).toMatchObject({
      outcome: 'denied',
      resource_id: String(other.body.id),
    });
    const put = await providerA.put(`/api/patients/${other.body.id}`, body({ organization_id: orgA.id }));
    expect(put.status).toBe(404);
    const note = await providerA.post(`/api/patients/${other.body.id}/notes`, { content: 'x' });
    expect(note.status).toBe(404);
    const { rows } = await server.db.pool.query('SELECT count(*)::int AS n FROM notes WHERE patient_id = $1', [other.body.id]);
    expect(rows[0].n).toBe(0);
  });

  it('reads a patient and its insurance with an audit record each', async () => {
    const created = await providerA.post<PatientDetail>('/api/patients', body());
    const read = await providerA.get<PatientDetail>(`/api/patients/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.primary_provider_name).toBeTruthy();
    expect(await lastAudit('patient.read')).toMatchObject({ outcome: 'success', resource_id: String(created.body.id) });
    const ins = await providerA.get<unknown[]>(`/api/patients/${created.body.id}/insurance`);
    expect(ins.body).toHaveLength(2);
    expect(await lastAudit('insurance.list')).toMatchObject({ outcome: 'success', resource_id: String(created.body.id) });
    expect((await providerA.get('/api/patients/999999')).status).toBe(404);
    expect((await providerA.get('/api/patients/abc')).status).toBe(400);
  });
});

describe('PUT /api/patients/{id}', () => {
  it('replaces the insurance set and records the changed field names', async () => {
    const created = await providerA.post<PatientDetail>('/api/patients', body());
    const res = await providerA.put<PatientDetail>(
      `/api/patients/${created.body.id}`,
      body({ enrollment_status: '', insurances: [{ type: 'Medicaid', provider_name: 'State', policy_number: 'X' }] }),
    );
    expect(res.status).toBe(200);
    expect(res.body.enrollment_status).toBeNull();
    expect(res.body.insurances.map((i) => i.type)).toEqual(['Medicaid']);
    const a = await lastAudit('patient.update');
    expect(a).toMatchObject({ outcome: 'success' });
    expect(a.details.changed_fields).toEqual(['enrollment_status']);
  });

  it('lets only admins change devices: a provider gets 403 and nothing is saved', async () => {
    const created = await providerA.post<PatientDetail>('/api/patients', body());
    const d1 = await insertDevice('DEV-A1');
    const res = await providerA.put(`/api/patients/${created.body.id}`, body({ first_name: 'Changed', device_ids: [d1] }));
    expect(res.status).toBe(403);
    expect((await lastAudit('patient.update'))).toMatchObject({ outcome: 'denied', resource_id: String(created.body.id) });
    const after = await providerA.get<PatientDetail>(`/api/patients/${created.body.id}`);
    expect(after.body.first_name).toBe('Ada');
    expect(after.body.device_ids).toEqual([]);

    // The admin assigns it; the provider may then send the unchanged list, or none.
    const byAdmin = await admin.put<PatientDetail>(`/api/patients/${created.body.id}`, body({ device_ids: [d1] }));
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.device_ids).toEqual([d1]);
    expect((await providerA.put(`/api/patients/${created.body.id}`, body({ device_ids: [d1] }))).status).toBe(200);
    expect((await providerA.put(`/api/patients/${created.body.id}`, body())).status).toBe(200);
    expect((await providerA.put(`/api/patients/${created.body.id}`, body({ device_ids: [] }))).status).toBe(403);
  });

  it('moves a device from its previous patient when an admin assigns it elsewhere', async () => {
    const p1 = await admin.post<PatientDetail>('/api/patients', body());
    const p2 = await admin.post<PatientDetail>('/api/patients', body({ first_name: 'Second' }));
    const d = await insertDevice('DEV-MOVE');
    await admin.put(`/api/patients/${p1.body.id}`, body({ device_ids: [d] }));
    const moved = await admin.put<PatientDetail>(`/api/patients/${p2.body.id}`, body({ device_ids: [d] }));
    expect(moved.body.device_ids).toEqual([d]);
    const first = await admin.get<PatientDetail>(`/api/patients/${p1.body.id}`);
    expect(first.body.device_ids).toEqual([]);
    expect((await lastAudit('patient.update')).details.devices_moved).toEqual([{ device: d, from: p1.body.id }]);
  });

  it('rolls back insurances and fields when a later step fails (unknown device)', async () => {
    const created = await admin.post<PatientDetail>('/api/patients', body());
    const res = await admin.put<{ message: string }>(
      `/api/patients/${created.body.id}`,
      body({ first_name: 'Rolled', insurances: [], device_ids: [987654] }),
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(PatientErrors.deviceUnknown);
    const after = await admin.get<PatientDetail>(`/api/patients/${created.body.id}`);
    expect(after.body.first_name).toBe('Ada');
    expect(after.body.insurances).toHaveLength(2);
    const { rows } = await server.db.pool.query(
      `SELECT outcome FROM audit_logs WHERE action = 'patient.update' AND resource_id = $1`,
      [String(created.body.id)],
    );
    expect(rows.map((r) => r.outcome)).toEqual(['failure']);
  });

  it('refuses a provider moving a patient to another organization', async () => {
    const created = await providerA.post<PatientDetail>('/api/patients', body());
    const res = await providerA.put<{ message: string }>(
      `/api/patients/${created.body.id}`,
      body({ organization_id: orgB.id, primary_provider_id: null }),
    );
    expect(res.status).toBe(403);
    expect(res.body.message).not.toBe(ApiErrors.internal);
  });
});
