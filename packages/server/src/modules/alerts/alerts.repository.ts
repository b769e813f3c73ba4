import {
  DEFAULT_BP_WINDOW_DAYS,
  type AlertRule,
  type AlertThresholdKey,
  type AlertSeverity,
  type AlertStatus,
  type AlertValues,
  LATE_READING_HOURS,
} from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely, template, type Template } from '../../db/kysely.ts';

/** The channel every instance LISTENs on; a NOTIFY is delivered when its transaction commits. */
export const ALERT_CHANNEL = 'rpm_alerts';

export interface AlertRow {
  id: number;
  patient_id: number;
  organization_id: number;
  patient_name: string;
  primary_provider_id: number | null;
  rule: AlertRule;
  severity: AlertSeverity;
  status: AlertStatus;
  count: number;
  first_at: Date;
  last_at: Date;
  last_values: AlertValues;
}

/** What a NOTIFY carries: enough to decide who may hear of it, never patient details. */
export interface AlertChange {
  id: number;
  patient_id: number;
  organization_id: number;
  severity: AlertSeverity;
  status: AlertStatus;
}

type Overrides = Partial<Record<AlertThresholdKey, number | null>>;

/** A stored reading with what its check needs: the patient's enrollment, thresholds, programs and alerts. */
export interface ReadingToCheck {
  vital_id: number;
  patient_id: number;
  organization_id: number;
  kind: string;
  components: Record<string, number>;
  measured_at: Date;
  irregular: boolean | null;
  /** RPM enrolled and status Active: only those patients' readings are checked. */
  active: boolean;
  time_zone: string;
  bp_window_days: number | null;
  bp_window_min_readings: number | null;
  organization: Overrides | null;
  patient: Overrides | null;
  programs: string[];
  /** The patient has an open stale-data alert, which this reading ends. */
  stale_open: boolean;
  /** Rules of the patient's unresolved alerts. */
  open_rules: AlertRule[];
  /** The last resolution of each rule for the patient (ISO time): a rule is met again only on readings after it. */
  resolved: Partial<Record<AlertRule, string>>;
  /**
   * The blood-pressure and pulse window the reading's means are taken over; null when the reading
   * is not judged by the window rules (the patient is not active, or it has neither a pressure nor
   * a pulse).
   */
  window: { from: Date; readings: WindowReading[] } | null;
}

/** One reading of the blood-pressure and pulse window. */
export interface WindowReading {
  at: Date;
  systolic: number | null;
  diastolic: number | null;
  pulse: number | null;
}

/** The window as the statement answers it: times as JSON text, each reading [at, systolic, diastolic, pulse]. */
type WindowJson = { from: string; readings: [string, number | null, number | null, number | null][] } | null;

/** A stored reading: its id, and its time, which names the month table that holds it. */
export interface StoredReading {
  id: number;
  at: Date;
}

interface ReadingsToCheckParams {
  ids: number[];
  from: Date;
  /** Exclusive. */
  to: Date;
}

/**
 * The readings just stored, each with its patient's settings and alert state, in one query.
 * Prepared once per connection (its text does not depend on the number of readings): it runs in
 * every webhook call, and planning its subqueries cost more than running them.
 *
 * The readings' time span rides along with their ids: observations are partitioned by month, and
 * an id alone is looked up in every month table (one index probe per month and reading). Timed
 * on a call that stored 2 of its 10 readings: 2.9 ms at 20 million readings over 13 months against
 * about 1 ms at 1 million, and 1.0 / 0.6 ms with the span. A range on the partition key prunes the
 * other months when the prepared statement starts, even in its generic plan.
 */
export async function readingsToCheck(db: Queryable, stored: StoredReading[]): Promise<ReadingToCheck[]> {
  if (stored.length === 0) return [];
  readingsToCheckTemplate ??= template(
    'alerts_readings_to_check_v3',
    ['ids', 'from', 'to'],
    (p: ReadingsToCheckParams) => readingsToCheckQuery(p).compile(kysely(db)),
  );
  const times = stored.map((r) => r.at.getTime());
  const rows = await readingsToCheckTemplate.run(db, {
    ids: stored.map((r) => r.id),
    from: new Date(Math.min(...times)),
    // A stored time may carry microseconds, which a Date read back from the database has cut to
    // the millisecond below: the span ends a millisecond after the latest.
    to: new Date(Math.max(...times) + 1),
  });
  return rows.map(({ window, ...r }) => ({
    ...r,
    window: window && {
      from: new Date(window.from),
      readings: window.readings.map(([at, systolic, diastolic, pulse]) => ({
        at: new Date(at),
        systolic,
        diastolic,
        pulse,
      })),
    },
  }));
}
type ReadingToCheckRow = Omit<ReadingToCheck, 'window'> & { window: WindowJson };
let readingsToCheckTemplate: Template<ReadingsToCheckParams, ReadingToCheckRow> | undefined;

/**
 * The window of a reading `v` of patient `p` (organization `o`, alert settings `s`): the patient's
 * readings with a blood pressure or a pulse (any kind's pulse component), measured from the start
 * of the first of the organization's window days ending with the reading's day, in its time zone,
 * up to the reading itself. The day's start is computed by PostgreSQL (`AT TIME ZONE`), so a window
 * across a daylight-saving change starts at local midnight, not 24-hour steps back. Read over the
 * patient-and-time index, in the statement that reads the readings, so that a webhook call pays no
 * round trip of its own for its windows. The readings of the same call are all stored before, so
 * each window holds them, as a query per reading would.
 */
const windowColumn = sql`
  CASE WHEN p.enrolled_rpm AND p.enrollment_status IS NOT DISTINCT FROM 'Active'
            AND (v.pulse IS NOT NULL OR (v.systolic IS NOT NULL AND v.diastolic IS NOT NULL))
       THEN (SELECT json_build_object('from', w.window_from, 'readings', coalesce((
                      SELECT json_agg(json_build_array(x.created_at, x.systolic, x.diastolic, x.pulse) ORDER BY x.created_at)
                        FROM observations x
                       WHERE x.patient_id = v.patient_id AND x.created_at >= w.window_from AND x.created_at <= v.created_at
                         AND (x.pulse IS NOT NULL OR (x.systolic IS NOT NULL AND x.diastolic IS NOT NULL))), '[]'::json))
               FROM (SELECT (date_trunc('day', v.created_at AT TIME ZONE o.time_zone)
                              - make_interval(days => coalesce(s.bp_window_days, ${sql.lit(DEFAULT_BP_WINDOW_DAYS)}) - 1))
                             AT TIME ZONE o.time_zone AS window_from) w)
  END AS "window"`;

function readingsToCheckQuery({ ids, from, to }: ReadingsToCheckParams) {
  return sql<ReadingToCheckRow>`
    SELECT v.id::int8 AS vital_id, v.patient_id, p.organization_id, v.kind, v.components, v.created_at AS measured_at,
           v.irregular_heartbeat AS irregular,
           (p.enrolled_rpm AND p.enrollment_status IS NOT DISTINCT FROM 'Active') AS active,
           o.time_zone, s.bp_window_days, s.bp_window_min_readings,
           to_jsonb(s) - 'organization_id' - 'updated_by' - 'updated_at' - 'stale_days' - 'escalation_minutes'
             - 'escalation_contact_ids' - 'bp_window_days' - 'bp_window_min_readings' AS organization,
           to_jsonb(t) - 'patient_id' - 'updated_by' - 'updated_at' AS patient,
           coalesce((SELECT array_agg(pp.program_id) FROM patient_programs pp WHERE pp.patient_id = v.patient_id), '{}') AS programs,
           EXISTS (SELECT 1 FROM alerts sa WHERE sa.patient_id = v.patient_id AND sa.rule = 'stale_data'
                      AND sa.status <> 'resolved') AS stale_open,
           coalesce((SELECT array_agg(a.rule) FROM alerts a WHERE a.patient_id = v.patient_id AND a.status <> 'resolved'), '{}')
             AS open_rules,
           coalesce((SELECT jsonb_object_agg(x.rule, x.at) FROM (
                       SELECT a.rule, max(a.resolved_at) AS at FROM alerts a
                        WHERE a.patient_id = v.patient_id AND a.status = 'resolved' GROUP BY a.rule) x), '{}') AS resolved,
           ${windowColumn}
      FROM observations v
      JOIN patients p ON p.id = v.patient_id
      JOIN organizations o ON o.id = p.organization_id
      LEFT JOIN alert_settings s ON s.organization_id = p.organization_id
      LEFT JOIN patient_alert_thresholds t ON t.patient_id = v.patient_id
     WHERE v.id = ANY(${ids}::int8[]) AND v.created_at >= ${from}::timestamptz AND v.created_at < ${to}::timestamptz
     ORDER BY v.created_at, v.id`;
}

/**
 * Raises the rule's alert for the patient, or counts the reading on the one still open (the
 * partial unique index makes this one statement, safe when two readings arrive at once). The
 * latest values are those of the newest reading, also when an older one arrives late. The same
 * statement links the reading to the alert and NOTIFYs the change: one round trip per broken rule.
 */
export async function raiseAlert(
  db: Queryable,
  a: {
    patientId: number;
    organizationId: number;
    rule: AlertRule;
    severity: AlertSeverity;
    severityRank: number;
    at: Date;
    values: AlertValues;
    vitalId: number;
    /** bp_crisis: whether a second crisis reading came within 15 minutes; null for other rules. */
    confirmed?: boolean | null;
  },
): Promise<AlertChange & { created: boolean }> {
  const row = await kysely(db)
    .with('a', (q) =>
      q
        .insertInto('alerts')
        .values({
          patient_id: a.patientId,
          organization_id: a.organizationId,
          rule: a.rule,
          severity: a.severity,
          severity_rank: a.severityRank,
          first_at: a.at,
          last_at: a.at,
          last_values: JSON.stringify(a.values),
          last_vital_id: a.vitalId,
          confirmed: a.confirmed ?? null,
        })
        .onConflict((oc) =>
          oc
            .columns(['patient_id', 'rule'])
            // A literal, not a parameter: PostgreSQL matches the partial unique index by this
            // predicate, which a generic plan (the webhook's transaction plans generically) could not.
            .where('status', '<>', sql.lit('resolved'))
            .doUpdateSet({
              count: sql`alerts.count + 1`,
              first_at: sql`least(alerts.first_at, excluded.first_at)`,
              last_at: sql`greatest(alerts.last_at, excluded.last_at)`,
              last_values: sql`CASE WHEN excluded.last_at >= alerts.last_at THEN excluded.last_values ELSE alerts.last_values END`,
              last_vital_id: sql`CASE WHEN excluded.last_at >= alerts.last_at THEN excluded.last_vital_id ELSE alerts.last_vital_id END`,
              // Met again: no longer cleared. Once confirmed, a crisis stays confirmed.
              cleared_at: null,
              confirmed: sql`CASE WHEN alerts.confirmed IS NULL AND excluded.confirmed IS NULL THEN NULL
                                  ELSE coalesce(alerts.confirmed, false) OR coalesce(excluded.confirmed, false) END`,
              updated_at: sql`now()`,
            }),
        )
        .returning(['id', 'patient_id', 'organization_id', 'severity', 'status', sql<boolean>`xmax = 0`.as('created')]),
    )
    .with('r', (q) =>
      q
        .insertInto('alert_readings')
        .columns(['alert_id', 'vital_id'])
        .expression((eb) => eb.selectFrom('a').select(['a.id', sql<number>`${a.vitalId}::int8`.as('vital_id')]))
        .onConflict((oc) => oc.doNothing()),
    )
    .selectFrom('a')
    .selectAll()
    .select(
      sql<string>`pg_notify(${ALERT_CHANNEL}, json_build_array(json_build_object('id', a.id, 'patient_id', a.patient_id,
        'organization_id', a.organization_id, 'severity', a.severity, 'status', a.status))::text)::text`.as('notified'),
    )
    .executeTakeFirstOrThrow();
  const { notified: _notified, ...change } = row;
  return change as AlertChange & { created: boolean };
}

/** Stale-data alerts end by themselves once the patient measures again. */
export async function closeStaleAlerts(db: Queryable, patientIds: number[]): Promise<AlertChange[]> {
  if (patientIds.length === 0) return [];
  const rows = await kysely(db)
    .updateTable('alerts')
    .set({ status: 'resolved', resolved_at: sql`now()`, resolution_reason: 'readings_resumed', updated_at: sql`now()` })
    .where('patient_id', 'in', patientIds)
    .where('rule', '=', 'stale_data')
    .where('status', '<>', 'resolved')
    .returning(['id', 'patient_id', 'organization_id', 'severity', 'status'])
    .execute();
  return rows as AlertChange[];
}

/** Tells every instance (after commit) which alerts changed. */
export async function notifyAlertChanges(db: Queryable, changes: AlertChange[]): Promise<void> {
  if (changes.length === 0) return;
  const slim = changes.map(({ id, patient_id, organization_id, severity, status }) => ({
    id,
    patient_id,
    organization_id,
    severity,
    status,
  }));
  // NOTIFY payloads are limited to 8000 bytes: large batches are sent in slices.
  for (let i = 0; i < slim.length; i += 50) {
    await sql`SELECT pg_notify(${ALERT_CHANNEL}, ${JSON.stringify(slim.slice(i, i + 50))})`.execute(kysely(db));
  }
}

const PATIENT_NAME = sql<string>`btrim(concat_ws(' ', p.first_name, p.last_name))`;
type ResolutionReason = import('@rpm/contracts').ResolutionReason;
// A user without a name on file is shown by address, so an acknowledgement always says who.
const USER_NAME = sql<
  string | null
>`coalesce(nullif(btrim(concat_ws(' ', ack.first_name, ack.last_name)), ''), ack.email)`;

/** An alert with what the API shows beyond the evaluation's row: acknowledgement, snooze, escalation, resolution. */
export interface AlertDetailRow extends AlertRow {
  confirmed: boolean | null;
  cleared_at: Date | null;
  acknowledged_at: Date | null;
  acknowledged_by_name: string | null;
  snoozed_until: Date | null;
  escalated_at: Date | null;
  resolved_at: Date | null;
  resolution_reason: ResolutionReason | null;
}

/** An alert with its patient's name and primary provider, as the worklist and the actions read it. */
export function alertQuery(db: Queryable) {
  return kysely(db)
    .selectFrom('alerts as a')
    .innerJoin('patients as p', 'p.id', 'a.patient_id')
    .leftJoin('users as ack', 'ack.id', 'a.acknowledged_by')
    .select([
      'a.id',
      'a.patient_id',
      'a.organization_id',
      PATIENT_NAME.as('patient_name'),
      'p.primary_provider_id',
      'a.rule',
      'a.severity',
      'a.status',
      'a.count',
      'a.first_at',
      'a.last_at',
      'a.last_values',
      'a.confirmed',
      'a.cleared_at',
      'a.acknowledged_at',
      USER_NAME.as('acknowledged_by_name'),
      'a.snoozed_until',
      'a.escalated_at',
      'a.resolved_at',
      'a.resolution_reason',
    ]);
}

export async function findAlert(db: Queryable, id: number, lock = false): Promise<AlertDetailRow | undefined> {
  let q = alertQuery(db).where('a.id', '=', id);
  if (lock) q = q.forUpdate('a');
  return (await q.executeTakeFirst()) as AlertDetailRow | undefined;
}

/** Alerts by id, in the worklist's shape (the rows of one page). */
export async function findAlerts(db: Queryable, ids: number[]): Promise<AlertDetailRow[]> {
  if (ids.length === 0) return [];
  return (await alertQuery(db)
    .where('a.id', 'in', ids)
    .orderBy('a.severity_rank')
    .orderBy('a.first_at')
    .orderBy('a.id')
    .execute()) as AlertDetailRow[];
}

/** Acknowledged, optionally until `snoozeUntil` (after which the worklist shows it as waiting again). */
export async function acknowledgeAlert(
  db: Queryable,
  id: number,
  userId: number,
  snoozeUntil: Date | null,
): Promise<void> {
  await kysely(db)
    .updateTable('alerts')
    .set({
      status: 'acknowledged',
      acknowledged_by: userId,
      acknowledged_at: sql`now()`,
      snoozed_until: snoozeUntil,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

export async function resolveAlert(
  db: Queryable,
  id: number,
  userId: number,
  noteId: number,
  reason: ResolutionReason,
): Promise<void> {
  await kysely(db)
    .updateTable('alerts')
    .set({
      status: 'resolved',
      resolved_by: userId,
      resolved_at: sql`now()`,
      resolution_note_id: noteId,
      resolution_reason: reason,
      snoozed_until: null,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * Claims the e-mail of critical alerts not yet sent: one instance wins each (the others find
 * notified_at already set), and answers to whom it goes. An alert whose newest reading was
 * measured more than LATE_READING_HOURS ago (a device cloud's backlog) is not paged: it waits on
 * the worklist, and is e-mailed only if a recent reading counts on it later.
 */
export async function claimCriticalNotifications(
  db: Queryable,
  ids: number[] | null,
): Promise<{ id: number; email: string }[]> {
  const { rows } = await sql<{ id: number; email: string }>`
    UPDATE alerts a SET notified_at = now()
      FROM patients p JOIN users u ON u.id = p.primary_provider_id
     WHERE p.id = a.patient_id AND a.severity = 'critical' AND a.notified_at IS NULL AND a.status <> 'resolved'
       AND u.status = 'active' AND a.last_at >= now() - make_interval(hours => ${LATE_READING_HOURS}::int)
       AND (${ids}::int8[] IS NULL OR a.id = ANY(${ids}::int8[]))
     RETURNING a.id, u.email`.execute(kysely(db));
  return rows;
}

/** Measurement times of the patient's readings that raised or counted on an alert, for the Figure. */
export async function alertMarks(db: Queryable, patientId: number, days: number): Promise<number[]> {
  const { rows } = await sql<{ t: number }>`
    SELECT DISTINCT extract(epoch FROM v.created_at)::float8 AS t
      FROM alert_readings ar JOIN observations v ON v.id = ar.vital_id
     WHERE v.patient_id = ${patientId} AND v.created_at >= now() - make_interval(days => ${days}::int)
     ORDER BY 1`.execute(kysely(db));
  return rows.map((r) => r.t);
}
