import { UNKNOWN_METRIC_KIND } from '@rpm/contracts';
import { sql, type CompiledQuery } from 'kysely';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';
import type { AuditEntry } from '../../kernel/audit-writer.repository.ts';

/**
 * One reading as a device reported it, before it is attributed to a patient. Its identity is
 * (device, kind, measured time); `index` is the vendor's own counter, kept but never part of it.
 * `kind` is a kind of the measurement registry, `components` its values by component code in the
 * canonical units (already checked against the kind's plausible ranges), `unit` the UCUM unit of
 * the kind's primary component.
 */
export interface IncomingReading {
  deviceIdentifier: string;
  measuredAt: Date;
  index: number;
  kind: string;
  components: Readonly<Record<string, number>>;
  unit: string;
  irregular: boolean | null;
  /**
   * The vendor's metric name, only for kind UNKNOWN_METRIC_KIND (a metric the registry does not
   * know): such a reading always goes to the unmatched list, never to a patient.
   */
  metric?: string | null;
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
  | { status: 'stored'; vitalId: number; patientId: number; at: Date }
  | { status: 'duplicate'; vitalId: number | null; patientId: number | null }
  | { status: 'unmatched' };
/** A reading for no patient of the source's organization, refused because the source's unmatched quota is full. */
export type StoreOutcome = ReadingOutcome | { status: 'rejected'; deviceIdentifier: string };

/**
 * Who sends: the source (null for staff), its organization (a reading is attributed only to a
 * patient of it) and its unmatched quota (null: none).
 */
export interface Sender {
  sourceId: string | null;
  organizationId: number | null;
  unmatchedQuota: number | null;
}

interface OutcomeRow {
  ord: number;
  ident: string;
  admitted: boolean | null;
  patient_id: number | null;
  vital_id: number | null;
  stored_at: Date | null;
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
  sender: Sender,
  readings: IncomingReading[],
  audit?: StoreAudit,
): Promise<StoreOutcome[]> {
  if (readings.length === 0) return [];
  const { sourceId, organizationId, unmatchedQuota } = sender;
  // Five steps in one round trip (resolve, store, park, pick up waiting pulses, answer), whose
  // data-modifying CTEs join each other's RETURNING rows: written as one statement, as it runs.
  const column = <T>(pick: (r: IncomingReading) => T) => readings.map(pick);
  const statement = sql<OutcomeRow>`WITH input AS (
       SELECT * FROM unnest(${column((r) => r.deviceIdentifier)}::text[], ${column((r) => r.measuredAt)}::timestamptz[],
                            ${column((r) => r.index)}::int[], ${column((r) => r.kind)}::text[],
                            ${column((r) => JSON.stringify(r.components))}::jsonb[], ${column((r) => r.unit)}::text[],
                            ${column((r) => r.irregular)}::bool[], ${column((r) => r.metric ?? null)}::text[])
         WITH ORDINALITY AS i(ident, measured_at, idx, kind, components, unit, irregular, metric, ord)
     ),
     resolved AS (
       -- A pulse that waited for its blood pressure joins it (the reading's own pulse wins).
       SELECT i.ord, btrim(i.ident) AS ident, i.measured_at, i.idx, i.kind,
              coalesce(pending.components, '{}') || i.components AS components, i.unit,
              coalesce(i.irregular, pending.irregular_heartbeat) AS irregular, i.metric,
              d.id AS device_pk, d.device_id AS device_label,
              -- A source writes for its own organization only: a device of another organization's
              -- patient is, for this source, a device of nobody (parked, no alert there). A metric
              -- the portal does not know is nobody's reading: it waits in the unmatched list.
              CASE WHEN a.organization_id = ${organizationId}::int AND i.kind <> ${UNKNOWN_METRIC_KIND}::text
                   THEN a.patient_id END AS patient_id
         FROM input i
         -- One probe of the device's unique index per reading. As a plain join the planner, which
         -- cannot know the batch's size, hashed the batch and folded every device's identifier
         -- (a scan of all devices in every call: 2 ms at 2,500 devices). LIMIT 1 keeps it a
         -- lookup; the index is unique, so it changes no answer.
         LEFT JOIN LATERAL (
           SELECT d.id, d.device_id FROM devices d WHERE lower(btrim(d.device_id)) = lower(btrim(i.ident)) LIMIT 1) d ON true
         LEFT JOIN LATERAL (
           SELECT a.patient_id, p.organization_id FROM device_assignments a JOIN patients p ON p.id = a.patient_id
            WHERE a.device_id = d.id AND a.assigned_from <= i.measured_at
              AND (a.assigned_to IS NULL OR a.assigned_to > i.measured_at)
            ORDER BY a.assigned_from DESC LIMIT 1) a ON true
         LEFT JOIN unmatched_readings pending
           ON lower(btrim(pending.device_identifier)) = lower(btrim(i.ident)) AND pending.measured_at = i.measured_at
          AND pending.kind = 'blood_pressure' AND i.kind = 'blood_pressure' AND pending.systolic IS NULL
          AND i.components ? 'systolic'
          AND pending.source_id IS NOT DISTINCT FROM ${sourceId}::uuid
     ),
     ${admittedSteps(sourceId, unmatchedQuota)},
     stored AS (
       INSERT INTO observations (patient_id, device_id, source, created_at, measurement_index, kind, components, unit,
                                 irregular_heartbeat, source_id)
       SELECT patient_id, device_pk, device_label, measured_at, idx, kind, components, unit, irregular,
              ${sourceId}
         FROM resolved WHERE patient_id IS NOT NULL ORDER BY ord
       ON CONFLICT (device_id, kind, created_at) DO NOTHING
       RETURNING id, patient_id, device_id, kind, created_at
     ),
     parked AS (
       INSERT INTO unmatched_readings AS u (device_identifier, measured_at, measurement_index, kind, components, unit,
                                            irregular_heartbeat, metric, source_id)
       SELECT ident, measured_at, idx, kind, components, unit, irregular, metric, ${sourceId}
         FROM admitted
       ON CONFLICT ((lower(btrim(device_identifier))), kind, measured_at) DO UPDATE
         -- The pressure joins the pulse that waited for it (the waiting pulse is kept).
         SET components = EXCLUDED.components || u.components, unit = EXCLUDED.unit,
             irregular_heartbeat = coalesce(u.irregular_heartbeat, EXCLUDED.irregular_heartbeat)
         WHERE u.systolic IS NULL AND u.kind = 'blood_pressure'
       RETURNING id, lower(btrim(device_identifier)) AS ident_key, kind, measured_at
     ),
     used_pending AS (
       DELETE FROM unmatched_readings u USING resolved r
        WHERE r.patient_id IS NOT NULL AND r.kind = 'blood_pressure' AND u.kind = 'blood_pressure'
          AND u.systolic IS NULL AND u.source_id IS NOT DISTINCT FROM ${sourceId}::uuid
          AND lower(btrim(u.device_identifier)) = lower(r.ident) AND u.measured_at = r.measured_at
     )${audit ? auditStep(audit, readings.length) : sql``}
     SELECT r.ord::int, r.ident, r.patient_id IS NOT NULL OR ad.ord IS NOT NULL AS admitted, r.patient_id,
            s.id AS vital_id, s.created_at AS stored_at, existing.id AS existing_id, p.id AS unmatched_id
       FROM resolved r
       LEFT JOIN admitted ad ON ad.ord = r.ord
       LEFT JOIN stored s ON s.device_id = r.device_pk AND s.kind = r.kind AND s.created_at = r.measured_at
       LEFT JOIN parked p ON p.ident_key = lower(r.ident) AND p.kind = r.kind AND p.measured_at = r.measured_at
       -- A duplicate's reading already stored: one probe of the reading key per reading, as the
       -- device lookup above. As a plain join, a plan made while the month's table was nearly empty
       -- (a new month, a new install; plans are made once per connection) hashed a scan of the whole
       -- table on every call until the table was next analyzed: after 150,000 readings in a minute,
       -- webhooks of 10 took 40 to 1,000 ms. The key is unique, so LIMIT 1 changes no answer.
       LEFT JOIN LATERAL (
         SELECT e.id FROM observations e
          WHERE s.id IS NULL AND r.patient_id IS NOT NULL AND e.device_id = r.device_pk
            AND e.kind = r.kind AND e.created_at = r.measured_at
          LIMIT 1) existing ON true
      ORDER BY r.ord`;
  // Its text does not depend on the number of readings (they travel as arrays): prepared once
  // per connection, the server skips parsing and analysing it on every webhook call.
  const rows = await runPrepared(
    db,
    audit ? 'ingest_store_readings_audited' : 'ingest_store_readings',
    statement.compile(kysely(db)),
  );
  return rows.map((r): StoreOutcome => {
    if (!r.admitted) return { status: 'rejected', deviceIdentifier: r.ident };
    if (r.vital_id !== null && r.patient_id !== null && r.stored_at !== null)
      return { status: 'stored', vitalId: r.vital_id, patientId: r.patient_id, at: r.stored_at };
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
                'rejected', (SELECT count(*) FROM resolved WHERE patient_id IS NULL) - (SELECT count(*) FROM admitted),
                'duplicates', ${received + a.duplicatesBefore}::int - (SELECT count(*) FROM stored)
                              - (SELECT count(*) FROM parked)
                              - ((SELECT count(*) FROM resolved WHERE patient_id IS NULL) - (SELECT count(*) FROM admitted)),
                'patient_ids', (SELECT coalesce(jsonb_agg(DISTINCT patient_id), '[]'::jsonb) FROM stored)),
              'success', ${e.userAgent ?? null}::text, ${e.requestId ?? null}::text
     )`;
}

/**
 * The readings of nobody (for this source) it may park: those already parked (a retry, a
 * completed pulse) always, new ones while the source's unmatched quota has room, in input order.
 * Calls running at once each see the same room: the quota may be overshot by the readings of
 * those calls (at most INGEST_MAX_MEASUREMENTS each), the price of not serializing a source's
 * calls on a lock.
 */
function admittedSteps(sourceId: string | null, quota: number | null) {
  // MATERIALIZED: inlined, room.n became two copies of its count (the filter below names it
  // twice), and the source's waiting readings were counted twice in every call.
  return sql`room AS MATERIALIZED (
       SELECT CASE WHEN ${quota}::int IS NULL THEN NULL
                   ELSE greatest(${quota}::int - (SELECT count(*) FROM unmatched_readings WHERE source_id = ${sourceId}::uuid), 0)
              END AS n
     ),
     orphans AS (
       SELECT r.*, EXISTS (SELECT 1 FROM unmatched_readings e
                            WHERE lower(btrim(e.device_identifier)) = lower(r.ident) AND e.kind = r.kind
                              AND e.measured_at = r.measured_at) AS known
         FROM resolved r WHERE r.patient_id IS NULL
     ),
     admitted AS (
       SELECT o.* FROM (SELECT o.*, row_number() OVER (PARTITION BY o.known ORDER BY o.ord) AS nth FROM orphans o) o, room
        WHERE o.known OR room.n IS NULL OR o.nth <= room.n
     )`;
}

export interface PulseOutcomes {
  /** Pulses added to their stored reading. */
  merged: number;
  /** Pulses parked, waiting for their blood pressure. */
  waiting: number;
  /** Devices (as sent) of pulses refused because the source's unmatched quota is full. */
  rejected: string[];
}

interface PulseRow {
  ord: number;
  ident: string;
  merged: boolean;
  admitted: boolean;
}

/**
 * Pulses sent apart from their blood pressure, in one statement whatever their number: each is
 * added to its stored reading (of a patient of the sender's organization), or to the parked one,
 * or kept waiting for its blood pressure while the source's unmatched quota has room.
 * `pulses` must not repeat a measurement key (the caller merges them).
 */
export async function storeLonePulses(db: Queryable, sender: Sender, pulses: IncomingPulse[]): Promise<PulseOutcomes> {
  if (pulses.length === 0) return { merged: 0, waiting: 0, rejected: [] };
  const { sourceId, organizationId, unmatchedQuota } = sender;
  const column = <T>(pick: (p: IncomingPulse) => T) => pulses.map(pick);
  const statement = sql<PulseRow>`WITH input AS (
       SELECT * FROM unnest(${column((p) => p.deviceIdentifier)}::text[], ${column((p) => p.measuredAt)}::timestamptz[],
                            ${column((p) => p.index)}::int[], ${column((p) => p.pulse)}::int2[],
                            ${column((p) => p.irregular)}::bool[])
         WITH ORDINALITY AS i(ident, measured_at, idx, pulse, irregular, ord)
     ),
     on_vital AS (
       UPDATE observations v
          SET components = jsonb_build_object('pulse', i.pulse) || v.components, irregular_heartbeat = coalesce(v.irregular_heartbeat, i.irregular)
         FROM input i, devices d, patients p
        WHERE d.id = v.device_id AND lower(btrim(d.device_id)) = lower(btrim(i.ident)) AND v.kind = 'blood_pressure'
          AND v.created_at = i.measured_at AND p.id = v.patient_id AND p.organization_id = ${organizationId}::int
       RETURNING i.ord
     ),
     resolved AS (
       SELECT i.ord, btrim(i.ident) AS ident, i.measured_at, i.idx, 'blood_pressure'::text AS kind, i.pulse, i.irregular,
              NULL::int AS patient_id
         FROM input i WHERE i.ord NOT IN (SELECT ord FROM on_vital)
     ),
     ${admittedSteps(sourceId, unmatchedQuota)},
     parked AS (
       INSERT INTO unmatched_readings AS u (device_identifier, measured_at, measurement_index, kind, components, unit,
                                            irregular_heartbeat, source_id)
       SELECT ident, measured_at, idx, 'blood_pressure', jsonb_strip_nulls(jsonb_build_object('pulse', pulse)), '/min',
              irregular, ${sourceId} FROM admitted
       ON CONFLICT ((lower(btrim(device_identifier))), kind, measured_at) DO UPDATE
         SET components = EXCLUDED.components || u.components,
             irregular_heartbeat = coalesce(u.irregular_heartbeat, EXCLUDED.irregular_heartbeat)
     )
     SELECT i.ord::int, btrim(i.ident) AS ident, v.ord IS NOT NULL AS merged, v.ord IS NOT NULL OR a.ord IS NOT NULL AS admitted
       FROM input i LEFT JOIN on_vital v ON v.ord = i.ord LEFT JOIN admitted a ON a.ord = i.ord`;
  const rows = await runPrepared(db, 'ingest_store_lone_pulses', statement.compile(kysely(db)));
  return {
    merged: rows.filter((r) => r.merged).length,
    waiting: rows.filter((r) => !r.merged && r.admitted).length,
    rejected: rows.filter((r) => !r.admitted).map((r) => r.ident),
  };
}

/** One pulse sent apart from its blood pressure (FHIR): answers whether it completed a reading. */
export async function storeLonePulse(db: Queryable, sourceId: string | null, p: IncomingPulse): Promise<boolean> {
  const organizationId = sourceId === null ? null : await organizationOfSource(db, sourceId);
  return (await storeLonePulses(db, { sourceId, organizationId, unmatchedQuota: null }, [p])).merged > 0;
}

async function organizationOfSource(db: Queryable, sourceId: string): Promise<number | null> {
  const row = await kysely(db)
    .selectFrom('ingestion_sources')
    .select('organization_id')
    .where('id', '=', sourceId)
    .executeTakeFirst();
  return row?.organization_id ?? null;
}

/**
 * Keeps the newest battery level each device reported, in one statement: an older report never
 * overwrites a newer one, and a source sets the level only of devices of its organization's
 * patients or of nobody. `batteries` holds each device once. Answers how many devices changed.
 */
export async function updateBatteries(
  db: Queryable,
  organizationId: number | null,
  batteries: { deviceIdentifier: string; level: number; at: Date }[],
): Promise<number> {
  if (batteries.length === 0) return 0;
  const { rows } = await sql<{ n: number }>`WITH changed AS (
       UPDATE devices d SET battery_level = b.level, battery_at = b.at
         FROM unnest(${batteries.map((b) => b.deviceIdentifier)}::text[], ${batteries.map((b) => b.level)}::int2[],
                     ${batteries.map((b) => b.at)}::timestamptz[]) AS b(ident, level, at)
        WHERE lower(btrim(d.device_id)) = lower(btrim(b.ident)) AND (d.battery_at IS NULL OR d.battery_at <= b.at)
          AND (d.patient_id IS NULL
               OR EXISTS (SELECT 1 FROM patients p WHERE p.id = d.patient_id AND p.organization_id = ${organizationId}::int))
       RETURNING d.id
     )
     SELECT count(*)::int AS n FROM changed`.execute(kysely(db));
  return rows[0]?.n ?? 0;
}
