import { MANUAL_SOURCE, type Vital, type VitalSeries } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';

/**
 * One page, newest first: a range scan of vitals_patient_time_idx that stops after `limit`
 * rows, whatever the patient's total.
 */
export async function pageVitals(db: Queryable, patientId: number, limit: number, offset: number): Promise<Vital[]> {
  const { rows } = await db.query<{ created_at: Date; systolic: number; diastolic: number; pulse: number | null; source: string }>(
    `SELECT created_at, systolic, diastolic, pulse, source FROM vitals
      WHERE patient_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [patientId, limit, offset],
  );
  return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
}

/**
 * The patient's number of readings, kept exact by triggers on vitals (migration 0300): one
 * primary-key lookup instead of counting up to 100,000+ index entries on every page.
 */
export async function countVitals(db: Queryable, patientId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT n FROM patient_vital_counts WHERE patient_id = $1', [
    patientId,
  ]);
  return rows[0]?.n ?? 0;
}

/** Newest `max` readings since `days` ago, returned oldest first as columns for the chart. */
export async function vitalSeries(db: Queryable, patientId: number, days: number, max: number): Promise<VitalSeries> {
  const { rows } = await db.query<{ t: number; systolic: number; diastolic: number }>(
    `SELECT extract(epoch FROM created_at)::float8 AS t, systolic, diastolic FROM (
       SELECT created_at, id, systolic, diastolic FROM vitals
        WHERE patient_id = $1 AND created_at >= now() - make_interval(days => $2)
        ORDER BY created_at DESC, id DESC LIMIT $3) newest
      ORDER BY created_at, id`,
    [patientId, days, max],
  );
  return { t: rows.map((r) => r.t), systolic: rows.map((r) => r.systolic), diastolic: rows.map((r) => r.diastolic) };
}

/** A reading typed in by staff: no device, source 'manual' (billing never counts these). */
export async function insertManualVital(
  db: Queryable,
  patientId: number,
  r: { measuredAt: Date; systolic: number; diastolic: number; pulse: number | null },
): Promise<{ id: number; vital: Vital }> {
  const { rows } = await db.query<{ id: number; created_at: Date; systolic: number; diastolic: number; pulse: number | null; source: string }>(
    `INSERT INTO vitals (patient_id, created_at, systolic, diastolic, pulse, source)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, created_at, systolic, diastolic, pulse, source`,
    [patientId, r.measuredAt, r.systolic, r.diastolic, r.pulse, MANUAL_SOURCE],
  );
  const { id, created_at, ...rest } = rows[0]!;
  return { id, vital: { ...rest, created_at: created_at.toISOString() } };
}
