import type { AlertListQuery, AlertPage, AlertSummary, WorklistPage, WorklistQuery } from '@rpm/contracts';
import type pg from 'pg';
import { requirePatientAccess } from '../../kernel/access.ts';
import { auditedTransaction } from '../../kernel/audited-transaction.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { alertListScope } from '../../policies/alerts.ts';
import { presentAlert, presentWorklistRow } from './alerts.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import {
  countWorklist,
  pageAlerts,
  pageWorklist,
  worklistAlerts,
  worklistCounts,
  type WorklistFilter,
} from './alerts.worklist.repository.ts';

export async function listAlerts(deps: { db: pg.Pool }, ctx: SignedInContext, q: AlertListQuery): Promise<AlertPage> {
  const action = 'alert.list';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    if (q.patient_id !== undefined) await requirePatientAccess(tx, ctx, q.patient_id, action);
    const filter = {
      organizationId: alertListScope(ctx.actor),
      status: q.status ?? 'open',
      severity: q.severity,
      providerId: q.provider_id,
      patientId: q.patient_id,
    };
    const limit = q.limit ?? 25;
    const offset = q.offset ?? 0;
    const { rows, total } = await pageAlerts(tx, filter, limit, offset);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'alert',
      details: {
        status: filter.status,
        severity: q.severity ?? null,
        provider_id: q.provider_id ?? null,
        patient_id: q.patient_id ?? null,
        limit,
        offset,
        count: rows.length,
        patient_ids: [...new Set(rows.map((r) => r.patient_id))],
      },
    });
    return { items: rows.map(presentAlert), total };
  });
}

/**
 * The worklist: one row per actively enrolled patient with active alerts, in the caller's scope
 * (the alert list policy). Two statements: the page of rows with its totals, then the rows'
 * alerts. Audited as the alert list, with the patients the page named.
 */
export async function worklist(deps: { db: pg.Pool }, ctx: SignedInContext, q: WorklistQuery): Promise<WorklistPage> {
  const action = 'alert.list';
  const filter: WorklistFilter = {
    organizationId: alertListScope(ctx.actor),
    status: q.status ?? 'active',
    severity: q.severity,
    rule: q.rule,
    providerId: q.provider_id,
  };
  const sort = q.sort ?? 'priority';
  const order = q.order ?? 'asc';
  const limit = q.limit ?? 25;
  const offset = q.offset ?? 0;
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const rows = await pageWorklist(tx, filter, sort, order, limit, offset);
    // A page past the end has no row to carry the totals: count on their own then.
    const totals = rows.length ? { total: rows[0]!.total, alerts: rows[0]!.alerts } : await countWorklist(tx, filter);
    const alerts = await worklistAlerts(
      tx,
      rows.map((r) => r.patient_id),
      filter.status,
    );
    const byPatient = new Map<number, typeof alerts>();
    for (const a of alerts) byPatient.set(a.patient_id, [...(byPatient.get(a.patient_id) ?? []), a]);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'alert',
      details: {
        view: 'worklist',
        status: filter.status,
        severity: q.severity ?? null,
        rule: q.rule ?? null,
        provider_id: q.provider_id ?? null,
        sort,
        order,
        limit,
        offset,
        count: rows.length,
        patient_ids: rows.map((r) => r.patient_id),
      },
    });
    return {
      items: rows.map((r) => presentWorklistRow(r, byPatient.get(r.patient_id) ?? [])),
      total: totals.total,
      alerts: totals.alerts,
    };
  });
}

/** Counts only (no patient is named): the badge and the dashboard, exactly the default worklist's. */
export async function alertSummary(deps: { db: pg.Pool }, ctx: SignedInContext): Promise<AlertSummary> {
  const c = await worklistCounts(deps.db, alertListScope(ctx.actor));
  return {
    open: c.open,
    patients: c.patients,
    by_severity: { critical: c.critical, warning: c.warning, info: c.info },
    escalated: c.escalated,
    stale_patients: c.stale_patients,
  };
}
