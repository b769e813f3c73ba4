import type { Queryable } from '../../../src/db/pool.ts';
import { kysely } from '../../../src/db/kysely.ts';
import { momentSql, unique, type Moment } from './common.ts';

/** A note; `authorId` null for one imported without an author; `createdAt` back-dates it. */
export async function buildNote(
  db: Queryable,
  n: { patientId: number; authorId?: number | null; content?: string; createdAt?: Moment },
): Promise<number> {
  const { id } = await kysely(db)
    .insertInto('notes')
    .values({
      patient_id: n.patientId,
      author_id: n.authorId ?? null,
      content: n.content ?? unique('Note'),
      ...(n.createdAt === undefined ? {} : { created_at: momentSql(n.createdAt) }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** A tracking (time) entry; `userId` null for one whose author is gone. */
export async function buildTrackingEntry(
  db: Queryable,
  t: {
    patientId: number;
    date: string;
    durationMinutes: number;
    userId?: number | null;
    notes?: string | null;
    interactive?: boolean;
    /** How a contact was made ('phone', …) and what it was ('phone_call', …), as the care timer records them. */
    contactType?: string;
    activity?: string;
  },
): Promise<number> {
  const { id } = await kysely(db)
    .insertInto('tracking_entries')
    .values({
      patient_id: t.patientId,
      user_id: t.userId ?? null,
      date: t.date,
      duration_minutes: t.durationMinutes,
      notes: t.notes ?? null,
      ...(t.interactive === undefined ? {} : { interactive: t.interactive }),
      ...(t.contactType === undefined ? {} : { contact_type: t.contactType }),
      ...(t.activity === undefined ? {} : { activity: t.activity }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}
