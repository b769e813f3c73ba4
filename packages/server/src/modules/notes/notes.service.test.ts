import { PatientErrors } from '@rpm/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../policies/actor.ts';
import { refusalOf } from '../../../test/support/audit.ts';
import { buildOrganization, buildPatient, buildStaff, contextOf } from '../../../test/support/factories.ts';
import { serviceDatabase } from '../../../test/support/service-database.ts';
import { addNote, listNotes } from './notes.service.ts';

const db = serviceDatabase();
let patientId: number;
let titled: Actor;
let nameless: Actor;

beforeAll(async () => {
  const org = (await buildOrganization(db.pool)).id;
  titled = await buildStaff(db.pool, 'provider', { organizationId: org, firstName: 'Ada', lastName: 'Lee', title: ' RN ' });
  nameless = await buildStaff(db.pool, 'provider', { organizationId: org, firstName: null, lastName: null, email: 'nameless@example.com' });
  patientId = await buildPatient(db.pool, { organizationId: org });
});

describe('notes', () => {
  it('keeps the author’s spacing, names the author (title, or e-mail without a name) and pages newest first', async () => {
    await addNote({ db: db.pool }, contextOf(titled), patientId, 'first\n  indented');
    await addNote({ db: db.pool }, contextOf(nameless), patientId, 'second');
    const page = await listNotes({ db: db.pool }, contextOf(titled), patientId, 1, 0);
    expect(page.total).toBe(2);
    expect(page.items).toEqual([{ id: expect.any(Number), content: 'second', created_at: expect.any(String), author: 'nameless@example.com' }]);
    const older = await listNotes({ db: db.pool }, contextOf(titled), patientId, 1, 1);
    expect(older.items[0]).toMatchObject({ content: 'first\n  indented', author: 'Ada Lee, RN' });
  });

  it('refuses an all-blank note and records why', async () => {
    const r = await refusalOf(db.pool, titled, (ctx) => addNote({ db: db.pool }, ctx, patientId, ' \n\t'));
    expect(r).toMatchObject({ status: 400, message: PatientErrors.noteContentRequired });
    expect(r.audits).toEqual([expect.objectContaining({ action: 'note.create', outcome: 'failure', reason: 'empty note' })]);
  });
});
