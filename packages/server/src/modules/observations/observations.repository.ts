import { MANUAL_SOURCE } from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

export interface ObservationRow {
  id: number;
  kind: string;
  created_at: Date;
  components: unknown;
  unit: string;
  source: string;
}

const OBSERVATION_COLUMNS = ['id', 'kind', 'created_at', 'components', 'unit', 'source'] as const;

/** Measured at or after `from`, before `to`; either may be absent. */
export interface TimeRange {
  from?: Date;
  to?: Date;
}

/** One page of a patient's observations of one kind, newest first (observations_patient_kind_time_idx). */
export async function pageObservations(
  db: Queryable,
  patientId: number,
  kind: string,
  range: TimeRange,
  limit: number,
  offset: number,
): Promise<ObservationRow[]> {
  let q = kysely(db)
    .selectFrom('observations')
    .select(OBSERVATION_COLUMNS)
    .where('patient_id', '=', patientId)
    .where('kind', '=', kind);
  if (range.from) q = q.where('created_at', '>=', range.from);
  if (range.to) q = q.where('created_at', '<', range.to);
  return (await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute()) as ObservationRow[];
}

/**
 * How many observations of one kind the patient has: the trigger-kept counter when no time range
 * is asked for, a count of the range otherwise.
 */
export async function countObservations(db: Queryable, patientId: number, kind: string, range: TimeRange): Promise<number> {
  if (!range.from && !range.to) {
    const row = await kysely(db)
      .selectFrom('patient_observation_counts')
      .select(sql<number>`n::int`.as('n'))
      .where('patient_id', '=', patientId)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return row?.n ?? 0;
  }
  let q = kysely(db)
    .selectFrom('observations')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('patient_id', '=', patientId)
    .where('kind', '=', kind);
  if (range.from) q = q.where('created_at', '>=', range.from);
  if (range.to) q = q.where('created_at', '<', range.to);
  return (await q.executeTakeFirstOrThrow()).n;
}

export interface KindSummaryRow {
  kind: string;
  total: number;
  latest: ObservationRow | null;
}

/** Per kind the patient has observations of: the count, and the newest one (one index probe each). */
export async function summarizeObservations(db: Queryable, patientId: number): Promise<KindSummaryRow[]> {
  const rows = await kysely(db)
    .selectFrom('patient_observation_counts as c')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('observations as o')
          .select(['o.id', 'o.created_at', 'o.components', 'o.unit', 'o.source'])
          .whereRef('o.patient_id', '=', 'c.patient_id')
          .whereRef('o.kind', '=', 'c.kind')
          .orderBy('o.created_at', 'desc')
          .orderBy('o.id', 'desc')
          .limit(1)
          .as('l'),
      (join) => join.onTrue(),
    )
    .select(['c.kind', sql<number>`c.n::int`.as('total'), 'l.id', 'l.created_at', 'l.components', 'l.unit', 'l.source'])
    .where('c.patient_id', '=', patientId)
    .where('c.n', '>', 0)
    .execute();
  return rows.map((r) => ({
    kind: r.kind,
    total: r.total,
    latest:
      r.id === null || r.created_at === null || r.unit === null || r.source === null
        ? null
        : { id: r.id, kind: r.kind, created_at: new Date(r.created_at), components: r.components, unit: r.unit, source: r.source },
  }));
}

/** A reading typed in by staff: no device, source 'manual' (billing never counts these). */
export async function insertManualObservation(
  db: Queryable,
  patientId: number,
  o: { kind: string; measuredAt: Date; components: Record<string, number>; unit: string },
): Promise<ObservationRow> {
  return (await kysely(db)
    .insertInto('observations')
    .values({
      patient_id: patientId,
      created_at: o.measuredAt,
      kind: o.kind,
      components: JSON.stringify(o.components),
      unit: o.unit,
      source: MANUAL_SOURCE,
    })
    .returning(OBSERVATION_COLUMNS)
    .executeTakeFirstOrThrow()) as ObservationRow;
}
