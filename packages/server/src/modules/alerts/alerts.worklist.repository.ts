import {
  ALERT_SEVERITY_RANK,
  type AlertRule,
  type AlertSeverity,
  type AlertStatus,
  type WorklistSort,
} from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';
import { alertQuery, type AlertDetailRow } from './alerts.repository.ts';

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
): Promise<{ rows: AlertDetailRow[]; total: number }> {
  const rows = await worklistQuery(db, f, limit, offset).execute();
  // A page past the end has no row to carry the total: count on its own then.
  const n = rows.length ? (rows[0]!.total ?? 0) : await countAlerts(db, f);
  return { rows: rows.map(({ total: _total, ...r }) => r as AlertDetailRow), total: n };
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

/** Which alerts a worklist row is made of: 'active' (open and acknowledged), 'open' or 'acknowledged'. */
export type WorklistStatus = 'active' | 'open' | 'acknowledged';

export interface WorklistFilter {
  organizationId: number | null;
  status: WorklistStatus;
  /** Rows with an alert of this severity (the row still shows all its alerts). */
  severity?: AlertSeverity;
  /** Rows with an alert of this rule (likewise). */
  rule?: AlertRule;
  providerId?: number;
}

export interface WorklistPatientRow {
  patient_id: number;
  patient_name: string;
  primary_provider_id: number | null;
  severity_rank: number;
  escalated: boolean;
  waiting_since: Date;
  last_reading_at: Date | null;
  total: number;
  alerts: number;
}

/*
 * An alert needs attention ("waits") while it is open, or acknowledged with a snooze that has
 * ended. 'open' and 'acknowledged' filter on that, not on the stored status, so a snooze that
 * ran out puts the alert back among the open ones without a job having to reopen it.
 */
const WAITING = sql<boolean>`(a.status = 'open' OR a.snoozed_until <= now())`;

function statusCondition(status: WorklistStatus) {
  if (status === 'open')
    return sql<boolean>`(a.status = 'open' OR (a.status = 'acknowledged' AND a.snoozed_until <= now()))`;
  if (status === 'acknowledged')
    return sql<boolean>`(a.status = 'acknowledged' AND (a.snoozed_until IS NULL OR a.snoozed_until > now()))`;
  return sql<boolean>`a.status IN ('open', 'acknowledged')`;
}

/**
 * The alerts behind the worklist: of patients actively enrolled in RPM (enrolled, status Active),
 * in the caller's scope. The (organization, status, severity_rank, first_at, id) index finds them.
 */
function activeAlerts(f: Pick<WorklistFilter, 'organizationId' | 'status' | 'providerId'>) {
  const conditions = [statusCondition(f.status), sql`p.enrolled_rpm`, sql`p.enrollment_status = 'Active'`];
  if (f.organizationId !== null) conditions.push(sql`a.organization_id = ${f.organizationId}`);
  if (f.providerId !== undefined) conditions.push(sql`p.primary_provider_id = ${f.providerId}`);
  return sql`
    SELECT a.id, a.patient_id, a.rule, a.severity_rank, a.first_at, a.escalated_at, ${WAITING} AS waiting
      FROM alerts a JOIN patients p ON p.id = a.patient_id
     WHERE ${sql.join(conditions, sql` AND `)}`;
}

function orderBy(sort: WorklistSort, order: 'asc' | 'desc', names: 'p' | 'r' = 'p') {
  const dir = order === 'desc' ? sql`DESC` : sql`ASC`;
  switch (sort) {
    case 'patient':
      return sql`${sql.ref(`${names}.last_name`)} ${dir}, ${sql.ref(`${names}.first_name`)} ${dir}, r.patient_id`;
    case 'waiting':
      return sql`r.waiting_since ${dir}, r.patient_id`;
    case 'last_reading':
      return sql`last_reading_at ${dir} NULLS LAST, r.patient_id`;
    default:
      // Priority: the most severe first, escalated first, the longest waiting first ('desc' reverses all three).
      return order === 'desc'
        ? sql`r.severity_rank DESC, r.escalated ASC, r.waiting_since DESC, r.patient_id`
        : sql`r.severity_rank ASC, r.escalated DESC, r.waiting_since ASC, r.patient_id`;
  }
}

function havingOf(f: WorklistFilter) {
  const having = [sql<boolean>`true`];
  if (f.severity) having.push(sql<boolean>`bool_or(severity_rank = ${ALERT_SEVERITY_RANK[f.severity]})`);
  if (f.rule) having.push(sql<boolean>`bool_or(rule = ${f.rule})`);
  return sql.join(having, sql` AND `);
}

const LAST_READING = sql`(SELECT max(o.created_at) FROM observations o WHERE o.patient_id = r.patient_id)`;

/**
 * One page of worklist rows (one per patient), with the number of rows and of their alerts in the
 * same statement. The rows are grouped from the alerts once (a materialized CTE); the totals and
 * the page read that. The newest reading is looked up only for the page's rows (an index probe
 * each), except when the page is sorted by it.
 */
export function worklistPageQuery(
  f: WorklistFilter,
  sort: WorklistSort,
  order: 'asc' | 'desc',
  limit: number,
  offset: number,
) {
  const sortsByReading = sort === 'last_reading';
  return sql<WorklistPatientRow>`
    WITH act AS (${activeAlerts(f)}),
    r AS MATERIALIZED (
      SELECT patient_id, min(severity_rank)::int AS severity_rank,
             bool_or(escalated_at IS NOT NULL AND waiting) AS escalated,
             coalesce(min(first_at) FILTER (WHERE waiting), min(first_at)) AS waiting_since,
             count(*)::int AS n
        FROM act GROUP BY patient_id
      HAVING ${havingOf(f)}
    ),
    t AS (SELECT count(*)::int AS total, coalesce(sum(n), 0)::int AS alerts FROM r),
    page AS (
      SELECT r.patient_id, btrim(concat_ws(' ', p.first_name, p.last_name)) AS patient_name, p.primary_provider_id,
             p.first_name, p.last_name, r.severity_rank, r.escalated, r.waiting_since,
             ${sortsByReading ? LAST_READING : sql`NULL::timestamptz`} AS last_reading_at
        FROM r JOIN patients p ON p.id = r.patient_id
       ORDER BY ${orderBy(sort, order)}
       LIMIT ${limit} OFFSET ${offset}
    )
    SELECT r.patient_id, r.patient_name, r.primary_provider_id, r.severity_rank, r.escalated, r.waiting_since,
           ${sortsByReading ? sql`r.last_reading_at` : LAST_READING} AS last_reading_at, t.total, t.alerts
      FROM page r CROSS JOIN t
     ORDER BY ${orderBy(sort, order, 'r')}`;
}

export async function pageWorklist(
  db: Queryable,
  f: WorklistFilter,
  sort: WorklistSort,
  order: 'asc' | 'desc',
  limit: number,
  offset: number,
): Promise<WorklistPatientRow[]> {
  return (await worklistPageQuery(f, sort, order, limit, offset).execute(kysely(db))).rows;
}

/** Rows and alerts of the worklist when a page past the end carries no total. */
export async function countWorklist(db: Queryable, f: WorklistFilter): Promise<{ total: number; alerts: number }> {
  const { rows } = await sql<{ total: number; alerts: number }>`
    WITH act AS (${activeAlerts(f)})
    SELECT count(*)::int AS total, coalesce(sum(n), 0)::int AS alerts
      FROM (SELECT count(*) AS n FROM act GROUP BY patient_id HAVING ${havingOf(f)}) r`.execute(kysely(db));
  return rows[0]!;
}

/** The alerts of the page's patients that the rows are made of, most severe and oldest first. */
export async function worklistAlerts(
  db: Queryable,
  patientIds: number[],
  status: WorklistStatus,
): Promise<AlertDetailRow[]> {
  if (patientIds.length === 0) return [];
  const rows = await alertQuery(db)
    .where('a.patient_id', 'in', patientIds)
    .where(statusCondition(status))
    .orderBy('a.severity_rank')
    .orderBy('a.first_at')
    .orderBy('a.id')
    .execute();
  return rows as AlertDetailRow[];
}

export interface WorklistCounts {
  open: number;
  patients: number;
  critical: number;
  warning: number;
  info: number;
  escalated: number;
  stale_patients: number;
}

/** The default worklist's counts (active alerts of actively enrolled patients), in one statement. */
export async function worklistCounts(db: Queryable, organizationId: number | null): Promise<WorklistCounts> {
  const { rows } = await sql<WorklistCounts>`
    WITH act AS (${activeAlerts({ organizationId, status: 'active' })})
    SELECT count(*)::int AS open,
           count(DISTINCT patient_id)::int AS patients,
           (count(*) FILTER (WHERE severity_rank = ${ALERT_SEVERITY_RANK.critical}))::int AS critical,
           (count(*) FILTER (WHERE severity_rank = ${ALERT_SEVERITY_RANK.warning}))::int AS warning,
           (count(*) FILTER (WHERE severity_rank = ${ALERT_SEVERITY_RANK.info}))::int AS info,
           (count(DISTINCT patient_id) FILTER (WHERE escalated_at IS NOT NULL AND waiting))::int AS escalated,
           (count(DISTINCT patient_id) FILTER (WHERE rule = 'stale_data'))::int AS stale_patients
      FROM act`.execute(kysely(db));
  return rows[0]!;
}
