import { AlertErrors, ApiErrors, BillingErrors, type ResolveAlertBody, type AuditAction } from '@rpm/contracts';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import { authorize, requirePatientAccess } from '../../kernel/access.ts';
import { AuditedRefusal, auditedTransaction } from '../../kernel/audited-transaction.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { mayWorkAlert } from '../../policies/alerts.ts';
import { presentAlert } from './alerts.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { writeNote } from '../notes/index.ts';
import { recordTrackingTime, trackingToday } from '../tracking/index.ts';
import {
  acknowledgeAlert,
  alertMarks,
  findAlert,
  notifyAlertChanges,
  resolveAlert,
  type AlertRow,
} from './alerts.repository.ts';

/**
 * The alert, if the caller may work it. An alert of another organization is answered like one
 * that does not exist (404), so ids cannot be probed; the audit record tells them apart.
 */
async function requireAlert(tx: Queryable, ctx: SignedInContext, id: number, action: AuditAction): Promise<AlertRow> {
  const alert = await findAlert(tx, id, true);
  if (!alert) {
    throw new AuditedRefusal(404, ApiErrors.notFound, {
      action,
      outcome: 'failure',
      resourceType: 'alert',
      resourceId: id,
      reason: 'no such alert',
    });
  }
  authorize(mayWorkAlert(ctx.actor, alert), {
    action,
    resourceType: 'alert',
    resourceId: id,
    reason: 'alert of another organization',
    status: 404,
    details: { patient_id: alert.patient_id },
  });
  return alert;
}

function refuseResolved(action: AuditAction, alert: AlertRow): AuditedRefusal {
  return new AuditedRefusal(409, AlertErrors.alreadyResolved, {
    action,
    outcome: 'failure',
    resourceType: 'alert',
    resourceId: alert.id,
    reason: 'alert already resolved',
    details: { patient_id: alert.patient_id },
  });
}

export async function acknowledge(deps: { db: pg.Pool }, ctx: SignedInContext, id: number) {
  const action = 'alert.acknowledge';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const alert = await requireAlert(tx, ctx, id, action);
    if (alert.status === 'resolved') throw refuseResolved(action, alert);
    await acknowledgeAlert(tx, id, ctx.actor.id);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'alert',
      resourceId: id,
      details: { patient_id: alert.patient_id, rule: alert.rule },
    });
    const updated = { ...alert, status: 'acknowledged' as const };
    await notifyAlertChanges(tx, [updated]);
    return presentAlert(updated);
  });
}

/**
 * Resolves an alert with a clinical note on the patient, and with minutes a tracking entry for
 * today, all in one transaction. The note and the minutes go through the notes and tracking
 * services, so their rules hold here too (a closed billing month refuses the minutes).
 */
export async function resolve(deps: { db: pg.Pool }, ctx: SignedInContext, id: number, body: ResolveAlertBody) {
  const action = 'alert.resolve';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const alert = await requireAlert(tx, ctx, id, action);
    if (alert.status === 'resolved') throw refuseResolved(action, alert);
    const note = await writeNote(tx, ctx, alert.patient_id, body.note, { alert_id: id });
    let trackingId: number | null = null;
    if (body.minutes !== undefined) {
      // The clinic's day, as for every tracking entry: in UTC the evening's work in New York
      // would count for tomorrow, and at a month's end for the next month.
      const date = await trackingToday(tx, alert.patient_id);
      const entry = await recordTrackingTime(
        tx,
        ctx,
        alert.patient_id,
        // Time spent resolving an alert is review work, not a live contact with the patient.
        { date, duration_minutes: body.minutes, notes: body.note, interactive: false },
        (why) => {
          const closed = why === 'month closed';
          return new AuditedRefusal(
            closed ? 409 : 400,
            closed ? BillingErrors.monthClosed : AlertErrors.minutesDayFull,
            {
              action,
              outcome: 'failure',
              resourceType: 'alert',
              resourceId: id,
              reason: closed ? 'month closed for billing' : 'over 1440 minutes in a day',
            },
          );
        },
        { alert_id: id },
      );
      trackingId = entry.id;
    }
    await resolveAlert(tx, id, ctx.actor.id, note.id);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'alert',
      resourceId: id,
      details: { patient_id: alert.patient_id, rule: alert.rule, note_id: note.id, tracking_id: trackingId },
    });
    const updated = { ...alert, status: 'resolved' as const };
    await notifyAlertChanges(tx, [updated]);
    return presentAlert(updated);
  });
}

/** Readings of the patient that raised an alert, for the vitals Figure. */
export async function getAlertMarks(deps: { db: pg.Pool }, ctx: SignedInContext, patientId: number, days: number) {
  const action = 'alert.marks.read';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    await requirePatientAccess(tx, ctx, patientId, action);
    const t = await alertMarks(tx, patientId, days);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'patient',
      resourceId: patientId,
      details: { count: t.length },
    });
    return { t };
  });
}
