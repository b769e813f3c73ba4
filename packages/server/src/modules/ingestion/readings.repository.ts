import { sql, type CompiledQuery } from 'kysely';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';
import type { AuditEntry } from '../audit/audit.repository.ts';

/** Device ids are matched as devices send them: case and surrounding spaces do not count. */
const deviceKey = (v: string) => sql<string>`lower(btrim(${v}))`;
/** The unmatched list's unique key (migration 0950), for ON CONFLICT. */
const unmatchedKey = sql`(lower(btrim(device_identifier))), kind, measured_at`;

/** What a stored reading measured: blood pressure (with its pulse) or a heart rate on its own. */
export type ReadingKind = 'blood_pressure' | 'heart_rate';

/**
 * One reading as a device reported it, before it is attributed to a patient. Its identity is
 * (device, kind, measured time); `index` is the vendor's own counter, kept but never part of it.
 * A heart rate has no systolic and diastolic and always a pulse.
 */
export interface IncomingReading {
  deviceIdentifier: string;
  measuredAt: Date;
  index: number;
  kind: ReadingKind;
  systolic: number | null;
  diastolic: number | null;
  pulse: number | null;
  irregular: boolean | null;
}

/** A pulse (or irregular-heartbeat flag) that arrived without its blood pressure. */
export interface IncomingPulse {
  deviceIdentifier: string;
  measuredAt: Date;
  index: number;
  pulse: number | null;
  irregular: boolean | null;
}

export type ReadingOutcome =
  | { status: 'stored'; vitalId: number; patientId: number }
  | { status: 'duplicate'; vitalId: number | null; patientId: number | null }
  | { status: 'unmatched' };

interface OutcomeRow {
  ord: number;
  patient_id: number | null;
  vital_id: number | null;
  existing_id: number | null;
  unmatched_id: number | null;
}

/**
 * The audit record of the call that stores the readings, written by the same statement. Its
 * details are `details` plus the counts the statement finds (`stored`, `duplicates`,
 * `unmatched`, `patient_ids`); `duplicatesBefore` are those the caller merged away already.
 */
export interface StoreAudit {
  entry: Omit<AuditEntry, 'details' | 'outcome' | 'reason' | 'targetUserId'>;
  details: Record<string, unknown>;
  duplicatesBefore: number;
}

/**
 * Stores readings in one statement, whatever their number: each goes to the patient who had its
 * device at its measurement time, or to the unmatched list. Retries are skipped by the unique
 * keys (never check-then-insert), so two copies arriving at once on two instances store one.
 * `readings` must not repeat a measurement key (the caller merges them). A pulse that arrived
 * earlier without its blood pressure is picked up here. With `audit`, the same statement writes
 * the call's audit record: one round trip fewer per webhook call, and the record cannot miss
 * the readings it counts.
 */
export async function storeReadings(
  db: Queryable,
  sourceId: string | null,
  readings: IncomingReading[],
  audit?: StoreAudit,
): Promise<ReadingOutcome[]> {
  if (readings.length === 0) return [];
  // Five steps in one round trip (resolve, store, park, pick up waiting pulses, answer), whose
  // data-modifying CTEs join each other's RETURNING rows: written as one statement, as it runs.
  const column = <T>(pick: (r: IncomingReading) => T) => readings.map(pick);
  const statement = sql<OutcomeRow>`WITH input AS (
       SELECT * FROM unnest(${column((r) => r.deviceIdentifier)}::text[], ${column((r) => r.measuredAt)}::timestamptz[],
                            ${column((r) => r.index)}::int[], ${column((r) => r.kind)}::text[],
                            ${column((r) => r.systolic)}::int2[], ${column((r) => r.diastolic)}::int2[],
                            ${column((r) => r.pulse)}::int2[], ${column((r) => r.irregular)}::bool[])
         WITH ORDINALITY AS i(ident, measured_at, idx, kind, systolic, diastolic, pulse, irregular, ord)
     ),
     resolved AS (
       SELECT i.ord, btrim(i.ident) AS ident, i.measured_at, i.idx, i.kind, i.systolic, i.diastolic,
              coalesce(i.pulse, pending.pulse) AS pulse, coalesce(i.irregular, pending.irregular_heartbeat) AS irregular,
              d.id AS device_pk, d.device_id AS device_label, a.patient_id
         FROM input i
         LEFT JOIN devices d ON lower(btrim(d.device_id)) = lower(btrim(i.ident))
         LEFT JOIN LATERAL (
           SELECT patient_id FROM device_assignments a
            WHERE a.device_id = d.id AND a.assigned_from <= i.measured_at
              AND (a.assigned_to IS NULL OR a.assigned_to > i.measured_at)
            ORDER BY a.assigned_from DESC LIMIT 1) a ON true
         LEFT JOIN unmatched_readings pending
           ON lower(btrim(pending.device_identifier)) = lower(btrim(i.ident)) AND pending.measured_at = i.measured_at
          AND pending.kind = 'blood_pressure' AND i.kind = 'blood_pressure' AND pending.systolic IS NULL
     ),
     stored AS (
       INSERT INTO vitals (patient_id, device_id, source, created_at, measurement_index, kind, systolic, diastolic, pulse,
                           irregular_heartbeat, source_id)
       SELECT patient_id, device_pk, device_label, measured_at, idx, kind, systolic, diastolic, pulse, irregular,
              ${sourceId}
         FROM resolved WHERE patient_id IS NOT NULL ORDER BY ord
       ON CONFLICT (device_id, kind, created_at) DO NOTHING
       RETURNING id, patient_id, device_id, kind, created_at
     ),
     parked AS (
       INSERT INTO unmatched_readings AS u (device_identifier, measured_at, measurement_index, kind, systolic, diastolic,
                                            pulse, irregular_heartbeat, source_id)
       SELECT ident, measured_at, idx, kind, systolic, diastolic, pulse, irregular, ${sourceId}
         FROM resolved WHERE patient_id IS NULL
       ON CONFLICT ((lower(btrim(device_identifier))), kind, measured_at) DO UPDATE
         SET systolic = EXCLUDED.systolic, diastolic = EXCLUDED.diastolic, pulse = coalesce(u.pulse, EXCLUDED.pulse),
             irregular_heartbeat = coalesce(u.irregular_heartbeat, EXCLUDED.irregular_heartbeat)
         WHERE u.systolic IS NULL AND u.kind = 'blood_pressure'
       RETURNING id, lower(btrim(device_identifier)) AS ident_key, kind, measured_at
     ),
     used_pending AS (
       DELETE FROM unmatched_readings u USING resolved r
        WHERE r.patient_id IS NOT NULL AND r.kind = 'blood_pressure' AND u.kind = 'blood_pressure'
          AND u.systolic IS NULL
          AND lower(btrim(u.device_identifier)) = lower(r.ident) AND u.measured_at = r.measured_at
     )${audit ? auditStep(audit, readings.length) : sql``}
     SELECT r.ord::int, r.patient_id, s.id AS vital_id, existing.id AS existing_id, p.id AS unmatched_id
       FROM resolved r
       LEFT JOIN stored s ON s.device_id = r.device_pk AND s.kind = r.kind AND s.created_at = r.measured_at
       LEFT JOIN parked p ON p.ident_key = lower(r.ident) AND p.kind = r.kind AND p.measured_at = r.measured_at
       LEFT JOIN vitals existing ON s.id IS NULL AND r.patient_id IS NOT NULL AND existing.device_id = r.device_pk
        AND existing.kind = r.kind AND existing.created_at = r.measured_at
      ORDER BY r.ord`;
  // Its text does not depend on the number of readings (they travel as arrays): prepared once
  // per connection, the server skips parsing and analysing it on every webhook call.
  const rows = await runPrepared(db, audit ? 'ingest_store_readings_audited' : 'ingest_store_readings', statement.compile(kysely(db)));
  return rows.map((r): ReadingOutcome => {
    if (r.vital_id !== null && r.patient_id !== null)
      return { status: 'stored', vitalId: r.vital_id, patientId: r.patient_id };
    if (r.unmatched_id !== null) return { status: 'unmatched' };
    return { status: 'duplicate', vitalId: r.existing_id, patientId: r.patient_id };
  });
}

/**
 * Runs a compiled query as a named prepared statement of the connection. `name` must always go
 * with the same SQL text.
 */
export async function runPrepared<R>(db: Queryable, name: string, query: CompiledQuery<R>): Promise<R[]> {
  const config: pg.QueryConfig = { name, text: query.sql, values: [...query.parameters] };
  const result = await (db as pg.PoolClient).query(config);
  return result.rows as R[];
}

/**
 * The audit record as one more data-modifying step of storeReadings' statement: a reading is
 * stored, parked (unmatched) or, failing both, a duplicate, exactly as the outcomes are counted.
 */
function auditStep(a: StoreAudit, received: number) {
  const e = a.entry;
  const resourceId = e.resourceId === undefined || e.resourceId === null ? null : String(e.resourceId);
  return sql`,
     audited AS (
       INSERT INTO audit_logs (user_id, ip_address, action, resource_type, resource_id, details, outcome, user_agent,
                               request_id)
       SELECT ${e.userId ?? null}::int, ${e.ipAddress ?? null}::text, ${e.action}::text, ${e.resourceType ?? null}::text,
              ${resourceId}::text,
              ${JSON.stringify(a.details)}::jsonb || jsonb_build_object(
                'stored', (SELECT count(*) FROM stored),
                'unmatched', (SELECT count(*) FROM parked),
                'duplicates', ${received + a.duplicatesBefore}::int - (SELECT count(*) FROM stored)
                              - (SELECT count(*) FROM parked),
                'patient_ids', (SELECT coalesce(jsonb_agg(DISTINCT patient_id), '[]'::jsonb) FROM stored)),
              'success', ${e.userAgent ?? null}::text, ${e.requestId ?? null}::text
     )`;
}

/**
 * A pulse sent apart from its blood pressure: added to the stored reading, or to the parked
 * one, or kept waiting for its blood pressure. Answers whether it completed a reading.
 */
export async function storeLonePulse(db: Queryable, sourceId: string | null, p: IncomingPulse): Promise<boolean> {
  const k = kysely(db);
  const onVital = await k
    .updateTable('vitals as v')
    .from('devices as d')
    .set({
      pulse: sql<number | null>`coalesce(v.pulse, ${p.pulse}::int2)`,
      irregular_heartbeat: sql<boolean | null>`coalesce(v.irregular_heartbeat, ${p.irregular}::bool)`,
    })
    .whereRef('v.device_id', '=', 'd.id')
    .where(sql<string>`lower(btrim(d.device_id))`, '=', deviceKey(p.deviceIdentifier))
    .where('v.kind', '=', 'blood_pressure')
    .where('v.created_at', '=', p.measuredAt)
    .executeTakeFirst();
  if (Number(onVital.numUpdatedRows) > 0) return true;
  await k
    .insertInto('unmatched_readings')
    .values({
      device_identifier: sql<string>`btrim(${p.deviceIdentifier})`,
      measured_at: p.measuredAt,
      measurement_index: p.index,
      pulse: p.pulse,
      irregular_heartbeat: p.irregular,
      source_id: sourceId,
    })
    .onConflict((oc) =>
      oc.expression(unmatchedKey).doUpdateSet({
        pulse: sql<number | null>`coalesce(unmatched_readings.pulse, excluded.pulse)`,
        irregular_heartbeat: sql<boolean | null>`coalesce(unmatched_readings.irregular_heartbeat, excluded.irregular_heartbeat)`,
      }),
    )
    .execute();
  return false;
}

/** Keeps the newest battery level a device reported; an older report never overwrites a newer one. */
export async function updateBattery(
  db: Queryable,
  deviceIdentifier: string,
  level: number,
  at: Date,
): Promise<boolean> {
  const result = await kysely(db)
    .updateTable('devices')
    .set({ battery_level: level, battery_at: at })
    .where(sql<string>`lower(btrim(device_id))`, '=', deviceKey(deviceIdentifier))
    .where((eb) => eb.or([eb('battery_at', 'is', null), eb('battery_at', '<=', at)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
