import {
  ALERT_SNOOZE_MAX_HOURS,
  AlertErrors,
  ApiErrors,
  BillingErrors,
  type AcknowledgeAlertBody,
  type Alert,
  type AuditAction,
  type ResolveAlertBody,
} from '@rpm/contracts';
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
  type AlertDetailRow,
} from './alerts.repository.ts';

/** Refusals of a snooze (the contracts have no text for them yet). */
/**
 * The alert, if the caller may work it. An alert of another organization is answered like one
 * that does not exist (404), so ids cannot be probed; the audit record tells them apart.
 */
async function requireAlert(
  tx: Queryable,
  ctx: SignedInContext,
  id: number,
  action: AuditAction,
): Promise<AlertDetailRow> {
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

function refuseResolved(action: AuditAction, alert: AlertDetailRow): AuditedRefusal {
  return new AuditedRefusal(409, AlertErrors.alreadyResolved, {
    action,
    outcome: 'failure',
    resourceType: 'alert',
    resourceId: alert.id,
    reason: 'alert already resolved',
    details: { patient_id: alert.patient_id },
  });
}

/** The alert as it now is (with who acknowledged it, by name), for the answer. */
async function reread(tx: Queryable, id: number): Promise<Alert> {
  return presentAlert((await findAlert(tx, id))!);
}

/**
 * Acknowledges an alert, optionally snoozed until a time: in the future and at most
 * ALERT_SNOOZE_MAX_HOURS ahead (a longer silence is a resolution, not a snooze). Acknowledging
 * again replaces the snooze. An acknowledged alert no longer escalates.
 */
export async function acknowledge(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  id: number,
  body: AcknowledgeAlertBody = {},
  now = new Date(),
): Promise<Alert> {
  const action = 'alert.acknowledge';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const alert = await requireAlert(tx, ctx, id, action);
    if (alert.status === 'resolved') throw refuseResolved(action, alert);
    const snoozeUntil = body.snooze_until === undefined ? null : new Date(body.snooze_until);
    if (snoozeUntil) {
      const tooLong = snoozeUntil.getTime() > now.getTime() + ALERT_SNOOZE_MAX_HOURS * 3_600_000;
      if (snoozeUntil.getTime() <= now.getTime() || tooLong) {
        throw new AuditedRefusal(400, tooLong ? AlertErrors.snoozeTooLong : AlertErrors.snoozePast, {
          action,
          outcome: 'failure',
          resourceType: 'alert',
          resourceId: id,
          reason: tooLong ? 'snooze too long' : 'snooze in the past',
          details: { patient_id: alert.patient_id, snooze_until: body.snooze_until },
        });
      }
    }
    await acknowledgeAlert(tx, id, ctx.actor.id, snoozeUntil);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'alert',
      resourceId: id,
      details: { patient_id: alert.patient_id, rule: alert.rule, snooze_until: snoozeUntil?.toISOString() ?? null },
    });
    await notifyAlertChanges(tx, [{ ...alert, status: 'acknowledged' }]);
    return reread(tx, id);
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
        // Resolving an alert is a review of readings; a live contact, when the minutes included
        // one, makes the entry interactive (the management codes need one).
        {
          date,
          duration_minutes: body.minutes,
          notes: body.note,
          interactive: (body.contact_type ?? null) !== null,
          activity: 'review_readings',
          contact_type: body.contact_type ?? null,
        },
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
    await resolveAlert(tx, id, ctx.actor.id, note.id, body.reason);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'alert',
      resourceId: id,
      details: {
        patient_id: alert.patient_id,
        rule: alert.rule,
        reason: body.reason,
        note_id: note.id,
        tracking_id: trackingId,
      },
    });
    await notifyAlertChanges(tx, [{ ...alert, status: 'resolved' }]);
    return reread(tx, id);
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
