import { UNKNOWN_METRIC_KIND } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';
import { sql, type ExpressionBuilder } from 'kysely';
import type { DB } from '../../db/types.ts';
import { kysely } from '../../db/kysely.ts';

export interface UnmatchedRow {
  id: number;
  device_identifier: string;
  measured_at: Date;
  kind: string;
  /** The vendor's name of a metric the portal does not know (kind UNKNOWN_METRIC_KIND); null otherwise. */
  metric: string | null;
  components: Record<string, number>;
  unit: string;
  /** Null for a heart rate measured alone. */
  systolic: number | null;
  diastolic: number | null;
  pulse: number | null;
  received_at: Date;
}

/** Readings (blood pressures and heart rates alone) a device assignment would carry. */
const listed = (eb: ExpressionBuilder<DB, 'unmatched_readings'>) =>
  eb.or([eb('kind', '<>', 'blood_pressure'), eb('systolic', 'is not', null)]);

/**
 * Readings waiting for their device to be assigned, newest first (pulses still waiting for their
 * pressure left out: they are part of a reading that has not arrived).
 */
export async function pageUnmatched(
  db: Queryable,
  limit: number,
  offset: number,
): Promise<{ rows: UnmatchedRow[]; total: number }> {
  const k = kysely(db);
  const [rows, count] = await Promise.all([
    k
      .selectFrom('unmatched_readings')
      .select([
        'id',
        'device_identifier',
        'measured_at',
        'kind',
        'metric',
        (eb) => eb.ref('components').$castTo<Record<string, number>>().as('components'),
        'unit',
        'systolic',
        'diastolic',
        'pulse',
        'received_at',
      ])
      .where(listed)
      .orderBy('measured_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    k
      .selectFrom('unmatched_readings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(listed)
      .executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

/** An unmatched reading as attaching it sees it: its source's organization and its month's close. */
export interface AttachableRow {
  id: number;
  kind: string;
  source_organization_id: number | null;
  in_closed_month: boolean;
}

/**
 * The requested readings that are still unmatched (a lone pulse waiting for its pressure is not
 * one; a metric the portal does not know is, with its kind, for the caller to refuse), locked so that two admins attaching at once do not both move them. Month membership is
 * the patient's organization's time zone.
 */
export async function lockAttachable(db: Queryable, ids: number[], patientId: number): Promise<AttachableRow[]> {
  const result = await sql<AttachableRow>`
    SELECT u.id::int AS id, u.kind, s.organization_id AS source_organization_id,
           rpm_closed_month_at(u.measured_at, o.time_zone) AS in_closed_month
      FROM unmatched_readings u
      LEFT JOIN ingestion_sources s ON s.id = u.source_id
      CROSS JOIN patients p JOIN organizations o ON o.id = p.organization_id
     WHERE u.id = ANY (${ids}::bigint[]) AND p.id = ${patientId}
       AND (u.kind <> 'blood_pressure' OR u.systolic IS NOT NULL)
       FOR UPDATE OF u`.execute(kysely(db));
  return result.rows;
}

/**
 * Moves the readings to the patient, with the registered device of that identifier if there is one.
 * A metric the portal does not know never becomes an observation (the caller refuses it first).
 */
export async function moveToPatient(db: Queryable, ids: number[], patientId: number): Promise<number> {
  const result = await sql`
    WITH moved AS (
      DELETE FROM unmatched_readings u WHERE u.id = ANY (${ids}::bigint[]) AND u.kind <> ${UNKNOWN_METRIC_KIND}::text
      RETURNING u.*
    )
    INSERT INTO observations (patient_id, device_id, source, created_at, measurement_index, kind, components, unit,
                              irregular_heartbeat, source_id, received_at)
    SELECT ${patientId}, d.id, m.device_identifier, m.measured_at, m.measurement_index, m.kind, m.components, m.unit,
           m.irregular_heartbeat, m.source_id, m.received_at
      FROM moved m
      LEFT JOIN devices d ON lower(btrim(d.device_id)) = lower(btrim(m.device_identifier))
    ON CONFLICT DO NOTHING`.execute(kysely(db));
  return Number(result.numAffectedRows ?? 0);
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
export async function deleteUnmatchedBefore(
  db: Queryable,
  before: Date,
  batch: number,
): Promise<Map<string | null, number>> {
  const { rows } = await sql<{ source_id: string | null; n: number }>`WITH gone AS (
       DELETE FROM unmatched_readings WHERE id IN (
         SELECT id FROM unmatched_readings WHERE received_at < ${before} ORDER BY received_at LIMIT ${batch})
       RETURNING source_id)
     SELECT source_id, count(*)::int AS n FROM gone GROUP BY source_id`.execute(kysely(db));
  return new Map(rows.map((r) => [r.source_id, r.n]));
}
