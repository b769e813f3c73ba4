import { bloodPressure, heartRate } from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../../src/db/pool.ts';
import { kysely } from '../../../src/db/kysely.ts';
import { momentSql, type Moment } from './common.ts';

export interface ReadingOptions {
  /** When it was measured; now by default. */
  at?: Moment;
  /**
   * Another kind of the measurement registry with its components in the canonical unit (e.g.
   * weight `{ weight: 82.5 }`, unit 'kg'); without it, a blood pressure (or, with systolic null,
   * a heart rate) from the fields below.
   */
  kind?: string;
  components?: Record<string, number>;
  unit?: string;
  systolic?: number | null;
  diastolic?: number | null;
  pulse?: number | null;
  /** The device identifier it came from, or 'manual'; the table's default when not given. */
  source?: string;
}

/**
 * Stored readings of a patient, as ingestion leaves them (ingestion itself is what its own tests
 * are about): one row each, in the order given. Answers their ids.
 */
export async function buildReadings(db: Queryable, patientId: number, readings: ReadingOptions[]): Promise<number[]> {
  return (await buildStoredReadings(db, patientId, readings)).map((r) => r.id);
}

/** The same, answering each reading's id and time, as the alert check takes them. */
export async function buildStoredReadings(
  db: Queryable,
  patientId: number,
  readings: ReadingOptions[],
): Promise<{ id: number; at: Date }[]> {
  if (readings.length === 0) return [];
  const rows = await kysely(db)
    .insertInto('observations')
    .values(
      readings.map((r) => ({
        patient_id: patientId,
        ...storedValues(r),
        ...(r.at === undefined ? {} : { created_at: momentSql(r.at) }),
        ...(r.source === undefined ? {} : { source: r.source }),
      })),
    )
    .returning(['id', 'created_at'])
    .execute();
  return rows.map((r) => ({ id: r.id, at: r.created_at }));
}

/** A reading's kind, components and unit as the observations store keeps them. */
function storedValues(r: Pick<ReadingOptions, 'kind' | 'components' | 'unit' | 'systolic' | 'diastolic' | 'pulse'>) {
  if (r.kind !== undefined && r.kind !== 'blood_pressure' && r.kind !== 'heart_rate') {
    return { kind: r.kind, components: JSON.stringify(r.components ?? {}), unit: r.unit ?? '1' };
  }
  const systolic = r.systolic === undefined ? 120 : r.systolic;
  const diastolic = r.diastolic === undefined ? 80 : r.diastolic;
  const pulse = r.pulse ?? null;
  const values: Record<string, number> = {};
  if (systolic !== null) values.systolic = systolic;
  if (diastolic !== null) values.diastolic = diastolic;
  if (pulse !== null) values.pulse = pulse;
  // A pulse alone is a heart rate, except a waiting one given kind blood_pressure on purpose.
  const kind = r.kind ?? (systolic === null ? 'heart_rate' : 'blood_pressure');
  return {
    kind,
    components: JSON.stringify(values),
    unit: kind === 'blood_pressure' && systolic !== null ? 'mm[Hg]' : '/min',
  };
}

export async function buildReading(db: Queryable, patientId: number, r: ReadingOptions = {}): Promise<number> {
  const [id] = await buildReadings(db, patientId, [r]);
  return id!;
}

/** A reading no patient's device accounts for, waiting on the unmatched list; `receivedAt` back-dates its arrival. */
export async function buildUnmatchedReading(
  db: Queryable,
  u: {
    deviceIdentifier: string;
    measuredAt?: Moment;
    /** Tells apart readings of one device at one instant (the device's own counter). */
    measurementIndex?: number;
    receivedAt?: Moment;
    systolic?: number | null;
    diastolic?: number | null;
    pulse?: number | null;
    /** A heart rate alone is 'heart_rate'; a pulse without its pressure waits as 'blood_pressure' (the default). */
    kind?: string;
    components?: Record<string, number>;
    unit?: string;
    /** A vendor metric the portal does not know (kind 'unknown'). */
    metric?: string;
    sourceId?: string | null;
  },
): Promise<number> {
  const { id } = await kysely(db)
    .insertInto('unmatched_readings')
    .values({
      device_identifier: u.deviceIdentifier,
      measured_at: momentSql(u.measuredAt ?? { ago: '0 seconds' }),
      ...storedValues({ ...u, kind: u.kind ?? 'blood_pressure' }),
      metric: u.metric ?? null,
      source_id: u.sourceId ?? null,
      ...(u.measurementIndex === undefined ? {} : { measurement_index: u.measurementIndex }),
      ...(u.receivedAt === undefined ? {} : { received_at: momentSql(u.receivedAt) }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Many readings of one patient at once (a set-based insert), for tests that need more than a page
 * or many export chunks: reading n (from 1) is taken n × `every` before `from` (now by default),
 * or (n / 2) × `every` with `pairs`, which puts two readings at each time; values vary with n.
 */
export async function buildManyReadings(
  db: Queryable,
  patientId: number,
  r: {
    count: number;
    /** bloodPressure.kind or heartRate.kind (contracts). */
    kind: string;
    pairs?: boolean;
    every: string;
    from?: Moment;
  },
): Promise<void> {
  const step = r.pairs ? sql`(g / 2)` : sql`g`;
  const from = r.from === undefined ? sql`now()` : momentSql(r.from);
  const isPressure = r.kind === bloodPressure.kind;
  const components = isPressure
    ? sql`jsonb_build_object('systolic', 110 + g % 40, 'diastolic', 70 + g % 20, 'pulse', 60 + g % 30)`
    : sql`jsonb_build_object('pulse', 60 + g % 30)`;
  await sql`
    INSERT INTO observations (patient_id, kind, components, unit, created_at)
    SELECT ${patientId}, ${r.kind}, ${components}, ${(isPressure ? bloodPressure : heartRate).components[0]!.ucum},
           ${from} - ${step} * ${r.every}::interval
      FROM generate_series(1, ${r.count}::int) g`.execute(kysely(db));
}

/** Back-dates the arrival of unmatched readings that came in through ingestion, for retention tests. */
export async function setUnmatchedReceivedAt(
  db: Queryable,
  deviceIdentifiers: string[],
  receivedAt: Moment,
): Promise<void> {
  await kysely(db)
    .updateTable('unmatched_readings')
    .set({ received_at: momentSql(receivedAt) })
    .where('device_identifier', 'in', deviceIdentifiers)
    .execute();
}

/** Readings removed: given ids, or all of a patient's (the portal never deletes one; retention does). */
export async function removeReadings(db: Queryable, which: { ids: number[] } | { patientId: number }): Promise<void> {
  const remove = kysely(db).deleteFrom('observations');
  await (
    'ids' in which ? remove.where('id', 'in', which.ids) : remove.where('patient_id', '=', which.patientId)
  ).execute();
}

/** Readings moved to another patient, as a repair of a mis-attributed device would. */
export async function moveReadings(db: Queryable, ids: number[], toPatientId: number): Promise<void> {
  await kysely(db).updateTable('observations').set({ patient_id: toPatientId }).where('id', 'in', ids).execute();
}

/**
 * Back-dates when a patient's readings arrived (received_at), for "received since" filters; with
 * `evenIdsOnly`, about half of them (those with an even id). Owner only: arrival is not editable.
 */
export async function backdateArrivals(
  db: Queryable,
  r: { patientId: number; evenIdsOnly?: boolean },
  receivedAt: Moment,
): Promise<void> {
  const update = kysely(db)
    .updateTable('observations')
    .set({ received_at: momentSql(receivedAt) })
    .where('patient_id', '=', r.patientId);
  await (r.evenIdsOnly ? update.where(sql`id % 2`, '=', 0) : update).execute();
}
