import type { Queryable } from '../../db/pool.ts';

/** One blood-pressure reading as a device reported it, before it is attributed to a patient. */
export interface IncomingReading {
  deviceIdentifier: string;
  measuredAt: Date;
  index: number;
  systolic: number;
  diastolic: number;
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
 * Stores readings in one statement, whatever their number: each goes to the patient who had its
 * device at its measurement time, or to the unmatched list. Retries are skipped by the unique
 * keys (never check-then-insert), so two copies arriving at once on two instances store one.
 * `readings` must not repeat a measurement key (the caller merges them). A pulse that arrived
 * earlier without its blood pressure is picked up here.
 */
export async function storeReadings(
  db: Queryable,
  sourceId: string | null,
  readings: IncomingReading[],
): Promise<ReadingOutcome[]> {
  if (readings.length === 0) return [];
  const { rows } = await db.query<OutcomeRow>(
    `WITH input AS (
       SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::int[], $4::int2[], $5::int2[], $6::int2[], $7::bool[])
         WITH ORDINALITY AS i(ident, measured_at, idx, systolic, diastolic, pulse, irregular, ord)
     ),
     resolved AS (
       SELECT i.ord, btrim(i.ident) AS ident, i.measured_at, i.idx, i.systolic, i.diastolic,
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
          AND pending.measurement_index = i.idx AND pending.systolic IS NULL
     ),
     stored AS (
       INSERT INTO vitals (patient_id, device_id, source, created_at, measurement_index, systolic, diastolic, pulse,
                           irregular_heartbeat, source_id)
       SELECT patient_id, device_pk, device_label, measured_at, idx, systolic, diastolic, pulse, irregular, $8
         FROM resolved WHERE patient_id IS NOT NULL ORDER BY ord
       ON CONFLICT (device_id, created_at, measurement_index) DO NOTHING
       RETURNING id, device_id, created_at, measurement_index
     ),
     parked AS (
       INSERT INTO unmatched_readings AS u (device_identifier, measured_at, measurement_index, systolic, diastolic, pulse,
                                            irregular_heartbeat, source_id)
       SELECT ident, measured_at, idx, systolic, diastolic, pulse, irregular, $8 FROM resolved WHERE patient_id IS NULL
       ON CONFLICT ((lower(btrim(device_identifier))), measured_at, measurement_index) DO UPDATE
         SET systolic = EXCLUDED.systolic, diastolic = EXCLUDED.diastolic, pulse = coalesce(u.pulse, EXCLUDED.pulse),
             irregular_heartbeat = coalesce(u.irregular_heartbeat, EXCLUDED.irregular_heartbeat)
         WHERE u.systolic IS NULL
       RETURNING id, lower(btrim(device_identifier)) AS ident_key, measured_at, measurement_index
     ),
     used_pending AS (
       DELETE FROM unmatched_readings u USING resolved r
        WHERE r.patient_id IS NOT NULL AND u.systolic IS NULL
          AND lower(btrim(u.device_identifier)) = lower(r.ident) AND u.measured_at = r.measured_at
          AND u.measurement_index = r.idx
     )
     SELECT r.ord::int, r.patient_id, s.id AS vital_id, existing.id AS existing_id, p.id AS unmatched_id
       FROM resolved r
       LEFT JOIN stored s ON s.device_id = r.device_pk AND s.created_at = r.measured_at AND s.measurement_index = r.idx
       LEFT JOIN parked p ON p.ident_key = lower(r.ident) AND p.measured_at = r.measured_at AND p.measurement_index = r.idx
       LEFT JOIN vitals existing ON s.id IS NULL AND r.patient_id IS NOT NULL AND existing.device_id = r.device_pk
        AND existing.created_at = r.measured_at AND existing.measurement_index = r.idx
      ORDER BY r.ord`,
    [
      readings.map((r) => r.deviceIdentifier),
      readings.map((r) => r.measuredAt),
      readings.map((r) => r.index),
      readings.map((r) => r.systolic),
      readings.map((r) => r.diastolic),
      readings.map((r) => r.pulse),
      readings.map((r) => r.irregular),
      sourceId,
    ],
  );
  return rows.map((r): ReadingOutcome => {
    if (r.vital_id !== null && r.patient_id !== null)
      return { status: 'stored', vitalId: r.vital_id, patientId: r.patient_id };
    if (r.unmatched_id !== null) return { status: 'unmatched' };
    return { status: 'duplicate', vitalId: r.existing_id, patientId: r.patient_id };
  });
}

/**
 * A pulse sent apart from its blood pressure: added to the stored reading, or to the parked
 * one, or kept waiting for its blood pressure. Answers whether it completed a reading.
 */
export async function storeLonePulse(db: Queryable, sourceId: string | null, p: IncomingPulse): Promise<boolean> {
  const key = [p.deviceIdentifier, p.measuredAt, p.index, p.pulse, p.irregular];
  const onVital = await db.query(
    `UPDATE vitals v SET pulse = coalesce(v.pulse, $4), irregular_heartbeat = coalesce(v.irregular_heartbeat, $5)
       FROM devices d
      WHERE v.device_id = d.id AND lower(btrim(d.device_id)) = lower(btrim($1)) AND v.created_at = $2 AND v.measurement_index = $3`,
    key,
  );
  if (onVital.rowCount) return true;
  await db.query(
    `INSERT INTO unmatched_readings AS u (device_identifier, measured_at, measurement_index, pulse, irregular_heartbeat, source_id)
     VALUES (btrim($1), $2, $3, $4, $5, $6)
     ON CONFLICT ((lower(btrim(device_identifier))), measured_at, measurement_index) DO UPDATE
       SET pulse = coalesce(u.pulse, EXCLUDED.pulse), irregular_heartbeat = coalesce(u.irregular_heartbeat, EXCLUDED.irregular_heartbeat)`,
    [...key, sourceId],
  );
  return false;
}

/** Keeps the newest battery level a device reported; an older report never overwrites a newer one. */
export async function updateBattery(
  db: Queryable,
  deviceIdentifier: string,
  level: number,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE devices SET battery_level = $2, battery_at = $3
      WHERE lower(btrim(device_id)) = lower(btrim($1)) AND (battery_at IS NULL OR battery_at <= $3)`,
    [deviceIdentifier, level, at],
  );
  return (rowCount ?? 0) > 0;
}
