import type { UnmatchedReading } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';

interface UnmatchedRow {
  id: number;
  device_identifier: string;
  measured_at: Date;
  systolic: number;
  diastolic: number;
  pulse: number | null;
  received_at: Date;
}

/** Readings waiting for their device to be assigned, newest first (pulses still waiting for their pressure left out). */
export async function pageUnmatched(
  db: Queryable,
  limit: number,
  offset: number,
): Promise<{ rows: UnmatchedRow[]; total: number }> {
  const [page, count] = await Promise.all([
    db.query<UnmatchedRow>(
      `SELECT id, device_identifier, measured_at, systolic, diastolic, pulse, received_at FROM unmatched_readings
        WHERE systolic IS NOT NULL ORDER BY measured_at DESC, id DESC LIMIT $1 OFFSET $2`,
      [limit, offset],
    ),
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM unmatched_readings WHERE systolic IS NOT NULL'),
  ]);
  return { rows: page.rows, total: count.rows[0]?.n ?? 0 };
}

export const presentUnmatched = (r: UnmatchedRow): UnmatchedReading => ({
  id: r.id,
  device_id: r.device_identifier,
  measured_at: r.measured_at.toISOString(),
  systolic: r.systolic,
  diastolic: r.diastolic,
  pulse: r.pulse,
  received_at: r.received_at.toISOString(),
});
