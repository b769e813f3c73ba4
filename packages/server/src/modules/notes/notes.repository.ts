import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';
import { countPatientRows } from '../../kernel/patient-scope.repository.ts';

/** A note with its author's name columns (null when the author is gone). */
export interface NoteRow {
  id: number;
  content: string;
  created_at: Date;
  author_first_name: string | null;
  author_last_name: string | null;
  author_title: string | null;
  author_email: string | null;
}

function notesWithAuthor(db: Queryable) {
  return kysely(db)
    .selectFrom('notes as n')
    .leftJoin('users as u', 'u.id', 'n.author_id')
    .select([
      'n.id',
      'n.content',
      'n.created_at',
      'u.first_name as author_first_name',
      'u.last_name as author_last_name',
      'u.title as author_title',
      'u.email as author_email',
    ]);
}

/** Newest first, a range scan of notes_patient_time_idx. */
export async function pageNotes(db: Queryable, patientId: number, limit: number, offset: number): Promise<NoteRow[]> {
  return notesWithAuthor(db)
    .where('n.patient_id', '=', patientId)
    .orderBy('n.created_at', 'desc')
    .orderBy('n.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countNotes(db: Queryable, patientId: number): Promise<number> {
  return countPatientRows(db, 'notes', patientId);
}

export async function insertNote(db: Queryable, patientId: number, authorId: number, content: string): Promise<NoteRow> {
  const { id } = await kysely(db)
    .insertInto('notes')
    .values({ patient_id: patientId, author_id: authorId, content })
    .returning('id')
    .executeTakeFirstOrThrow();
  return notesWithAuthor(db).where('n.id', '=', id).executeTakeFirstOrThrow();
}
