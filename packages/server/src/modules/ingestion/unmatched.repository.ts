import type { Queryable } from '../../db/pool.ts';
import { sql } from 'kysely';
import { kysely } from '../../db/kysely.ts';

export interface UnmatchedRow {
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
  const k = kysely(db);
  const [rows, count] = await Promise.all([
    k
      .selectFrom('unmatched_readings')
      .select(['id', 'device_identifier', 'measured_at', 'systolic', 'diastolic', 'pulse', 'received_at'])
      .where('systolic', 'is not', null)
      // Migration 0800 holds systolic and diastolic null together.
      .$narrowType<{ systolic: number; diastolic: number }>()
      .orderBy('measured_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    k
      .selectFrom('unmatched_readings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('systolic', 'is not', null)
      .executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

/** Unmatched rows (pulses waiting for their pressure included) each source has, for its quota. */
export async function unmatchedCountsBySource(db: Queryable): Promise<Map<string, number>> {
  const rows = await kysely(db)
    .selectFrom('unmatched_readings')
    .select(['source_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('source_id', 'is not', null)
    .groupBy('source_id')
    .execute();
  return new Map(rows.map((r) => [r.source_id!, Number(r.n)]));
}

/** Deletes up to `batch` unmatched readings received before `before`; answers how many each source lost. */
export async function deleteUnmatchedBefore(db: Queryable, before: Date, batch: number): Promise<Map<string | null, number>> {
  const { rows } = await sql<{ source_id: string | null; n: number }>`WITH gone AS (
       DELETE FROM unmatched_readings WHERE id IN (
         SELECT id FROM unmatched_readings WHERE received_at < ${before} ORDER BY received_at LIMIT ${batch})
       RETURNING source_id)
     SELECT source_id, count(*)::int AS n FROM gone GROUP BY source_id`.execute(kysely(db));
  return new Map(rows.map((r) => [r.source_id, r.n]));
}
