import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';
import type { AlertChange, StoredReading } from './alerts.repository.ts';

/** The newest stored reading of each kind of each patient (the observations kind-and-time index, one probe per kind). */
export async function latestReadings(db: Queryable, patientIds: number[]): Promise<StoredReading[]> {
  if (patientIds.length === 0) return [];
  const { rows } = await sql<StoredReading>`
    SELECT DISTINCT ON (o.patient_id, o.kind) o.id::int8 AS id, o.created_at AS at
      FROM observations o
     WHERE o.patient_id = ANY(${patientIds}::int[])
     ORDER BY o.patient_id, o.kind, o.created_at DESC, o.id DESC`.execute(kysely(db));
  return rows;
}

/** Resolves the patient's open and acknowledged alerts: the enrollment ended, nobody is watching the readings. */
export async function resolveForEnrollmentEnd(db: Queryable, patientId: number): Promise<AlertChange[]> {
  const rows = await kysely(db)
    .updateTable('alerts')
    .set({ status: 'resolved', resolved_at: sql`now()`, resolution_reason: 'enrollment_ended', updated_at: sql`now()` })
    .where('patient_id', '=', patientId)
    .where('status', '<>', 'resolved')
    .returning(['id', 'patient_id', 'organization_id', 'severity', 'status'])
    .execute();
  return rows as AlertChange[];
}
