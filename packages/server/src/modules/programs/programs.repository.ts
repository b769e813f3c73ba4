import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

export interface ProgramRow {
  id: string;
  label: string;
  kinds: string[];
  built_in: boolean;
}

const PROGRAM_COLUMNS = ['id', 'label', 'kinds', 'built_in'] as const;

/** Every program: built-in ones first, then as they were added. */
export async function listPrograms(db: Queryable): Promise<ProgramRow[]> {
  return kysely(db)
    .selectFrom('programs')
    .select(PROGRAM_COLUMNS)
    .orderBy('built_in', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Undefined when a program with that id exists already. */
export async function insertProgram(db: Queryable, p: { id: string; label: string; kinds: string[] }): Promise<ProgramRow | undefined> {
  return kysely(db)
    .insertInto('programs')
    .values({ id: p.id, label: p.label, kinds: p.kinds })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning(PROGRAM_COLUMNS)
    .executeTakeFirst();
}

/** Which of these ids name programs. */
export async function existingProgramIds(db: Queryable, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await kysely(db).selectFrom('programs').select('id').where('id', 'in', [...ids]).execute();
  return new Set(rows.map((r) => r.id));
}

/** The programs a patient is enrolled in, in the order of enrollment. */
export async function patientProgramIds(db: Queryable, patientId: number): Promise<string[]> {
  const rows = await kysely(db)
    .selectFrom('patient_programs')
    .select('program_id')
    .where('patient_id', '=', patientId)
    .orderBy('enrolled_at')
    .orderBy('program_id')
    .execute();
  return rows.map((r) => r.program_id);
}

/** Leaves the patient in exactly these programs; an enrollment kept keeps its date. */
export async function setPatientPrograms(db: Queryable, patientId: number, programIds: readonly string[]): Promise<void> {
  let remove = kysely(db).deleteFrom('patient_programs').where('patient_id', '=', patientId);
  if (programIds.length > 0) remove = remove.where('program_id', 'not in', [...programIds]);
  await remove.execute();
  if (programIds.length === 0) return;
  await kysely(db)
    .insertInto('patient_programs')
    .values(programIds.map((program_id) => ({ patient_id: patientId, program_id })))
    .onConflict((oc) => oc.columns(['patient_id', 'program_id']).doNothing())
    .execute();
}
