import type { Note } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';

type NoteRow = { id: number; content: string; created_at: Date; author: string | null };
const present = (r: NoteRow): Note => ({
  id: r.id,
  content: r.content,
  created_at: r.created_at.toISOString(),
  author: r.author,
});

/** The writer's name with title, or their e-mail when no name is recorded. */
const AUTHOR = `coalesce(
    NULLIF(btrim(concat_ws(' ', u.first_name, u.last_name)), '')
      || CASE WHEN NULLIF(btrim(u.title), '') IS NULL THEN '' ELSE ', ' || btrim(u.title) END,
    u.email)`;

/** Newest first, a range scan of notes_patient_time_idx. */
export async function pageNotes(db: Queryable, patientId: number, limit: number, offset: number): Promise<Note[]> {
  const { rows } = await db.query<NoteRow>(
    `SELECT n.id, n.content, n.created_at, ${AUTHOR} AS author
       FROM notes n LEFT JOIN users u ON u.id = n.author_id
      WHERE n.patient_id = $1
      ORDER BY n.created_at DESC, n.id DESC LIMIT $2 OFFSET $3`,
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
    `WITH n AS (
       INSERT INTO notes (patient_id, author_id, content) VALUES ($1, $2, $3) RETURNING id, content, created_at, author_id
     )
     SELECT n.id, n.content, n.created_at, ${AUTHOR} AS author FROM n LEFT JOIN users u ON u.id = n.author_id`,
    [patientId, authorId, content],
  );
  return present(rows[0]!);
}
