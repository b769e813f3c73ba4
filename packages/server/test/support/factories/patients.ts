import { sql } from 'kysely';
import type { Queryable } from '../../../src/db/pool.ts';
import { kysely } from '../../../src/db/kysely.ts';
import { momentSql, unique, type Moment } from './common.ts';

export interface PatientOptions {
  organizationId: number;
  firstName?: string;
  middleName?: string | null;
  lastName?: string;
  dateOfBirth?: string | null;
  gender?: string | null;
  primaryProviderId?: number | null;
  enrolledRpm?: boolean;
  enrollmentStatus?: string | null;
  /** Free text kept from before the status list (migration 0761); only old rows have it. */
  enrollmentStatusLegacy?: string | null;
  createdAt?: Moment;
  insurances?: InsuranceOptions[];
}

export async function buildPatient(db: Queryable, p: PatientOptions): Promise<number> {
  const { id } = await kysely(db)
    .insertInto('patients')
    .values({
      organization_id: p.organizationId,
      first_name: p.firstName ?? 'Pat',
      middle_name: p.middleName ?? null,
      last_name: p.lastName ?? unique('Patient'),
      date_of_birth: p.dateOfBirth ?? null,
      gender: p.gender ?? null,
      primary_provider_id: p.primaryProviderId ?? null,
      ...(p.enrolledRpm === undefined ? {} : { enrolled_rpm: p.enrolledRpm }),
      enrollment_status: p.enrollmentStatus ?? null,
      enrollment_status_legacy: p.enrollmentStatusLegacy ?? null,
      ...(p.createdAt === undefined ? {} : { created_at: momentSql(p.createdAt) }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (p.insurances) await buildInsurances(db, id, p.insurances);
  return id;
}

export type InsuranceOptions = { type: string; providerName?: string | null; policyNumber?: string | null };

export async function buildInsurances(db: Queryable, patientId: number, insurances: InsuranceOptions[]): Promise<void> {
  if (insurances.length === 0) return;
  await kysely(db)
    .insertInto('insurances')
    .values(
      insurances.map((i) => ({
        patient_id: patientId,
        type: i.type,
        provider_name: i.providerName ?? null,
        policy_number: i.policyNumber ?? null,
      })),
    )
    .execute();
}

/**
 * A patient's care programs (hypertension, heart_failure, …), as the programs form stores them,
 * enrolled one after the other in the order given (lists show them in enrollment order).
 */
export async function buildPatientPrograms(db: Queryable, patientId: number, programs: string[]): Promise<void> {
  for (const program of programs) {
    await kysely(db).insertInto('patient_programs').values({ patient_id: patientId, program_id: program }).execute();
  }
}

/** An outreach attempt logged for a patient. */
export async function buildOutreach(
  db: Queryable,
  o: { patientId: number; outcome: string; at?: Moment; userId?: number | null },
): Promise<number> {
  const { id } = await kysely(db)
    .insertInto('patient_outreach')
    .values({
      patient_id: o.patientId,
      outcome: o.outcome,
      user_id: o.userId ?? null,
      ...(o.at === undefined ? {} : { created_at: momentSql(o.at) }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Replaces a patient's spans of activity, as an enrollment history would have left them (the
 * owner repairs history: give the owner's pool). `null` as an end is "still active".
 */
export async function setActiveSpans(
  db: Queryable,
  patientId: number,
  spans: [string, string | null][],
): Promise<void> {
  await kysely(db).deleteFrom('patient_active_spans').where('patient_id', '=', patientId).execute();
  if (spans.length === 0) return;
  await kysely(db)
    .insertInto('patient_active_spans')
    .values(spans.map(([from, to]) => ({ patient_id: patientId, active_from: from, active_to: to })))
    .execute();
}

/** Enrollment in RPM set on the patient rows directly (no enrollment history, no audit). */
export async function setRpmEnrollment(db: Queryable, patientIds: number | number[], enrolled: boolean): Promise<void> {
  const ids = Array.isArray(patientIds) ? patientIds : [patientIds];
  await kysely(db).updateTable('patients').set({ enrolled_rpm: enrolled }).where('id', 'in', ids).execute();
}

/** What an auditor asks of a claim (ordering provider, consent, diagnoses), as the patient form stores it. */
export async function setClaimFacts(
  db: Queryable,
  patientId: number,
  f: { orderingProviderId?: number | null; consentDate?: string | null; diagnosisCodes?: string[] },
): Promise<void> {
  await kysely(db)
    .updateTable('patients')
    .set({
      ...(f.orderingProviderId === undefined ? {} : { ordering_provider_id: f.orderingProviderId }),
      ...(f.consentDate === undefined ? {} : { consent_date: f.consentDate }),
      ...(f.diagnosisCodes === undefined ? {} : { diagnosis_codes: f.diagnosisCodes }),
    })
    .where('id', '=', patientId)
    .execute();
}

/** A patient's MRN (set by the owner: no form edits it). */
export async function setPatientMrn(db: Queryable, patientId: number, mrn: string): Promise<void> {
  await kysely(db).updateTable('patients').set({ mrn }).where('id', '=', patientId).execute();
}

/** A patient changed after any version already read: updated_at a minute ahead, past the clock's resolution. */
export async function markPatientChanged(db: Queryable, patientId: number): Promise<void> {
  await kysely(db)
    .updateTable('patients')
    .set({ updated_at: sql`now() + interval '1 minute'` })
    .where('id', '=', patientId)
    .execute();
}

/** A patient row removed (the portal never deletes one), for what the database does with its dependants. */
export async function removePatient(db: Queryable, patientId: number): Promise<void> {
  await kysely(db).deleteFrom('patients').where('id', '=', patientId).execute();
}

/**
 * Moves an edge of a patient's spans of activity to `at`, as if the enrollment change had happened
 * then (the owner repairs history: give the owner's pool): `end` is the latest span's end, `start`
 * the open span's start. Answers how many spans moved.
 */
export async function dateSpanEdge(
  db: Queryable,
  patientId: number,
  edge: 'start' | 'end',
  at: string,
): Promise<number> {
  const spans = kysely(db).updateTable('patient_active_spans').where('patient_id', '=', patientId);
  const moved =
    edge === 'end'
      ? spans.set({ active_to: at }).where('active_to', '=', (eb) =>
          eb
            .selectFrom('patient_active_spans')
            .select((s) => s.fn.max('active_to').as('m'))
            .where('patient_id', '=', patientId),
        )
      : spans.set({ active_from: at }).where('active_to', 'is', null);
  const result = await moved.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A patient renamed (their family name), as an edit of the patient would leave it. */
export async function renamePatient(db: Queryable, patientId: number, lastName: string): Promise<void> {
  await kysely(db).updateTable('patients').set({ last_name: lastName }).where('id', '=', patientId).execute();
}

/** A patient moved to another organization, as an admin's transfer would leave it. */
export async function movePatient(db: Queryable, patientId: number, organizationId: number): Promise<void> {
  await kysely(db)
    .updateTable('patients')
    .set({ organization_id: organizationId })
    .where('id', '=', patientId)
    .execute();
}
