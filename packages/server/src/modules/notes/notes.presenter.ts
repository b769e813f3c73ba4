import type { Note } from '@rpm/contracts';
import type { NoteRow } from './notes.repository.ts';
import { staffName } from '../../kernel/people.ts';
import { isoTime } from '../../kernel/time.ts';

export function presentNote(row: NoteRow): Note {
  return {
    id: row.id,
    content: row.content,
    created_at: isoTime(row.created_at),
    author: staffName(
      { first_name: row.author_first_name, last_name: row.author_last_name, title: row.author_title, email: row.author_email },
      true,
    ),
  };
}
