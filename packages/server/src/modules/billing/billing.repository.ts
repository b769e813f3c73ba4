import { BILLING_PERIOD_DAYS, DEVICE_DAYS_SHORT } from '@rpm/contracts';
import { sql } from 'kysely';
import { kysely } from '../../db/kysely.ts';
import type { Queryable } from '../../db/pool.ts';

type Fragment = ReturnType<typeof sql>;

/**
 * The patient's spans of activity, from the arrays `f.active_from` / `f.active_to` (open spans end
 * at 'infinity'), as rows `s(active_from, active_to)`. The spans are read once for all patients
 * (one hash join), not looked up again in each per-patient subquery.
 */
const spansOf = sql`unnest(f.active_from, f.active_to) AS s(active_from, active_to)`;

/**
 * How many days of [a, b] (dates) patient `f` has counted device data on, from the patient's
 * billing_reading_months rows (kept by the database as readings are written: device readings of a
 * physiologic kind, measured while the patient was active, by day of the organization's calendar).
 * At most two rows per 30-day range, however long the history.
 */
function daysIn(a: Fragment, b: Fragment) {
  return sql`(SELECT coalesce(sum(rpm_month_days_in(b.month, b.days, ${a}, ${b})), 0)::int
      FROM billing_reading_months b
     WHERE b.patient_id = f.id AND b.month >= date_trunc('month', (${a})::timestamp)::date AND b.month <= ${b})`;
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
  /** Active for billing now (rpm_patient_active_at(now())): later readings and minutes can count. */
  active: boolean;
  time_zone: string;
  /**
   * Until when this row holds with no change of the data: the next midnight of the organization's
   * calendar (today moves), or the next start or end of an activity span (active changes).
   */
  fresh_until: Date;
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
  /** Only these patients (the kept lines computed again). */
  patientIds?: readonly number[];
  /** Every patient, enrolled or not (a month's snapshot keeps each patient's page as it was). */
  everyPatient?: boolean;
  /** The worklist's filters, applied here so a page is cut from the matching rows only. */
  providerId?: number;
  program?: string;
}

/**
 * The query itself, apart, so the benchmark can show its plan. Its cost does not grow with a
 * patient's history: it reads billing_reading_starts (the first two days with counted data) and
 * the billing_reading_months rows of the month and the two before it (a 30-day period overlapping
 * the month starts at most 29 days before it), all patients at once; only two cases look further,
 * with index probes of the patient's month rows:
 *  - the last day with data, for a patient with none in those three months;
 *  - the setup period (99453), for a patient whose first period had a single day: their history is
 *    then counted per period.
 */
export function billingInputsQuery(opts: BillingInputsScope) {
  const { monthStart, monthEnd, organizationId } = opts;
  const patientId = opts.patientId ?? null;
  const patientIds = opts.patientIds ? [...opts.patientIds] : null;
  const everyPatient = opts.everyPatient ?? false;
  const providerId = opts.providerId ?? null;
  const program = opts.program ?? null;
  const period = sql.lit(BILLING_PERIOD_DAYS);
  const lastOfPeriod = sql.lit(BILLING_PERIOD_DAYS - 1);
  const start = sql`${monthStart}::date`;
  const end = sql`${monthEnd}::date`;
  const midnight = (day: Fragment) => sql`((${day})::timestamp AT TIME ZONE f.time_zone)`;
  const monthBefore = (n: number) => sql`(${start} - ${sql.lit(`${n} month`)}::interval)::date`;
  // Period k of patient f: [first_day + k * 30, first_day + k * 30 + 29], cut at the month's end
  // (readings after the month are left out, so a past month's report does not change later).
  const periodStart = (k: Fragment) => sql`f.first_day + ${period} * ${k}`;
  const periodEnd = (k: Fragment) => sql`least(f.first_day + ${period} * ${k} + ${lastOfPeriod}, ${end})`;
  // Its days, from the three month rows at hand (enough for the periods overlapping the month).
  const recentDays = (
    k: Fragment,
  ) => sql`(coalesce(rpm_month_days_in(f.m0, f.d0, ${periodStart(k)}, ${periodEnd(k)}), 0)
      + coalesce(rpm_month_days_in(f.m1, f.d1, ${periodStart(k)}, ${periodEnd(k)}), 0)
      + coalesce(rpm_month_days_in(f.m2, f.d2, ${periodStart(k)}, ${periodEnd(k)}), 0))`;
  const lastBit = (m: string, d: string) => sql`${sql.ref(m)} + 31 - position('1' IN reverse(${sql.ref(d)}::text))`;
  return sql<BillingInputRow>`
    WITH pts AS (
      SELECT p.id, p.organization_id, p.first_name, p.last_name, p.enrolled_rpm, o.time_zone,
             (now() AT TIME ZONE o.time_zone)::date AS today,
             COALESCE(sp.active_from, '{}') AS active_from, COALESCE(sp.active_to, '{}') AS active_to,
             CASE WHEN st.first_day <= ${end} THEN st.first_day END AS first_day,
             st.second_day,
             b2.month AS m2, b2.days AS d2, b1.month AS m1, b1.days AS d1, b0.month AS m0, b0.days AS d0
        FROM patients p JOIN organizations o ON o.id = p.organization_id
        LEFT JOIN (SELECT patient_id, array_agg(active_from) AS active_from,
                          array_agg(COALESCE(active_to, 'infinity'::timestamptz)) AS active_to
                     FROM patient_active_spans GROUP BY patient_id) sp ON sp.patient_id = p.id
        LEFT JOIN billing_reading_starts st ON st.patient_id = p.id
        LEFT JOIN billing_reading_months b0 ON b0.patient_id = p.id AND b0.month = ${start}
        LEFT JOIN billing_reading_months b1 ON b1.patient_id = p.id AND b1.month = ${monthBefore(1)}
        LEFT JOIN billing_reading_months b2 ON b2.patient_id = p.id AND b2.month = ${monthBefore(2)}
       -- One patient's page shows the progress even before enrollment; the report lists the enrolled.
       WHERE (p.enrolled_rpm OR ${patientId}::int IS NOT NULL OR ${everyPatient}::boolean)
         AND (${organizationId}::int IS NULL OR p.organization_id = ${organizationId}::int)
         AND (${patientId}::int IS NULL OR p.id = ${patientId}::int)
         -- IN (unnest): a hashed semi-join; = ANY would scan the array once per patient.
         AND (${patientIds}::int[] IS NULL OR p.id IN (SELECT unnest(${patientIds}::int[])))
         AND (${providerId}::int IS NULL OR p.primary_provider_id = ${providerId}::int)
         AND (${program}::text IS NULL OR EXISTS (SELECT 1 FROM patient_programs pp
                                                  WHERE pp.patient_id = p.id AND pp.program_id = ${program}::text))
    ),
    f AS (
      SELECT f.*,
             CASE WHEN f.first_day IS NULL THEN NULL
                  WHEN f.m0 IS NOT NULL THEN ${lastBit('f.m0', 'f.d0')}
                  WHEN f.m1 IS NOT NULL THEN ${lastBit('f.m1', 'f.d1')}
                  WHEN f.m2 IS NOT NULL THEN ${lastBit('f.m2', 'f.d2')}
                  ELSE (SELECT ${lastBit('b.month', 'b.days')} FROM billing_reading_months b
                         WHERE b.patient_id = f.id AND b.month <= ${start} ORDER BY b.month DESC LIMIT 1)
             END AS last_day,
             -- The first period overlapping the month (the next one may too).
             greatest(0, (${start} - f.first_day) / ${period}) AS k0
        FROM pts f
    ),
    -- MATERIALIZED: computed once per patient, then joined by id (inlined, the planner may
    -- evaluate it once per pair of patients).
    per_patient AS MATERIALIZED (
      SELECT f.id AS patient_id,
             -- Periods with no day left out, and none at all as null (as an aggregate of the days would).
             NULLIF(jsonb_strip_nulls(jsonb_build_object(
               f.k0::text, NULLIF(${recentDays(sql`f.k0`)}, 0),
               (f.k0 + 1)::text, CASE WHEN ${periodStart(sql`(f.k0 + 1)`)} <= ${end}
                                      THEN NULLIF(${recentDays(sql`(f.k0 + 1)`)}, 0) END)), '{}'::jsonb) AS period_days,
             CASE WHEN f.second_day <= least(f.first_day + ${lastOfPeriod}, ${end})
                  THEN 0
                  ELSE (SELECT min(g.idx) FROM generate_series(0, (${end} - f.first_day) / ${period}) AS g(idx)
                         WHERE ${daysIn(periodStart(sql`g.idx`), periodEnd(sql`g.idx`))} >= ${sql.lit(DEVICE_DAYS_SHORT)})
             END AS setup_period
        FROM f WHERE f.first_day IS NOT NULL
    ),
    minutes AS (
      SELECT t.patient_id, sum(t.duration_minutes)::int AS minutes, bool_or(t.interactive) AS interactive
        FROM pts f JOIN tracking_entries t ON t.patient_id = f.id
       WHERE t.date BETWEEN ${start} AND ${end}
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
           pp.setup_period,
           pp.period_days,
           COALESCE(m.minutes, 0) AS minutes,
           COALESCE(m.interactive, false) AS interactive,
           f.enrolled_rpm AS enrolled,
           -- rpm_patient_active_at(id, now()), from the spans already at hand.
           EXISTS (SELECT 1 FROM ${spansOf} WHERE s.active_from <= now() AND s.active_to > now()) AS active,
           f.time_zone,
           least(((f.today + 1)::timestamp AT TIME ZONE f.time_zone),
                 (SELECT min(x) FROM unnest(f.active_from || f.active_to) AS x WHERE x > now())) AS fresh_until
      FROM f
      LEFT JOIN per_patient pp ON pp.patient_id = f.id
      LEFT JOIN minutes m ON m.patient_id = f.id
     ORDER BY lower(f.last_name), lower(f.first_name), f.id`;
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
 * patient's organization's time zone: the month's row of billing_reading_months, which the
 * database keeps with exactly these counts (migration 1010), so that closing a month does not read
 * the month's readings again. `monthStart` is the first day of a calendar month and `monthEnd` its
 * last.
 */
export async function readingDays(
  db: Queryable,
  monthStart: string,
  monthEnd: string,
  patientId: number | null,
): Promise<{ patient_id: number; day: string; readings: number }[]> {
  const result = await sql<{ patient_id: number; day: string; readings: number }>`
    SELECT b.patient_id, to_char(b.month + u.i::int - 1, 'YYYY-MM-DD') AS day, u.n AS readings
      FROM billing_reading_months b
     CROSS JOIN LATERAL unnest(b.readings) WITH ORDINALITY AS u(n, i)
     WHERE b.month = ${monthStart}::date AND (${patientId}::int IS NULL OR b.patient_id = ${patientId}::int)
       AND u.n > 0 AND b.month + u.i::int - 1 <= ${monthEnd}::date
     ORDER BY 1, 2`.execute(kysely(db));
  return result.rows;
}
