import { PatientErrors, type Note, type NotePage } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, apiClient, startPatientFixture, type TestServer } from '../../../test/support/http.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';
import { buildNote, buildStaff } from '../../../test/support/factories.ts';

let server: TestServer;
let provider: ApiClient;
let patientId: number;
let otherPatientId: number;

beforeAll(async () => {
  ({ server, provider, patientId, otherPatientId } = await startPatientFixture('N'));
});
afterAll(async () => server?.close());

const lastAudit = (action: string) => lastAuditOf(server, action);

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

  it('names the author of every note: their name, or their e-mail when they have none', async () => {
    const added = await provider.post<Note>(`/api/patients/${patientId}/notes`, { content: 'Authored' });
    expect(added.body.author).toBe('Test provider');
    const noName = await buildStaff(server.db.pool, 'provider', { email: 'no-name@example.com', firstName: null, lastName: null });
    await buildNote(server.db.pool, { patientId, authorId: noName.id, content: 'By e-mail' });
    await buildNote(server.db.pool, { patientId, authorId: null, content: 'Imported' });
    const list = await provider.get<NotePage>(`/api/patients/${patientId}/notes?limit=3`);
    expect(list.body.items.map((n) => [n.content, n.author])).toEqual([
      ['Imported', null],
      ['By e-mail', 'no-name@example.com'],
      ['Authored', 'Test provider'],
    ]);
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
