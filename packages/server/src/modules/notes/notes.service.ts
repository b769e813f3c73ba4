import { PatientErrors, type Note, type NotePage } from '@rpm/contracts';
import type pg from 'pg';
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
      details: { patient_id: patientId, length: content.length },
    });
    return note;
  });
}
