import { PatientErrors, type Note, type NotePage } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createOrganization, createStaff, signIn, startTestServer, type ApiClient, type TestServer } from '../../../test/app.ts';

let server: TestServer;
let provider: ApiClient;
let patientId: number;
let otherPatientId: number;

beforeAll(async () => {
  server = await startTestServer();
  const org = await createOrganization(server);
  const other = await createOrganization(server);
  provider = await signIn(server, await createStaff(server, { role: 'provider', organizationId: org.id }));
  const insert = async (orgId: number) =>
    (await server.db.pool.query<{ id: number }>(
      `INSERT INTO patients (first_name, last_name, organization_id) VALUES ('N', 'Patient', $1) RETURNING id`,
      [orgId],
    )).rows[0]!.id;
  patientId = await insert(org.id);
  otherPatientId = await insert(other.id);
});
afterAll(async () => server?.close());

const lastAudit = async (action: string) =>
  (await server.db.pool.query(
    `SELECT outcome, resource_type, resource_id, details FROM audit_logs WHERE action = $1 ORDER BY id DESC LIMIT 1`,
    [action],
  )).rows[0];

describe('notes', () => {
  it('adds a note, lists it newest first with a total, and audits both', async () => {
    const first = await provider.post<Note>(`/api/patients/${patientId}/notes`, { content: 'First note' });
    expect(first.status).toBe(201);
    expect(await lastAudit('note.create')).toMatchObject({
      outcome: 'success',
      resource_type: 'note',
      resource_id: String(first.body.id),
      details: { patient_id: patientId },
    });
    await provider.post(`/api/patients/${patientId}/notes`, { content: 'Second\nline' });
    const list = await provider.get<NotePage>(`/api/patients/${patientId}/notes?limit=1`);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.items.map((n) => n.content)).toEqual(['Second\nline']);
    expect(await lastAudit('note.list')).toMatchObject({ outcome: 'success', resource_id: String(patientId) });
    // The note's text is health information: it never goes into the audit trail.
    expect(JSON.stringify((await lastAudit('note.create')).details)).not.toContain('Second');
  });

  it.each([
    ['a blank note', { content: '   ' }],
    ['a missing content', {}],
    ['an unknown field', { content: 'x', author: 1 }],
    ['a number', { content: 5 }],
  ])('refuses %s with 400', async (_l, body) => {
    const res = await provider.post<{ message: string }>(`/api/patients/${patientId}/notes`, body);
    expect(res.status).toBe(400);
  });

  it('says why a blank note is refused and audits the failure', async () => {
    const res = await provider.post<{ message: string }>(`/api/patients/${patientId}/notes`, { content: ' ' });
    expect(res.body.message).toBe(PatientErrors.noteContentRequired);
    expect(await lastAudit('note.create')).toMatchObject({ outcome: 'failure' });
  });

  it("answers 404 for another organization's patient (audited as denied) and 401 without a session", async () => {
    const res = await provider.post(`/api/patients/${otherPatientId}/notes`, { content: 'x' });
    expect(res.status).toBe(404);
    expect(await lastAudit('note.create')).toMatchObject({ outcome: 'denied', resource_id: String(otherPatientId) });
    expect((await provider.get(`/api/patients/${otherPatientId}/notes`)).status).toBe(404);
    expect((await apiClient(server).post(`/api/patients/${patientId}/notes`, { content: 'x' })).status).toBe(401);
  });
});
