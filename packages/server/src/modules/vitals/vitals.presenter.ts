import type { Vital, VitalSeries } from '@rpm/contracts';
import type { VitalRow, VitalSeriesRow } from './vitals.repository.ts';
import { isoTime } from '../../kernel/time.ts';

export function presentVital(row: VitalRow): Vital {
  return { created_at: isoTime(row.created_at), systolic: row.systolic, diastolic: row.diastolic, pulse: row.pulse, source: row.source };
}

/** Columns rather than objects: the chart draws arrays, and the answer is a third the size. */
export function presentVitalSeries(rows: VitalSeriesRow[]): VitalSeries {
  return { t: rows.map((r) => r.t), systolic: rows.map((r) => r.systolic), diastolic: rows.map((r) => r.diastolic) };
}
