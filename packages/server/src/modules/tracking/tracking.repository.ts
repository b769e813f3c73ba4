import { TRACKING_MONTH_TOTALS, type TrackingMonthTotal, type TrackingSession } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';

/** Newest day first, a range scan of tracking_sessions_patient_idx. */
export async function pageTracking(
  db: Queryable,
  patientId: number,
  limit: number,
  offset: number,
): Promise<TrackingSession[]> {
  const { rows } = await db.query<TrackingSession>(
    `SELECT id, date, duration_minutes, notes FROM tracking_sessions WHERE patient_id = $1
      ORDER BY date DESC, id DESC LIMIT $2 OFFSET $3`,
    [patientId, limit, offset],
  );
  return rows;
}

export async function countTracking(db: Queryable, patientId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM tracking_sessions WHERE patient_id = $1',
    [patientId],
  );
  return rows[0]!.n;
}

export async function insertTracking(
  db: Queryable,
  patientId: number,
  userId: number,
  s: Omit<TrackingSession, 'id'>,
): Promise<TrackingSession> {
  const { rows } = await db.query<TrackingSession>(
    `INSERT INTO tracking_sessions (patient_id, user_id, date, duration_minutes, notes)
     VALUES ($1, $2, $3, $4, $5) RETURNING id, date, duration_minutes, notes`,
    [patientId, userId, s.date, s.duration_minutes, s.notes],
  );
  return rows[0]!;
}

/** Minutes per calendar month, newest month first (the months with entries only). */
export async function monthTotals(db: Queryable, patientId: number): Promise<TrackingMonthTotal[]> {
  const { rows } = await db.query<TrackingMonthTotal>(
    `SELECT to_char(date_trunc('month', date), 'YYYY-MM') AS month, sum(duration_minutes)::int AS minutes
       FROM tracking_sessions WHERE patient_id = $1
      GROUP BY 1 ORDER BY 1 DESC LIMIT $2`,
    [patientId, TRACKING_MONTH_TOTALS],
  );
  return rows;
}

/**
 * Minutes already tracked for the patient on that day. Locks the patient's row first, so that two
 * entries saved at once for the same patient are counted one after the other.
 */
export async function lockedMinutesOnDay(db: Queryable, patientId: number, date: string): Promise<number> {
  await db.query('SELECT 1 FROM patients WHERE id = $1 FOR UPDATE', [patientId]);
  const { rows } = await db.query<{ minutes: string }>(
    `SELECT COALESCE(SUM(duration_minutes), 0) AS minutes FROM tracking_sessions WHERE patient_id = $1 AND date = $2`,
    [patientId, date],
  );
  return Number(rows[0]!.minutes);
}
