import { THRESHOLD_KEYS, type ThresholdOverrides } from '@rpm/contracts';
import { sql } from 'kysely';
import { kysely } from '../../db/kysely.ts';
import type { Queryable } from '../../db/pool.ts';

/** The patient, organization and month bounds (in the organization's time zone) a summary starts from. */
export interface SummaryHead {
  patient_id: number;
  first_name: string;
  last_name: string;
  date_of_birth: string | null;
  organization_id: number;
  organization_name: string;
  time_zone: string;
  period_start: Date;
  period_end: Date;
  /** The month has ended in the organization's time zone. */
  complete: boolean;
  /** The patient's care programs (ids). */
  programs: string[];
}

/** `month` is 'YYYY-MM'; its first day, as PostgreSQL reads a date. */
const firstDay = (month: string) => `${month}-01`;

export async function summaryHead(db: Queryable, patientId: number, month: string): Promise<SummaryHead | undefined> {
  const start = sql<Date>`((${firstDay(month)}::date)::timestamp AT TIME ZONE o.time_zone)`;
  const end = sql<Date>`(((${firstDay(month)}::date + interval '1 month'))::timestamp AT TIME ZONE o.time_zone)`;
  return kysely(db)
    .selectFrom('patients as p')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .select([
      'p.id as patient_id',
      'p.first_name',
      'p.last_name',
      sql<string | null>`p.date_of_birth::text`.as('date_of_birth'),
      'o.id as organization_id',
      'o.name as organization_name',
      'o.time_zone',
      start.as('period_start'),
      end.as('period_end'),
      sql<boolean>`now() >= ${end}`.as('complete'),
      sql<string[]>`coalesce((SELECT array_agg(pp.program_id ORDER BY pp.program_id) FROM patient_programs pp
                               WHERE pp.patient_id = p.id), '{}')`.as('programs'),
    ])
    .where('p.id', '=', patientId)
    .executeTakeFirst();
}

/** The organization's and the patient's own thresholds (null where not set), for `effectiveThresholds`. */
export async function thresholdOverrides(
  db: Queryable,
  patientId: number,
  organizationId: number,
): Promise<{ organization: ThresholdOverrides | null; patient: ThresholdOverrides | null }> {
  const organization = await kysely(db)
    .selectFrom('alert_settings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  const patient = await kysely(db)
    .selectFrom('patient_alert_thresholds')
    .selectAll()
    .where('patient_id', '=', patientId)
    .executeTakeFirst();
  const pick = (row: Record<string, unknown> | undefined): ThresholdOverrides | null => {
    if (!row) return null;
    const out: ThresholdOverrides = {};
    for (const key of THRESHOLD_KEYS) {
      const value = row[key];
      if (typeof value === 'number' || typeof value === 'string') out[key] = Number(value);
    }
    return out;
  };
  return { organization: pick(organization), patient: pick(patient) };
}

export interface SummaryReading {
  id: number;
  kind: string;
  components: Record<string, number>;
  /** The day measured in the organization's time zone. */
  day: string;
}

/** The patient's readings measured in [start, end), oldest first, with their local day. */
export async function monthReadings(
  db: Queryable,
  patientId: number,
  period: { start: Date; end: Date; timeZone: string },
): Promise<SummaryReading[]> {
  return kysely(db)
    .selectFrom('observations')
    .select([
      'id',
      'kind',
      'components',
      sql<string>`((created_at AT TIME ZONE ${period.timeZone})::date)::text`.as('day'),
    ])
    .where('patient_id', '=', patientId)
    .where('created_at', '>=', period.start)
    .where('created_at', '<', period.end)
    // The store writes components as an object of numbers (from the registry).
    .$narrowType<{ components: Record<string, number> }>()
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Alerts first raised in [start, end): their state and resolution now. */
export async function monthAlerts(
  db: Queryable,
  patientId: number,
  period: { start: Date; end: Date },
): Promise<{ status: string; resolution_reason: string | null }[]> {
  return kysely(db)
    .selectFrom('alerts')
    .select(['status', 'resolution_reason'])
    .where('patient_id', '=', patientId)
    .where('first_at', '>=', period.start)
    .where('first_at', '<', period.end)
    .execute();
}

export async function monthNotes(
  db: Queryable,
  patientId: number,
  period: { start: Date; end: Date; timeZone: string },
): Promise<{ date: string; author: string | null; text: string }[]> {
  return kysely(db)
    .selectFrom('notes as n')
    .leftJoin('users as u', 'u.id', 'n.author_id')
    .select([
      sql<string>`((n.created_at AT TIME ZONE ${period.timeZone})::date)::text`.as('date'),
      sql<string | null>`nullif(btrim(concat_ws(' ', u.first_name, u.last_name)), '')`.as('author'),
      'n.content as text',
    ])
    .where('n.patient_id', '=', patientId)
    .where('n.created_at', '>=', period.start)
    .where('n.created_at', '<', period.end)
    .orderBy('n.created_at')
    .orderBy('n.id')
    .execute();
}

/** Tracking entries dated in the calendar month (their date is already the organization's day). */
export async function monthTracking(
  db: Queryable,
  patientId: number,
  month: string,
): Promise<
  { date: string; minutes: number; activity: string | null; interactive: boolean; contact_type: string | null }[]
> {
  return kysely(db)
    .selectFrom('tracking_entries')
    .select([
      sql<string>`date::text`.as('date'),
      'duration_minutes as minutes',
      'activity',
      'interactive',
      'contact_type',
    ])
    .where('patient_id', '=', patientId)
    .where(sql<boolean>`date >= ${firstDay(month)}::date AND date < (${firstDay(month)}::date + interval '1 month')`)
    .orderBy('date')
    .orderBy('id')
    .execute();
}

/**
 * The patients enrolled in RPM whose primary or ordering provider is `providerId`, limited to an
 * organization (`null`: every one), by name.
 */
export async function providerPatientIds(
  db: Queryable,
  providerId: number,
  organizationId: number | null,
): Promise<number[]> {
  let q = kysely(db)
    .selectFrom('patients')
    .select('id')
    .where('enrolled_rpm', '=', true)
    .where((eb) => eb.or([eb('primary_provider_id', '=', providerId), eb('ordering_provider_id', '=', providerId)]));
  if (organizationId !== null) q = q.where('organization_id', '=', organizationId);
  const rows = await q.orderBy('last_name').orderBy('first_name').orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** The months (organization's time zone, 'YYYY-MM') in which the patient has readings, newest first. */
export async function monthsWithReadings(db: Queryable, patientId: number): Promise<string[]> {
  const rows = await kysely(db)
    .selectFrom('observations as v')
    .innerJoin('patients as p', 'p.id', 'v.patient_id')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .select(sql<string>`to_char(v.created_at AT TIME ZONE o.time_zone, 'YYYY-MM')`.as('month'))
    .where('v.patient_id', '=', patientId)
    .groupBy(sql`1`)
    .orderBy(sql`1`, 'desc')
    .execute();
  return rows.map((r) => r.month);
}
