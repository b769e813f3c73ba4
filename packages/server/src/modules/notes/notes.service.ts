import { PatientErrors, type Note, type NotePage } from '@rpm/contracts';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { listPatientPage } from '../../kernel/paged-list.ts';
import { requirePatientAccess } from '../../kernel/access.ts';
import { auditedTransaction, failure } from '../../kernel/audited-transaction.ts';
import { presentNote } from './notes.presenter.ts';
import { countNotes, insertNote, pageNotes } from './notes.repository.ts';

export async function listNotes(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
  limit: number,
  offset: number,
): Promise<NotePage> {
  const source = { page: pageNotes, count: countNotes, present: presentNote };
  return listPatientPage(deps.db, ctx, patientId, 'note.list', source, limit, offset);
}

export async function addNote(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
  content: string,
): Promise<Note> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    await requirePatientAccess(tx, ctx, patientId, 'note.create');
    return writeNote(tx, ctx, patientId, content);
  });
}

/**
 * Adds a clinical note to a patient in the caller's transaction, with its audit record: the one
 * way any module writes a note (the notes form, resolving an alert), so the notes' rules hold
 * whoever asks. The caller has already checked access to the patient; `details` adds to the
 * audit record (e.g. the alert the note resolves).
 */
export async function writeNote(
  tx: Queryable,
  ctx: SignedInContext,
  patientId: number,
  content: string,
  details: Record<string, unknown> = {},
): Promise<Note> {
  // Keep the author's line breaks and spacing; only an all-blank note is refused.
  if (!content.trim()) {
    throw failure(400, PatientErrors.noteContentRequired, {
      action: 'note.create',
      resourceType: 'patient',
      resourceId: patientId,
      reason: 'empty note',
    });
  }
  const note = presentNote(await insertNote(tx, patientId, ctx.actor.id, content));
  await audit(tx, ctx, {
    action: 'note.create',
    outcome: 'success',
    resourceType: 'note',
    resourceId: note.id,
    details: { patient_id: patientId, length: content.length, ...details },
  });
  return note;
}
