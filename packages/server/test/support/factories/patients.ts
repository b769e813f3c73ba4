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
