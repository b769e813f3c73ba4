import type { Queryable } from '../../db/pool.ts';
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
