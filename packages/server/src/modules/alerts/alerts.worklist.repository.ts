import { ALERT_SEVERITY_RANK, type AlertSeverity, type AlertStatus } from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';
import { alertQuery, type AlertRow } from './alerts.repository.ts';

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
