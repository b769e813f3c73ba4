import {
  ALERT_SEVERITY_RANK,
  ALERT_THRESHOLD_KEYS,
  type AlertRule,
  type AlertSettingsBody,
  type AlertSeverity,
  type AlertStatus,
  type AlertThresholdOverrides,
  type AlertValues,
  LATE_READING_HOURS,
} from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

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

type Overrides = Partial<Record<(typeof ALERT_THRESHOLD_KEYS)[number], number | null>>;

/** A stored reading with what its check needs: the patient's organization and both sets of overrides. */
export interface ReadingToCheck {
  vital_id: number;
  patient_id: number;
  organization_id: number;
  measured_at: Date;
  systolic: number | null;
  diastolic: number | null;
  pulse: number | null;
  irregular: boolean | null;
  organization: Overrides | null;
  patient: Overrides | null;
  /** The patient has an open stale-data alert, which this reading ends. */
  stale_open: boolean;
}

/** The readings just stored, each with its thresholds, in one query (the check's only read). */
export async function readingsToCheck(db: Queryable, vitalIds: number[]): Promise<ReadingToCheck[]> {
  if (vitalIds.length === 0) return [];
  const { rows } = await sql<ReadingToCheck>`
    SELECT v.id::int8 AS vital_id, v.patient_id, p.organization_id, v.created_at AS measured_at, v.systolic, v.diastolic,
           v.pulse, v.irregular_heartbeat AS irregular,
           to_jsonb(s) - 'organization_id' - 'updated_by' - 'updated_at' - 'stale_days' AS organization,
           to_jsonb(t) - 'patient_id' - 'updated_by' - 'updated_at' AS patient,
           EXISTS (SELECT 1 FROM alerts sa WHERE sa.patient_id = v.patient_id AND sa.rule = 'stale_data'
                      AND sa.status <> 'resolved') AS stale_open
      FROM vitals v
      JOIN patients p ON p.id = v.patient_id
      LEFT JOIN alert_settings s ON s.organization_id = p.organization_id
      LEFT JOIN patient_alert_thresholds t ON t.patient_id = v.patient_id
     WHERE v.id = ANY(${vitalIds}::int8[])
     ORDER BY v.created_at, v.id`.execute(kysely(db));
  return rows;
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
        })
        .onConflict((oc) =>
          oc
            .columns(['patient_id', 'rule'])
            .where('status', '<>', 'resolved')
            .doUpdateSet({
              count: sql`alerts.count + 1`,
              first_at: sql`least(alerts.first_at, excluded.first_at)`,
              last_at: sql`greatest(alerts.last_at, excluded.last_at)`,
              last_values: sql`CASE WHEN excluded.last_at >= alerts.last_at THEN excluded.last_values ELSE alerts.last_values END`,
              last_vital_id: sql`CASE WHEN excluded.last_at >= alerts.last_at THEN excluded.last_vital_id ELSE alerts.last_vital_id END`,
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
    .set({ status: 'resolved', resolved_at: sql`now()`, updated_at: sql`now()` })
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

function alertQuery(db: Queryable) {
  return kysely(db)
    .selectFrom('alerts as a')
    .innerJoin('patients as p', 'p.id', 'a.patient_id')
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
    ]);
}

export interface AlertFilter {
  organizationId: number | null;
  status: AlertStatus;
  severity?: AlertSeverity;
  providerId?: number;
  patientId?: number;
}

function filtered(db: Queryable, f: AlertFilter) {
  let q = kysely(db).selectFrom('alerts as a').where('a.status', '=', f.status);
  if (f.organizationId !== null) q = q.where('a.organization_id', '=', f.organizationId);
  // The rank is an index column; the severity text is not.
  if (f.severity) q = q.where('a.severity_rank', '=', ALERT_SEVERITY_RANK[f.severity]);
  if (f.patientId) q = q.where('a.patient_id', '=', f.patientId);
  if (f.providerId) {
    const providerId = f.providerId;
    // From the provider's patients (patients_primary_provider_idx) to their alerts (alerts_patient_idx).
    q = q.where('a.patient_id', 'in', (eb) =>
      eb.selectFrom('patients as pp').select('pp.id').where('pp.primary_provider_id', '=', providerId),
    );
  }
  return q;
}

/**
 * One page of the worklist, critical first, then oldest, with the total in the same round trip.
 * The page's ids come from the (organization, status, severity_rank, first_at, id) index and are
 * then joined to their patients; the total counts the same filter (an index-only count).
 */
export async function pageAlerts(
  db: Queryable,
  f: AlertFilter,
  limit: number,
  offset: number,
): Promise<{ rows: AlertRow[]; total: number }> {
  const rows = await worklistQuery(db, f, limit, offset).execute();
  // A page past the end has no row to carry the total: count on its own then.
  const n = rows.length ? (rows[0]!.total ?? 0) : await countAlerts(db, f);
  return { rows: rows.map(({ total: _total, ...r }) => r as AlertRow), total: n };
}

/** The worklist statement itself (the benchmark also has PostgreSQL explain it). */
export function worklistQuery(db: Queryable, f: AlertFilter, limit: number, offset: number) {
  const ids = filtered(db, f)
    .select('a.id')
    .orderBy('a.severity_rank')
    .orderBy('a.first_at')
    .orderBy('a.id')
    .limit(limit)
    .offset(offset);
  const total = filtered(db, f).select(sql<number>`count(*)::int`.as('n'));
  return alertQuery(db)
    .select((eb) => eb.selectFrom(total.as('t')).select('t.n').as('total'))
    .where('a.id', 'in', ids)
    .orderBy('a.severity_rank')
    .orderBy('a.first_at')
    .orderBy('a.id');
}

export async function countAlerts(db: Queryable, f: AlertFilter): Promise<number> {
  const row = await filtered(db, f)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Open (not yet resolved) alerts by severity, and patients with stale data, for the badge and dashboard. */
export async function summarizeOpen(
  db: Queryable,
  organizationId: number | null,
): Promise<{ severity: AlertSeverity; rule_stale: boolean; n: number }[]> {
  let q = kysely(db)
    .selectFrom('alerts')
    .select(['severity', sql<boolean>`rule = 'stale_data'`.as('rule_stale'), sql<number>`count(*)::int`.as('n')])
    .where('status', '<>', 'resolved');
  if (organizationId !== null) q = q.where('organization_id', '=', organizationId);
  const rows = await q.groupBy(['severity', sql`rule = 'stale_data'`]).execute();
  return rows as { severity: AlertSeverity; rule_stale: boolean; n: number }[];
}

export async function findAlert(db: Queryable, id: number, lock = false): Promise<AlertRow | undefined> {
  let q = alertQuery(db).where('a.id', '=', id);
  if (lock) q = q.forUpdate('a');
  return (await q.executeTakeFirst()) as AlertRow | undefined;
}

export async function acknowledgeAlert(db: Queryable, id: number, userId: number): Promise<void> {
  await kysely(db)
    .updateTable('alerts')
    .set({ status: 'acknowledged', acknowledged_by: userId, acknowledged_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

export async function resolveAlert(db: Queryable, id: number, userId: number, noteId: number): Promise<void> {
  await kysely(db)
    .updateTable('alerts')
    .set({
      status: 'resolved',
      resolved_by: userId,
      resolved_at: sql`now()`,
      resolution_note_id: noteId,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

const OVERRIDE_COLUMNS = [...ALERT_THRESHOLD_KEYS];

export async function findPatientOverrides(db: Queryable, patientId: number): Promise<AlertThresholdOverrides | null> {
  const row = await kysely(db)
    .selectFrom('patient_alert_thresholds')
    .select(OVERRIDE_COLUMNS)
    .where('patient_id', '=', patientId)
    .executeTakeFirst();
  return row ?? null;
}

export async function savePatientOverrides(
  db: Queryable,
  patientId: number,
  userId: number,
  values: AlertThresholdOverrides,
): Promise<void> {
  await kysely(db)
    .insertInto('patient_alert_thresholds')
    .values({ patient_id: patientId, updated_by: userId, ...values })
    .onConflict((oc) => oc.column('patient_id').doUpdateSet({ ...values, updated_by: userId, updated_at: sql`now()` }))
    .execute();
}

export async function findOrganizationSettings(
  db: Queryable,
  organizationId: number,
): Promise<AlertSettingsBody | null> {
  const row = await kysely(db)
    .selectFrom('alert_settings')
    .select([...OVERRIDE_COLUMNS, 'stale_days'])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row ?? null;
}

export async function organizationExists(db: Queryable, organizationId: number): Promise<boolean> {
  const row = await kysely(db)
    .selectFrom('organizations')
    .select('id')
    .where('id', '=', organizationId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function saveOrganizationSettings(
  db: Queryable,
  organizationId: number,
  userId: number,
  values: AlertSettingsBody,
): Promise<void> {
  await kysely(db)
    .insertInto('alert_settings')
    .values({ organization_id: organizationId, updated_by: userId, ...values })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet({ ...values, updated_by: userId, updated_at: sql`now()` }),
    )
    .execute();
}

/**
 * RPM patients with no reading for their organization's number of days (or none since they were
 * added), as one set: the stale-data job raises or refreshes an alert for each.
 */
export async function stalePatients(
  db: Queryable,
  defaultDays: number,
): Promise<{ patient_id: number; organization_id: number; last_reading: Date | null; days: number }[]> {
  const { rows } = await sql<{ patient_id: number; organization_id: number; last_reading: Date | null; days: number }>`
    SELECT p.id AS patient_id, p.organization_id, last.at AS last_reading,
           floor(extract(epoch FROM now() - coalesce(last.at, p.created_at)) / 86400)::int AS days
      FROM patients p
      LEFT JOIN alert_settings s ON s.organization_id = p.organization_id
      LEFT JOIN LATERAL (SELECT v.created_at AS at FROM vitals v WHERE v.patient_id = p.id
                          ORDER BY v.created_at DESC, v.id DESC LIMIT 1) last ON true
     WHERE p.enrolled_rpm
       AND coalesce(last.at, p.created_at) < now() - make_interval(days => coalesce(s.stale_days, ${defaultDays})::int)`.execute(
    kysely(db),
  );
  return rows;
}

/** The stale-data alert's "days without a reading" is kept current on every run; it is not a new reading. */
export async function raiseOrRefreshStale(
  db: Queryable,
  s: { patientId: number; organizationId: number; severityRank: number; values: AlertValues },
): Promise<(AlertChange & { created: boolean }) | null> {
  const row = await kysely(db)
    .insertInto('alerts')
    .values({
      patient_id: s.patientId,
      organization_id: s.organizationId,
      rule: 'stale_data',
      severity: 'info',
      severity_rank: s.severityRank,
      first_at: sql`now()`,
      last_at: sql`now()`,
      last_values: JSON.stringify(s.values),
    })
    .onConflict((oc) =>
      oc
        .columns(['patient_id', 'rule'])
        .where('status', '<>', 'resolved')
        .doUpdateSet({ last_values: sql`excluded.last_values`, last_at: sql`now()`, updated_at: sql`now()` })
        .where(sql<boolean>`alerts.last_values IS DISTINCT FROM excluded.last_values`),
    )
    .returning(['id', 'patient_id', 'organization_id', 'severity', 'status', sql<boolean>`xmax = 0`.as('created')])
    .executeTakeFirst();
  return (row as (AlertChange & { created: boolean }) | undefined) ?? null;
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
      FROM alert_readings ar JOIN vitals v ON v.id = ar.vital_id
     WHERE v.patient_id = ${patientId} AND v.created_at >= now() - make_interval(days => ${days}::int)
     ORDER BY 1`.execute(kysely(db));
  return rows.map((r) => r.t);
}
