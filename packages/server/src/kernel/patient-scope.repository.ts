import type { Queryable } from '../db/pool.ts';
import { sql } from 'kysely';
import { kysely } from '../db/kysely.ts';

export interface PatientScope {
  id: number;
  organization_id: number;
}

/** What the access check needs of a patient; `lock` serialises concurrent saves of one patient. */
export async function findPatientScope(db: Queryable, patientId: number, lock: boolean): Promise<PatientScope | undefined> {
  let q = kysely(db).selectFrom('patients').select(['id', 'organization_id']).where('id', '=', patientId);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** How many rows of one kind of patient record the patient has (the paged lists' totals). */
export async function countPatientRows(db: Queryable, table: 'notes' | 'tracking_entries', patientId: number): Promise<number> {
  const row = await kysely(db)
    .selectFrom(table)
    .select(sql<number>`count(*)::int`.as('n'))
    .where('patient_id', '=', patientId)
    .executeTakeFirstOrThrow();
  return row.n;
}
