import { MANUAL_SOURCE } from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

export interface VitalRow {
  created_at: Date;
  systolic: number;
  diastolic: number;
  pulse: number | null;
  source: string;
}

/** One point of the chart: seconds since the epoch and the pressure. */
export interface VitalSeriesRow {
  t: number;
  systolic: number;
  diastolic: number;
}

const VITAL_COLUMNS = ['created_at', 'systolic', 'diastolic', 'pulse', 'source'] as const;

/**
 * One page, newest first: a range scan of vitals_patient_time_idx that stops after `limit`
 * rows, whatever the patient's total.
 */
export async function pageVitals(db: Queryable, patientId: number, limit: number, offset: number): Promise<VitalRow[]> {
  return kysely(db)
    .selectFrom('vitals')
    .select(VITAL_COLUMNS)
    .where('patient_id', '=', patientId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/**
 * The patient's number of readings, kept exact by triggers on vitals (migration 0300): one
 * primary-key lookup instead of counting up to 100,000+ index entries on every page.
 */
export async function countVitals(db: Queryable, patientId: number): Promise<number> {
  const row = await kysely(db).selectFrom('patient_vital_counts').select('n').where('patient_id', '=', patientId).executeTakeFirst();
  return row?.n ?? 0;
}

/** Newest `max` readings since `days` ago, oldest first. */
export async function vitalSeries(db: Queryable, patientId: number, days: number, max: number): Promise<VitalSeriesRow[]> {
  const newest = kysely(db)
    .selectFrom('vitals')
    .select(['created_at', 'id', 'systolic', 'diastolic'])
    .where('patient_id', '=', patientId)
    .where('created_at', '>=', sql<Date>`now() - make_interval(days => ${days})`)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(max)
    .as('newest');
  return kysely(db)
    .selectFrom(newest)
    .select([sql<number>`extract(epoch FROM created_at)::float8`.as('t'), 'systolic', 'diastolic'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A reading typed in by staff: no device, source 'manual' (billing never counts these). */
export async function insertManualVital(
  db: Queryable,
  patientId: number,
  r: { measuredAt: Date; systolic: number; diastolic: number; pulse: number | null },
): Promise<VitalRow & { id: number }> {
  return kysely(db)
    .insertInto('vitals')
    .values({ patient_id: patientId, created_at: r.measuredAt, systolic: r.systolic, diastolic: r.diastolic, pulse: r.pulse, source: MANUAL_SOURCE })
    .returning(['id', ...VITAL_COLUMNS])
    .executeTakeFirstOrThrow();
}
