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

type Fragment = ReturnType<typeof sql>;

/**
 * The patient's spans of activity, from the arrays `f.active_from` / `f.active_to` (open spans end
 * at 'infinity'), as rows `s(active_from, active_to)`. The spans are read once for all patients
 * (one hash join), not looked up again in each per-patient subquery.
 */
const spansOf = sql`unnest(f.active_from, f.active_to) AS s(active_from, active_to)`;

/**
 * The device readings of patient `f` that count (a billable reading while the patient was active,
 * rpm_patient_active_at: active_from <= t < active_to) measured in [from, until), until being at
 * most the month's end (f.upto): one index range per span of activity, so the cost is the one of
 * the readings themselves, not one function call per reading (the repository test checks both
 * agree at the spans' edges). Used as `FROM ${activeReadings(...)}`, with `v` the reading.
 */
function activeReadings(from: Fragment, until: Fragment = sql`f.upto`) {
  // OFFSET 0 keeps the readings a subquery of their own, planned with the span's bounds as its
  // parameters (an index range each); flattened into the join, the planner, which cannot know
  // that a patient has one span or two, may read the patient's whole history instead.
  return sql`${spansOf}
    CROSS JOIN LATERAL (
      SELECT v.created_at FROM observations v
       WHERE v.patient_id = f.id AND ${billableReading('v')}
         AND v.created_at >= greatest(s.active_from, ${from})
         AND v.created_at < least(s.active_to, ${until})
      OFFSET 0) v`;
}

/**
 * The first or last instant with counted device data, as a day of the organization: the min/max
 * of each span's readings (one index probe per span), then of the spans.
 */
function edgeDay(edge: 'min' | 'max') {
  const fn = sql.raw(edge);
  return sql`(SELECT (${fn}(x.at) AT TIME ZONE f.time_zone)::date
      FROM ${spansOf}
      CROSS JOIN LATERAL (
        SELECT ${fn}(v.created_at) AS at FROM observations v
         WHERE v.patient_id = f.id AND ${billableReading('v')}
           AND v.created_at >= s.active_from AND v.created_at < least(s.active_to, f.upto)) x)`;
}

/** What the database counts for one enrolled patient and month: the rules' inputs. */
export interface BillingInputRow {
  patient_id: number;
  patient_name: string;
  organization_id: number;
  /** Today in the organization's time zone. */
  today: string;
  first_day: string | null;
  /** The last day with counted device data, up to the month's end. */
  last_day: string | null;
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
 * one; minutes and interactive contact of the calendar month. Only what happened while the
 * patient was active counts (paused, discharged and declined days earn nothing): readings measured
 * while active (rpm_patient_active_at), tracking time dated on a day the patient was active at
 * some time (rpm_patient_active_on).
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
 * patient's history: each patient's readings are read through observations_device_day_idx only,
 * per span of activity (usually one)
 *  - for the first and last day: one index probe (min, max);
 *  - for 99453: one more probe, "a reading on another day of the first period" (the first period
 *    then has 2 days and is the setup period). Only a patient whose first period had a single day
 *    has their history counted per period;
 *  - for the day counts: the readings of the periods overlapping the month.
 */
export function billingInputsQuery(opts: BillingInputsScope) {
  const { monthStart, monthEnd, organizationId } = opts;
  const patientId = opts.patientId ?? null;
  const everyPatient = opts.everyPatient ?? false;
  const period = sql.lit(BILLING_PERIOD_DAYS);
  const localDay = sql`(v.created_at AT TIME ZONE f.time_zone)::date`;
  const midnight = (day: Fragment) => sql`((${day})::timestamp AT TIME ZONE f.time_zone)`;
  return sql<BillingInputRow>`
    WITH pts AS (
      SELECT p.id, p.organization_id, p.first_name, p.last_name, p.enrolled_rpm, o.time_zone,
             (now() AT TIME ZONE o.time_zone)::date AS today,
             ((${monthEnd}::date + 1)::timestamp AT TIME ZONE o.time_zone) AS upto,
             COALESCE(sp.active_from, '{}') AS active_from, COALESCE(sp.active_to, '{}') AS active_to
        FROM patients p JOIN organizations o ON o.id = p.organization_id
        LEFT JOIN (SELECT patient_id, array_agg(active_from) AS active_from,
                          array_agg(COALESCE(active_to, 'infinity'::timestamptz)) AS active_to
                     FROM patient_active_spans GROUP BY patient_id) sp ON sp.patient_id = p.id
       -- One patient's page shows the progress even before enrollment; the report lists the enrolled.
       WHERE (p.enrolled_rpm OR ${patientId}::int IS NOT NULL OR ${everyPatient}::boolean)
         AND (${organizationId}::int IS NULL OR p.organization_id = ${organizationId}::int)
         AND (${patientId}::int IS NULL OR p.id = ${patientId}::int)
    ),
    f AS (
      SELECT f.*, ${edgeDay('min')} AS first_day, ${edgeDay('max')} AS last_day
        FROM pts f
    ),
    counted AS (
      SELECT f.id AS patient_id, f.first_day, (d.day - f.first_day) / ${period} AS idx, count(*)::int AS days
        FROM f
        CROSS JOIN LATERAL (
          SELECT DISTINCT ${localDay} AS day
            -- From the first day of the first period that overlaps the month.
            FROM ${activeReadings(midnight(sql`f.first_day + ${period} * greatest(0, (${monthStart}::date - f.first_day) / ${period})`))}
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
                    SELECT 1
                      FROM ${activeReadings(midnight(sql`f.first_day + 1`), sql`least(f.upto, ${midnight(sql`f.first_day + ${period}`)})`)})
                  THEN 0
                  ELSE (SELECT min(idx) FROM (
                          SELECT (${localDay} - f.first_day) / ${period} AS idx, count(DISTINCT ${localDay}) AS n
                            FROM ${activeReadings(sql`'-infinity'::timestamptz`)}
                           GROUP BY 1) per_period
                         WHERE n >= ${sql.lit(DEVICE_DAYS_SHORT)})
             END AS setup_period
        FROM f WHERE f.first_day IS NOT NULL
    ),
    minutes AS (
      SELECT t.patient_id, sum(t.duration_minutes)::int AS minutes, bool_or(t.interactive) AS interactive
        FROM pts f JOIN tracking_entries t ON t.patient_id = f.id
       WHERE t.date BETWEEN ${monthStart}::date AND ${monthEnd}::date
         -- rpm_patient_active_on: active at some time of the entry's day.
         AND EXISTS (SELECT 1 FROM ${spansOf}
                      WHERE s.active_from < ${midnight(sql`t.date + 1`)} AND s.active_to > ${midnight(sql`t.date`)})
       GROUP BY t.patient_id
    )
    SELECT f.id AS patient_id,
           btrim(concat_ws(' ', f.first_name, f.last_name)) AS patient_name,
           f.organization_id,
           to_char(f.today, 'YYYY-MM-DD') AS today,
           to_char(f.first_day, 'YYYY-MM-DD') AS first_day,
           to_char(f.last_day, 'YYYY-MM-DD') AS last_day,
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

/** When the month was closed and its claims sent, or null while it is open. */
export async function findClosedMonth(
  db: Queryable,
  monthStart: string,
): Promise<{ closedAt: Date; claimsSentAt: Date | null } | null> {
  const row = await kysely(db)
    .selectFrom('billing_closed_months')
    .select(['closed_at', 'claims_sent_at'])
    .where('month', '=', monthStart)
    .executeTakeFirst();
  if (!row) return null;
  return { closedAt: new Date(row.closed_at), claimsSentAt: row.claims_sent_at ? new Date(row.claims_sent_at) : null };
}

/**
 * Reopens a closed month (the database function keeps the reopening with its reason, and drops the
 * close and its snapshot): 'reopened', 'not_closed' or 'claims_sent', and the time it happened.
 */
export async function reopenMonth(
  db: Queryable,
  monthStart: string,
  userId: number,
  reason: string,
): Promise<{ outcome: 'reopened' | 'not_closed' | 'claims_sent'; at: Date }> {
  const result = await sql<{ outcome: 'reopened' | 'not_closed' | 'claims_sent'; at: Date }>`
    SELECT rpm_reopen_billing_month(${monthStart}::date, ${userId}::int, ${reason}::text) AS outcome, now() AS at`.execute(
    kysely(db),
  );
  return result.rows[0]!;
}

/** Marks a closed month's claims as sent: 'sent', 'not_closed' or 'already_sent', and when. */
export async function markClaimsSent(
  db: Queryable,
  monthStart: string,
  userId: number,
): Promise<{ outcome: 'sent' | 'not_closed' | 'already_sent'; at: Date }> {
  const result = await sql<{ outcome: 'sent' | 'not_closed' | 'already_sent'; at: Date }>`
    SELECT rpm_mark_claims_sent(${monthStart}::date, ${userId}::int) AS outcome, now() AS at`.execute(kysely(db));
  return result.rows[0]!;
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
 * The worklist's extra columns for these patients, up to the month's end: the primary provider,
 * the programs (in the order of enrollment), the last reading of any kind and source (one probe
 * of observations_patient_time_idx) and the last outreach.
 */
export async function worklistDetails(
  db: Queryable,
  monthEnd: string,
  patientIds: number[],
): Promise<WorklistDetailsRow[]> {
  if (patientIds.length === 0) return [];
  const result = await sql<WorklistDetailsRow>`
    SELECT p.id AS patient_id,
           rpm_patient_active_at(p.id, now()) AS active,
           p.primary_provider_id,
           NULLIF(btrim(concat_ws(' ', u.first_name, u.last_name)), '') AS primary_provider,
           COALESCE((SELECT array_agg(pp.program_id ORDER BY pp.enrolled_at, pp.program_id)
                       FROM patient_programs pp WHERE pp.patient_id = p.id), '{}') AS programs,
           (SELECT max(v.created_at) FROM observations v
             WHERE v.patient_id = p.id AND v.created_at < b.upto) AS last_reading_at,
           (SELECT max(r.created_at) FROM patient_outreach r
             WHERE r.patient_id = p.id AND r.created_at < b.upto) AS last_outreach_at
      FROM patients p
      JOIN organizations o ON o.id = p.organization_id
      CROSS JOIN LATERAL (SELECT ((${monthEnd}::date + 1)::timestamp AT TIME ZONE o.time_zone) AS upto) b
      LEFT JOIN users u ON u.id = p.primary_provider_id
     WHERE p.id = ANY(${patientIds}::int[])`.execute(kysely(db));
  return result.rows;
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

/** An organization's time zone, or null when there is no such organization. */
export async function organizationTimeZone(db: Queryable, organizationId: number): Promise<string | null> {
  const row = await kysely(db)
    .selectFrom('organizations')
    .select('time_zone')
    .where('id', '=', organizationId)
    .executeTakeFirst();
  return row?.time_zone ?? null;
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

/**
 * Days of the month with device readings that count (the patient active), and how many, in each
 * patient's organization's time zone.
 */
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
       -- The days the row counts: readings while the patient was active.
       AND rpm_patient_active_at(v.patient_id, v.created_at)
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
