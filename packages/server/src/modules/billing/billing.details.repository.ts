// What the billing report shows about each patient beside the counts: CSV details, claim evidence,
// the worklist's columns and the month's tracking entries.
import { sql, type RawBuilder } from 'kysely';
import { kysely, template, type Template } from '../../db/kysely.ts';
import type { Queryable } from '../../db/pool.ts';
/** What the CSV export adds about each patient: birth date, first insurance, provider, organization. */
export interface BillingPatientDetails {
  patient_id: number;
  date_of_birth: string | null;
  insurance_type: string | null;
  policy_number: string | null;
  primary_provider: string | null;
  organization: string;
}

export async function billingPatientDetails(db: Queryable, patientIds: number[]): Promise<BillingPatientDetails[]> {
  if (patientIds.length === 0) return [];
  return kysely(db)
    .selectFrom('patients as p')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .leftJoin('users as u', 'u.id', 'p.primary_provider_id')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('insurances as i')
          .select(['i.type', 'i.policy_number'])
          .whereRef('i.patient_id', '=', 'p.id')
          .orderBy('i.id')
          .limit(1)
          .as('ins'),
      (join) => join.onTrue(),
    )
    .select([
      'p.id as patient_id',
      'p.date_of_birth',
      'ins.type as insurance_type',
      'ins.policy_number',
      sql<string | null>`NULLIF(btrim(concat_ws(' ', u.first_name, u.last_name)), '')`.as('primary_provider'),
      'o.name as organization',
    ])
    .where('p.id', 'in', patientIds)
    .execute();
}

/** Who a claim is for, as an auditor asks: one row per patient (BillingEvidencePatient). */
export interface EvidencePatientRow {
  patient_id: number;
  name: string;
  date_of_birth: string | null;
  insurances: { type: string; policy_number: string | null }[];
  devices: { name: string; serial: string | null }[];
  ordering_provider: string | null;
  consent_date: string | null;
  diagnosis_codes: string[];
}

/**
 * The claim's patient fields for these patients (all, with null), set-based: insurances in the
 * order entered (policy_number is the member id), the devices the patient had at some time of the
 * month (assignment history, the device id being its serial), the ordering provider's name.
 */
export async function evidencePatients(
  db: Queryable,
  monthStart: string,
  monthEnd: string,
  patientIds: number[] | null,
): Promise<EvidencePatientRow[]> {
  const result = await sql<EvidencePatientRow>`
    SELECT p.id AS patient_id,
           btrim(concat_ws(' ', p.first_name, p.middle_name, p.last_name)) AS name,
           to_char(p.date_of_birth, 'YYYY-MM-DD') AS date_of_birth,
           COALESCE((SELECT jsonb_agg(jsonb_build_object('type', i.type, 'policy_number', i.policy_number) ORDER BY i.id)
                       FROM insurances i WHERE i.patient_id = p.id), '[]'::jsonb) AS insurances,
           COALESCE((SELECT jsonb_agg(jsonb_build_object(
                              'name', COALESCE(NULLIF(btrim(concat_ws(' ', d.model, d.type)), ''), d.device_id),
                              'serial', d.device_id) ORDER BY d.first_from, d.device_id)
                       FROM (SELECT dv.device_id, dv.model, dv.type, min(a.assigned_from) AS first_from
                               FROM device_assignments a JOIN devices dv ON dv.id = a.device_id
                              WHERE a.patient_id = p.id
                                AND a.assigned_from < ((${monthEnd}::date + 1)::timestamp AT TIME ZONE o.time_zone)
                                AND (a.assigned_to IS NULL
                                     OR a.assigned_to > (${monthStart}::date::timestamp AT TIME ZONE o.time_zone))
                              GROUP BY dv.id) d), '[]'::jsonb) AS devices,
           NULLIF(btrim(concat_ws(' ', u.first_name, u.last_name)), '') AS ordering_provider,
           to_char(p.consent_date, 'YYYY-MM-DD') AS consent_date,
           p.diagnosis_codes
      FROM patients p
      JOIN organizations o ON o.id = p.organization_id
      LEFT JOIN users u ON u.id = p.ordering_provider_id
     WHERE (${patientIds}::int[] IS NULL OR p.id = ANY(${patientIds}::int[]))`.execute(kysely(db));
  return result.rows;
}

/** What the worklist shows beside the billing figures, per patient. */
export interface WorklistDetailsRow {
  patient_id: number;
  /** Active for billing now (rpm_patient_active_at): later readings and minutes can count. */
  active: boolean;
  primary_provider_id: number | null;
  primary_provider: string | null;
  programs: string[];
  last_reading_at: Date | null;
  last_outreach_at: Date | null;
}

/**
 * A patient's last reading before `upto` (the month's end in the organization's calendar), looked
 * for in the days around the month first: bounds known before the statement runs (constants, or a
 * prepared statement's parameters) let PostgreSQL keep the one or two month tables of observations
 * that hold them, when planning or when starting a generic plan (each month table costs a probe per
 * patient otherwise).
 * The window reaches a day past the month's last UTC day, so no reading before `upto` in a time
 * zone west of UTC is after it: when the window has one, it has the last. The whole history only
 * for a patient without a reading there.
 */
export const lastReadingBefore = (
  patientId: RawBuilder<unknown>,
  upto: RawBuilder<unknown>,
  monthStart: string,
  monthEnd: string,
) =>
  sql`COALESCE((SELECT max(v.created_at) FROM observations v
                 WHERE v.patient_id = ${patientId} AND v.created_at < ${upto}
                   AND v.created_at >= (${monthStart}::date::timestamp AT TIME ZONE 'UTC')
                   AND v.created_at < ((${monthEnd}::date + 2)::timestamp AT TIME ZONE 'UTC')),
               (SELECT max(v.created_at) FROM observations v WHERE v.patient_id = ${patientId} AND v.created_at < ${upto}))`;

/** A patient's last outreach before `upto`. */
export const lastOutreachBefore = (patientId: RawBuilder<unknown>, upto: RawBuilder<unknown>) =>
  sql`(SELECT max(r.created_at) FROM patient_outreach r WHERE r.patient_id = ${patientId} AND r.created_at < ${upto})`;

interface WorklistDetailsParams {
  monthStart: string;
  monthEnd: string;
  patientIds: number[];
}

let detailsTemplate: Template<WorklistDetailsParams, WorklistDetailsRow> | undefined;

/**
 * The worklist's extra columns for these patients, up to the month's end: the primary provider,
 * the programs (in the order of enrollment), the last reading of any kind and source (one probe
 * of observations_patient_time_idx) and the last outreach.
 */
export async function worklistDetails(
  db: Queryable,
  monthStart: string,
  monthEnd: string,
  patientIds: number[],
): Promise<WorklistDetailsRow[]> {
  if (patientIds.length === 0) return [];
  // A named statement: planning this one (two probes of every month table of observations) took
  // about three times as long as running it (2.2 and 0.7 ms at 10,000 patients). Prepared, each
  // connection plans it a few times and then keeps the generic plan, whose month tables are
  // pruned when it starts, from the bound month.
  detailsTemplate ??= template('billing_worklist_details_v1', ['monthStart', 'monthEnd', 'patientIds'], (p) =>
    sql<WorklistDetailsRow>`
    SELECT p.id AS patient_id,
           rpm_patient_active_at(p.id, now()) AS active,
           p.primary_provider_id,
           NULLIF(btrim(concat_ws(' ', u.first_name, u.last_name)), '') AS primary_provider,
           COALESCE((SELECT array_agg(pp.program_id ORDER BY pp.enrolled_at, pp.program_id)
                       FROM patient_programs pp WHERE pp.patient_id = p.id), '{}') AS programs,
           ${lastReadingBefore(sql`p.id`, sql`b.upto`, p.monthStart, p.monthEnd)} AS last_reading_at,
           ${lastOutreachBefore(sql`p.id`, sql`b.upto`)} AS last_outreach_at
      FROM patients p
      JOIN organizations o ON o.id = p.organization_id
      CROSS JOIN LATERAL (SELECT ((${p.monthEnd}::date + 1)::timestamp AT TIME ZONE o.time_zone) AS upto) b
      LEFT JOIN users u ON u.id = p.primary_provider_id
     WHERE p.id = ANY(${p.patientIds}::int[])`.compile(kysely(db)),
  );
  return detailsTemplate.run(db, { monthStart, monthEnd, patientIds });
}

export interface TimeEntryRow {
  patient_id: number;
  id: number;
  date: string;
  duration_minutes: number;
  interactive: boolean;
  contact_type: string | null;
  activity: string | null;
  notes: string | null;
  logged_by: string | null;
}

/**
 * Every tracking entry of the month that counts (dated on a day the patient was active), of one
 * patient or of all, with who logged it (name, else e-mail), oldest first.
 */
export async function monthTimeEntries(
  db: Queryable,
  monthStart: string,
  monthEnd: string,
  patientId: number | null,
): Promise<TimeEntryRow[]> {
  return kysely(db)
    .selectFrom('tracking_entries as t')
    .innerJoin('patients as p', 'p.id', 't.patient_id')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .leftJoin('users as u', 'u.id', 't.user_id')
    .select([
      't.patient_id',
      't.id',
      't.date',
      't.duration_minutes',
      't.interactive',
      't.contact_type',
      't.activity',
      't.notes',
      sql<string | null>`COALESCE(NULLIF(btrim(concat_ws(' ', u.first_name, u.last_name)), ''), u.email)`.as(
        'logged_by',
      ),
    ])
    .$if(patientId !== null, (q) => q.where('t.patient_id', '=', patientId ?? 0))
    .where('t.date', '>=', monthStart)
    .where('t.date', '<=', monthEnd)
    .where(sql<boolean>`rpm_patient_active_on(t.patient_id, t.date, o.time_zone)`)
    .orderBy('t.patient_id')
    .orderBy('t.date')
    .orderBy('t.id')
    .execute();
}
