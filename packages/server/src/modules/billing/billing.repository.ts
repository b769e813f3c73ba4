import { BILLING_PERIOD_DAYS, DEVICE_DAYS_SHORT, MANUAL_SOURCE, MEASUREMENT_KINDS } from '@rpm/contracts';
import { sql } from 'kysely';
import { kysely } from '../../db/kysely.ts';
import type { Queryable } from '../../db/pool.ts';

/**
 * Device data that counts for billing (CMS 99454/99445 days): a reading from a device (never one
 * typed in) of a kind the registry marks physiologic. Constants written into the SQL as literals:
 * the planner matches the partial index's predicate, and prepared statements keep one plan.
 */
function billableReading(alias: string) {
  const physiologic = MEASUREMENT_KINDS.filter((k) => k.physiologic).map((k) => sql.lit(k.kind));
  const kinds = physiologic.length > 0 ? sql`${sql.ref(`${alias}.kind`)} IN (${sql.join(physiologic)})` : sql`false`;
  return sql`(${sql.ref(`${alias}.source`)} <> ${sql.lit(MANUAL_SOURCE)} AND ${kinds})`;
}

/** What the database counts for one enrolled patient and month: the rules' inputs. */
export interface BillingInputRow {
  patient_id: number;
  patient_name: string;
  organization_id: number;
  /** Today in the organization's time zone. */
  today: string;
  first_day: string | null;
  setup_period: number | null;
  /** Days with device data per period index, for the periods overlapping the month. */
  period_days: Record<string, number> | null;
  minutes: number;
  interactive: boolean;
  enrolled: boolean;
  time_zone: string;
}

/**
 * The rules' inputs for every enrolled patient in scope, computed in PostgreSQL: distinct days
 * with device readings of a physiologic kind in the organization's time zone (manual readings never
 * count; a cuff and a scale on one day make one day), grouped into 30-day periods from the first
 * one; minutes and interactive contact of the calendar month.
 * Readings after the month are left out, so a past month's report does not change later.
 */
export async function billingInputs(db: Queryable, opts: BillingInputsScope): Promise<BillingInputRow[]> {
  return (await billingInputsQuery(opts).execute(kysely(db))).rows;
}

export interface BillingInputsScope {
  monthStart: string;
  monthEnd: string;
  organizationId: number | null;
  patientId?: number;
  /** Every patient, enrolled or not (a month's snapshot keeps each patient's page as it was). */
  everyPatient?: boolean;
}

/**
 * The query itself, apart, so the benchmark can show its plan. Its cost must not grow with a
 * patient's history: each patient's readings are read through vitals_device_day_idx only
 *  - for the first day: one index probe (min);
 *  - for 99453: one more probe, "a reading on another day of the first period" (the first period
 *    then has 2 days and is the setup period). Only a patient whose first period had a single day
 *    has their history counted per period;
 *  - for the day counts: the readings of the periods overlapping the month.
 */
export function billingInputsQuery(opts: BillingInputsScope) {
  const { monthStart, monthEnd, organizationId } = opts;
  const patientId = opts.patientId ?? null;
  const everyPatient = opts.everyPatient ?? false;
  // A constant, written into the SQL so the planner can match the partial index's predicate.
  const device = billableReading('v');
  const period = sql.lit(BILLING_PERIOD_DAYS);
  const localDay = sql`(v.created_at AT TIME ZONE f.time_zone)::date`;
  const midnight = (day: ReturnType<typeof sql>) => sql`((${day})::timestamp AT TIME ZONE f.time_zone)`;
  return sql<BillingInputRow>`
    WITH pts AS (
      SELECT p.id, p.organization_id, p.first_name, p.last_name, p.enrolled_rpm, o.time_zone,
             (now() AT TIME ZONE o.time_zone)::date AS today,
             ((${monthEnd}::date + 1)::timestamp AT TIME ZONE o.time_zone) AS upto
        FROM patients p JOIN organizations o ON o.id = p.organization_id
       -- One patient's page shows the progress even before enrollment; the report lists the enrolled.
       WHERE (p.enrolled_rpm OR ${patientId}::int IS NOT NULL OR ${everyPatient}::boolean)
         AND (${organizationId}::int IS NULL OR p.organization_id = ${organizationId}::int)
         AND (${patientId}::int IS NULL OR p.id = ${patientId}::int)
    ),
    f AS (
      SELECT pts.*,
             (SELECT (min(v.created_at) AT TIME ZONE pts.time_zone)::date
                FROM observations v WHERE v.patient_id = pts.id AND ${device} AND v.created_at < pts.upto) AS first_day
        FROM pts
    ),
    counted AS (
      SELECT f.id AS patient_id, f.first_day, (d.day - f.first_day) / ${period} AS idx, count(*)::int AS days
        FROM f
        CROSS JOIN LATERAL (
          SELECT DISTINCT ${localDay} AS day
            FROM observations v
           WHERE v.patient_id = f.id AND ${device} AND v.created_at < f.upto
             -- From the first day of the first period that overlaps the month.
             AND v.created_at >= ${midnight(sql`f.first_day + ${period} * greatest(0, (${monthStart}::date - f.first_day) / ${period})`)}
        ) d
       WHERE f.first_day IS NOT NULL
       GROUP BY 1, 2, 3
    ),
    per_patient AS (
      SELECT patient_id,
             jsonb_object_agg(idx, days) FILTER (
               WHERE first_day + idx * ${period} <= ${monthEnd}::date
                 AND first_day + idx * ${period} + ${sql.lit(BILLING_PERIOD_DAYS - 1)} >= ${monthStart}::date
             ) AS period_days
        FROM counted GROUP BY patient_id
    ),
    setup AS (
      SELECT f.id AS patient_id,
             CASE WHEN EXISTS (
                    SELECT 1 FROM observations v
                     WHERE v.patient_id = f.id AND ${device} AND v.created_at < f.upto
                       AND v.created_at >= ${midnight(sql`f.first_day + 1`)}
                       AND v.created_at < ${midnight(sql`f.first_day + ${period}`)})
                  THEN 0
                  ELSE (SELECT min(idx) FROM (
                          SELECT (${localDay} - f.first_day) / ${period} AS idx, count(DISTINCT ${localDay}) AS n
                            FROM observations v WHERE v.patient_id = f.id AND ${device} AND v.created_at < f.upto
                           GROUP BY 1) per_period
                         WHERE n >= ${sql.lit(DEVICE_DAYS_SHORT)})
             END AS setup_period
        FROM f WHERE f.first_day IS NOT NULL
    ),
    minutes AS (
      SELECT t.patient_id, sum(t.duration_minutes)::int AS minutes, bool_or(t.interactive) AS interactive
        FROM pts JOIN tracking_sessions t ON t.patient_id = pts.id
       WHERE t.date BETWEEN ${monthStart}::date AND ${monthEnd}::date
       GROUP BY t.patient_id
    )
    SELECT f.id AS patient_id,
           btrim(concat_ws(' ', f.first_name, f.last_name)) AS patient_name,
           f.organization_id,
           to_char(f.today, 'YYYY-MM-DD') AS today,
           to_char(f.first_day, 'YYYY-MM-DD') AS first_day,
           s.setup_period,
           pp.period_days,
           COALESCE(m.minutes, 0) AS minutes,
           COALESCE(m.interactive, false) AS interactive,
           f.enrolled_rpm AS enrolled,
           f.time_zone
      FROM f
      LEFT JOIN setup s ON s.patient_id = f.id
      LEFT JOIN per_patient pp ON pp.patient_id = f.id
      LEFT JOIN minutes m ON m.patient_id = f.id
     ORDER BY lower(f.last_name), lower(f.first_name), f.id`;
}

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

/** When the month was closed, or null while it is open. */
export async function findClosedMonth(db: Queryable, monthStart: string): Promise<Date | null> {
  const row = await kysely(db)
    .selectFrom('billing_closed_months')
    .select('closed_at')
    .where('month', '=', monthStart)
    .executeTakeFirst();
  return row ? new Date(row.closed_at) : null;
}

/** Whether the calendar month of `date` is closed for billing. */
export async function isDateInClosedMonth(db: Queryable, date: string): Promise<boolean> {
  const row = await kysely(db)
    .selectFrom('billing_closed_months')
    .select('month')
    .where('month', '=', sql<string>`date_trunc('month', ${date}::date)::date`)
    .executeTakeFirst();
  return row !== undefined;
}

/** Null when the month was already closed. */
export async function insertClosedMonth(db: Queryable, monthStart: string, userId: number): Promise<Date | null> {
  const row = await kysely(db)
    .insertInto('billing_closed_months')
    .values({ month: monthStart, closed_by: userId })
    .onConflict((oc) => oc.column('month').doNothing())
    .returning('closed_at')
    .executeTakeFirst();
  return row ? new Date(row.closed_at) : null;
}

/** The patient's organization time zone (days with readings are that organization's days). */
export async function patientTimeZone(db: Queryable, patientId: number): Promise<string> {
  const row = await kysely(db)
    .selectFrom('patients as p')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .select('o.time_zone')
    .where('p.id', '=', patientId)
    .executeTakeFirstOrThrow();
  return row.time_zone;
}

/** Days of the month with device readings, and how many, in each patient's organization's time zone. */
export async function readingDays(
  db: Queryable,
  monthStart: string,
  monthEnd: string,
  patientId: number | null,
): Promise<{ patient_id: number; day: string; readings: number }[]> {
  const result = await sql<{ patient_id: number; day: string; readings: number }>`
    SELECT v.patient_id, to_char((v.created_at AT TIME ZONE o.time_zone)::date, 'YYYY-MM-DD') AS day, count(*)::int AS readings
      FROM observations v
      JOIN patients p ON p.id = v.patient_id
      JOIN organizations o ON o.id = p.organization_id
     WHERE (${patientId}::int IS NULL OR v.patient_id = ${patientId}::int) AND ${billableReading('v')}
       AND v.created_at >= (${monthStart}::date::timestamp AT TIME ZONE o.time_zone)
       AND v.created_at < ((${monthEnd}::date + 1)::timestamp AT TIME ZONE o.time_zone)
     GROUP BY 1, 2 ORDER BY 1, 2`.execute(kysely(db));
  return result.rows;
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

/** Every tracking entry of the month (of one patient, or of all) with who logged it (name, else e-mail), oldest first. */
export async function monthTimeEntries(
  db: Queryable,
  monthStart: string,
  monthEnd: string,
  patientId: number | null,
): Promise<TimeEntryRow[]> {
  return kysely(db)
    .selectFrom('tracking_sessions as t')
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
    .orderBy('t.patient_id')
    .orderBy('t.date')
    .orderBy('t.id')
    .execute();
}

/** One patient's line of a closed month, as it was when the month was closed. */
export interface SnapshotRow<Line, Claim, Evidence> {
  patient_id: number;
  organization_id: number;
  enrolled: boolean;
  position: number;
  line: Line;
  claim: Claim;
  evidence: Evidence;
}

// Rows per INSERT: 8 parameters each, far below PostgreSQL's 65,535.
const SNAPSHOT_CHUNK = 1000;

export async function insertMonthSnapshot<L, C, E>(
  db: Queryable,
  monthStart: string,
  rows: SnapshotRow<L, C, E>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += SNAPSHOT_CHUNK) {
    await kysely(db)
      .insertInto('billing_month_snapshots')
      .values(
        rows.slice(i, i + SNAPSHOT_CHUNK).map((r) => ({
          month: monthStart,
          patient_id: r.patient_id,
          organization_id: r.organization_id,
          enrolled: r.enrolled,
          position: r.position,
          line: JSON.stringify(r.line),
          claim: JSON.stringify(r.claim),
          evidence: JSON.stringify(r.evidence),
        })),
      )
      .execute();
  }
}

/** A closed month's lines in the report's order: the enrolled patients in scope, or one patient. */
export async function monthSnapshot<L, C, E>(
  db: Queryable,
  monthStart: string,
  scope: { organizationId: number | null; patientId?: number },
): Promise<SnapshotRow<L, C, E>[]> {
  const { organizationId, patientId } = scope;
  const rows = await kysely(db)
    .selectFrom('billing_month_snapshots')
    .select(['patient_id', 'organization_id', 'enrolled', 'position', 'line', 'claim', 'evidence'])
    .where('month', '=', monthStart)
    .$if(patientId === undefined, (q) => q.where('enrolled', '=', true))
    .$if(patientId !== undefined, (q) => q.where('patient_id', '=', patientId ?? 0))
    .$if(organizationId !== null, (q) => q.where('organization_id', '=', organizationId ?? 0))
    .orderBy('position')
    .execute();
  return rows.map((r) => ({ ...r, line: r.line as L, claim: r.claim as C, evidence: r.evidence as E }));
}

/**
 * For each (patient, measured time): whether it falls in a closed month of the patient's
 * organization's calendar. One statement for a whole batch, so ingestion can reject those readings
 * one by one instead of having the database refuse the batch's single insert.
 */
export async function inClosedMonths(
  db: Queryable,
  readings: readonly { patientId: number; at: string }[],
): Promise<boolean[]> {
  if (readings.length === 0) return [];
  const result = await sql<{ closed: boolean }>`
    SELECT COALESCE(rpm_closed_month_at(r.at, o.time_zone), false) AS closed
      FROM unnest(${readings.map((r) => r.patientId)}::int[], ${readings.map((r) => r.at)}::timestamptz[]) WITH ORDINALITY AS r(patient_id, at, n)
      LEFT JOIN patients p ON p.id = r.patient_id
      LEFT JOIN organizations o ON o.id = p.organization_id
     ORDER BY r.n`.execute(kysely(db));
  return result.rows.map((r) => r.closed);
}
