import type { AlertListQuery, AlertPage, AlertSummary } from '@rpm/contracts';
import type pg from 'pg';
import { requirePatientAccess } from '../../kernel/access.ts';
import { auditedTransaction } from '../../kernel/audited-transaction.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { alertListScope } from '../../policies/alerts.ts';
import { presentAlert } from './alerts.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { pageAlerts, summarizeOpen } from './alerts.worklist.repository.ts';

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

/** Counts only (no patient is named): the badge and the dashboard. */
export async function alertSummary(deps: { db: pg.Pool }, ctx: SignedInContext): Promise<AlertSummary> {
  const rows = await summarizeOpen(deps.db, alertListScope(ctx.actor));
  const by = { critical: 0, high: 0, info: 0 };
  let stale = 0;
  for (const r of rows) {
    by[r.severity] += r.n;
    if (r.rule_stale) stale += r.n;
  }
  return { open: by.critical + by.high + by.info, by_severity: by, stale_patients: stale };
}
