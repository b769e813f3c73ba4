import type { OutreachOutcome } from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

/** An outreach with the name columns of whoever recorded it (null when that user is gone). */
export interface OutreachRow {
  id: number;
  patient_id: number;
  outcome: OutreachOutcome;
  notes: string | null;
  user_id: number | null;
  created_at: Date;
  by_first_name: string | null;
  by_last_name: string | null;
  by_title: string | null;
  by_email: string | null;
}

function outreachWithRecorder(db: Queryable) {
  return kysely(db)
    .selectFrom('patient_outreach as r')
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .select([
      'r.id',
      'r.patient_id',
      'r.outcome',
      'r.notes',
      'r.user_id',
      'r.created_at',
      'u.first_name as by_first_name',
      'u.last_name as by_last_name',
      'u.title as by_title',
      'u.email as by_email',
    ])
    // The table's CHECK keeps outcome to the contract's values.
    .$narrowType<{ outcome: OutreachOutcome }>();
}

/** Newest first: a range of patient_outreach_patient_idx. */
export async function pageOutreach(db: Queryable, patientId: number, limit: number, offset: number): Promise<OutreachRow[]> {
  return outreachWithRecorder(db)
    .where('r.patient_id', '=', patientId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countOutreach(db: Queryable, patientId: number): Promise<number> {
  const { n } = await kysely(db)
    .selectFrom('patient_outreach')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('patient_id', '=', patientId)
    .executeTakeFirstOrThrow();
  return n;
}

export async function insertOutreach(
  db: Queryable,
  o: { patientId: number; userId: number; outcome: OutreachOutcome; notes: string | null },
): Promise<OutreachRow> {
  const { id } = await kysely(db)
    .insertInto('patient_outreach')
    .values({ patient_id: o.patientId, user_id: o.userId, outcome: o.outcome, notes: o.notes })
    .returning('id')
    .executeTakeFirstOrThrow();
  return outreachWithRecorder(db).where('r.id', '=', id).executeTakeFirstOrThrow();
}
