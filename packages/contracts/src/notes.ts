import { Type, type Static } from 'typebox';
import { Timestamp } from './common.ts';
import { PageOf } from './fields.ts';

/** `author`: the writer's name (or e-mail when no name is recorded); null if unknown. */
export const Note = Type.Object({
  id: Type.Integer(),
  content: Type.String(),
  created_at: Timestamp,
  author: Type.Union([Type.String(), Type.Null()]),
});
export type Note = Static<typeof Note>;

export const NotePage = PageOf(Note);
export type NotePage = Static<typeof NotePage>;

export const NOTE_MAX_LENGTH = 10_000;
export const NoteInput = Type.Object(
  { content: Type.String({ maxLength: NOTE_MAX_LENGTH }) },
  { additionalProperties: false },
);
export type NoteInput = Static<typeof NoteInput>;
