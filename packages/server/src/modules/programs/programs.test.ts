import { MeasurementTexts, PROGRAMS, ProgramErrors, type PatientPrograms, type ProgramInfo, type ProgramList } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient, signInNewStaff, startPatientFixture, type TestServer } from '../../../test/support/http.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';

let server: TestServer;
let provider: ApiClient;
let admin: ApiClient;
let patientId: number;
let otherPatientId: number;

beforeAll(async () => {
  ({ server, provider, patientId, otherPatientId } = await startPatientFixture('P'));
  admin = await signInNewStaff(server, 'admin', null);
});
afterAll(async () => server?.close());

describe('the built-in programs', () => {
  it("are the rows migration 0960 inserted, equal to the contracts' PROGRAMS", async () => {
    const { rows } = await server.db.pool.query<{ id: string; label: string; kinds: string[] }>(
      `SELECT id, label, kinds FROM programs WHERE built_in ORDER BY id`,
    );
    const expected = PROGRAMS.map((p) => ({ id: p.id, label: p.label, kinds: [...p.kinds] })).sort((a, b) => a.id.localeCompare(b.id));
    expect(rows).toEqual(expected);
  });
});

describe('GET and POST /api/programs', () => {
  it('lists the programs to any staff member, built-in ones first in their order', async () => {
    const res = await provider.get<ProgramList>('/api/programs');
    expect(res.status).toBe(200);
    expect(res.body.items.slice(0, PROGRAMS.length)).toEqual(PROGRAMS.map((p) => ({ id: p.id, label: p.label, kinds: [...p.kinds], built_in: true })));
    expect((await apiClient(server).get('/api/programs')).status).toBe(401);
  });

  it('lets an admin add a program with registry kinds, audited, and refuses a duplicate', async () => {
    const body = { id: 'ckd', label: ' Chronic kidney disease ', kinds: ['blood_pressure', 'weight'] };
    const res = await admin.post<ProgramInfo>('/api/programs', body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 'ckd', label: 'Chronic kidney disease', kinds: ['blood_pressure', 'weight'], built_in: false });
    expect(await lastAuditOf(server, 'program.create')).toMatchObject({ outcome: 'success', resource_type: 'program', resource_id: 'ckd' });
    expect((await provider.get<ProgramList>('/api/programs')).body.items.at(-1)).toEqual(res.body);
    const again = await admin.post<{ message: string }>('/api/programs', body);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(ProgramErrors.programExists('ckd'));
  });

  it('refuses unknown kinds with the registry text, a blank label, and a provider', async () => {
    const unknown = await admin.post<{ message: string }>('/api/programs', { id: 'fever', label: 'Fever', kinds: ['body_temperature'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(MeasurementTexts.unknownKind('body_temperature'));
    const blank = await admin.post<{ message: string }>('/api/programs', { id: 'blank', label: '   ', kinds: [] });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe(ProgramErrors.labelRequired);
    expect((await admin.post('/api/programs', { id: 'Bad Id', label: 'x', kinds: [] })).status).toBe(400);
    expect((await provider.post('/api/programs', { id: 'mine', label: 'Mine', kinds: [] })).status).toBe(403);
    const { rowCount } = await server.db.pool.query(`SELECT 1 FROM programs WHERE id IN ('fever', 'blank', 'mine')`);
    expect(rowCount).toBe(0);
  });
});

describe('GET and PUT /api/patients/{id}/programs', () => {
  const path = (id: number) => `/api/patients/${id}/programs`;

  it("sets a patient's programs, reads them back, and audits both", async () => {
    expect((await provider.get<PatientPrograms>(path(patientId))).body).toEqual({ programs: [] });
    expect(await lastAuditOf(server, 'patient.programs_read')).toMatchObject({ outcome: 'success', resource_id: String(patientId) });
    const set = await provider.put<PatientPrograms>(path(patientId), { programs: ['heart_failure', 'diabetes'] });
    expect(set.status).toBe(200);
    expect([...set.body.programs].sort()).toEqual(['diabetes', 'heart_failure']);
    const changed = await provider.put<PatientPrograms>(path(patientId), { programs: ['heart_failure'] });
    expect(changed.body).toEqual({ programs: ['heart_failure'] });
    expect((await provider.get<PatientPrograms>(path(patientId))).body).toEqual({ programs: ['heart_failure'] });
    const record = await lastAuditOf(server, 'patient.programs_update');
    expect(record).toMatchObject({ outcome: 'success', resource_type: 'patient', resource_id: String(patientId) });
    expect(record.details).toMatchObject({ programs: { to: ['heart_failure'] } });
    expect((await provider.put<PatientPrograms>(path(patientId), { programs: [] })).body).toEqual({ programs: [] });
  });

  it('refuses an unknown program and changes nothing', async () => {
    await provider.put(path(patientId), { programs: ['copd'] });
    const res = await provider.put<{ message: string }>(path(patientId), { programs: ['copd', 'nonesuch'] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(ProgramErrors.unknownProgram('nonesuch'));
    expect((await provider.get<PatientPrograms>(path(patientId))).body).toEqual({ programs: ['copd'] });
    expect((await provider.put(path(patientId), { programs: ['copd', 'copd'] })).status).toBe(400);
  });

  it("answers 404 for another organization's patient and 401 without a session", async () => {
    expect((await provider.get(path(otherPatientId))).status).toBe(404);
    expect((await provider.put(path(otherPatientId), { programs: ['copd'] })).status).toBe(404);
    expect(await lastAuditOf(server, 'patient.programs_update')).toMatchObject({ outcome: 'denied', resource_id: String(otherPatientId) });
    expect((await apiClient(server).get(path(patientId))).status).toBe(401);
    expect((await admin.put<PatientPrograms>(path(otherPatientId), { programs: ['copd'] })).body).toEqual({ programs: ['copd'] });
  });
});
