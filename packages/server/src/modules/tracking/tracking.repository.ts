import { TRACKING_MONTH_TOTALS, type TrackingMonthTotal } from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';
import { countPatientRows } from '../../kernel/patient-scope.repository.ts';

/** One tracking entry: minutes spent on a patient on one day (table tracking_entries). */
export interface TrackingEntryRow {
  id: number;
  date: string;
  duration_minutes: number;
  notes: string | null;
  /** A real-time interactive communication with the patient or caregiver (billing needs one a month). */
  interactive: boolean;
  /** What the time was spent on (TRACKING_ACTIVITIES; the table's check keeps it to those). */
  activity: string | null;
  /** The live contact's kind (CONTACT_TYPES); only on an interactive entry. */
  contact_type: string | null;
  /** What the care timer measured, when the entry came from it. */
  measured_minutes: number | null;
  /** Why the entry claims more minutes than were measured. */
  adjustment_reason: string | null;
}

const ENTRY_COLUMNS = [
  'id',
  'date',
  'duration_minutes',
  'notes',
  'interactive',
  'activity',
  'contact_type',
  'measured_minutes',
  'adjustment_reason',
] as const;

/** Newest day first, a range scan of tracking_entries_patient_idx. */
export async function pageTrackingEntries(
  db: Queryable,
  patientId: number,
  limit: number,
  offset: number,
): Promise<TrackingEntryRow[]> {
  return kysely(db)
    .selectFrom('tracking_entries')
    .select(ENTRY_COLUMNS)
    .where('patient_id', '=', patientId)
    .orderBy('date', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countTrackingEntries(db: Queryable, patientId: number): Promise<number> {
  return countPatientRows(db, 'tracking_entries', patientId);
}

export async function insertTrackingEntry(
  db: Queryable,
  patientId: number,
  userId: number,
  entry: Omit<TrackingEntryRow, 'id'>,
): Promise<TrackingEntryRow> {
  return kysely(db)
    .insertInto('tracking_entries')
    .values({
      patient_id: patientId,
      user_id: userId,
      date: entry.date,
      duration_minutes: entry.duration_minutes,
      notes: entry.notes,
      interactive: entry.interactive,
      activity: entry.activity,
      contact_type: entry.contact_type,
      measured_minutes: entry.measured_minutes,
      adjustment_reason: entry.adjustment_reason,
    })
    .returning(ENTRY_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Minutes per calendar month, newest month first (the months with entries only). */
export async function monthTotals(db: Queryable, patientId: number): Promise<TrackingMonthTotal[]> {
  const month = sql<string>`to_char(date_trunc('month', date), 'YYYY-MM')`;
  return kysely(db)
    .selectFrom('tracking_entries')
    .select([month.as('month'), sql<number>`sum(duration_minutes)::int`.as('minutes')])
    .where('patient_id', '=', patientId)
    .groupBy(month)
    .orderBy(month, 'desc')
    .limit(TRACKING_MONTH_TOTALS)
    .execute();
}

/**
 * Minutes already tracked for the patient on that day. Locks the patient's row first, so that two
 * entries saved at once for the same patient are counted one after the other.
 */
export async function lockedMinutesOnDay(db: Queryable, patientId: number, date: string): Promise<number> {
  await kysely(db).selectFrom('patients').select('id').where('id', '=', patientId).forUpdate().execute();
  const row = await kysely(db)
    .selectFrom('tracking_entries')
    .select(sql<number>`COALESCE(SUM(duration_minutes), 0)::int`.as('minutes'))
    .where('patient_id', '=', patientId)
    .where('date', '=', date)
    .executeTakeFirstOrThrow();
  return row.minutes;
}

/** Today in the patient's organization's time zone, 'YYYY-MM-DD': the day minutes logged now count for. */
export async function organizationToday(db: Queryable, patientId: number): Promise<string> {
  const row = await kysely(db)
    .selectFrom('patients as p')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .select(sql<string>`to_char((now() AT TIME ZONE o.time_zone)::date, 'YYYY-MM-DD')`.as('today'))
    .where('p.id', '=', patientId)
    .executeTakeFirstOrThrow();
  return row.today;
}
