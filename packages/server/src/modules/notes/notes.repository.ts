import type { Note } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';

type NoteRow = { id: number; content: string; created_at: Date };
const present = (r: NoteRow): Note => ({ id: r.id, content: r.content, created_at: r.created_at.toISOString() });

/** Newest first, a range scan of notes_patient_time_idx. */
export async function pageNotes(db: Queryable, patientId: number, limit: number, offset: number): Promise<Note[]> {
  const { rows } = await db.query<NoteRow>(
    `SELECT id, content, created_at FROM notes WHERE patient_id = $1
      ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [patientId, limit, offset],
  );
  return rows.map(present);
}

export async function countNotes(db: Queryable, patientId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM notes WHERE patient_id = $1', [
    patientId,
  ]);
  return rows[0]!.n;
}

export async function insertNote(db: Queryable, patientId: number, authorId: number, content: string): Promise<Note> {
  const { rows } = await db.query<NoteRow>(
    'INSERT INTO notes (patient_id, author_id, content) VALUES ($1, $2, $3) RETURNING id, content, created_at',
    [patientId, authorId, content],
  );
  return present(rows[0]!);
}
