import { DEFAULT_BP_WINDOW_DAYS } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { insertAuditLog } from '../../kernel/audit-writer.repository.ts';
import { evaluateReadings } from './alerts.evaluate.ts';
import { notifyAlertChanges, readingsToCheck, type AlertChange } from './alerts.repository.ts';
import { latestReadings, resolveForEnrollmentEnd } from './alerts.reevaluate.repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Judges the patients' stored readings again with the thresholds and programs that apply now
 * (after a change of them): the newest reading of each kind is evaluated as if it had just come,
 * without counting it again. An open alert is marked cleared when its condition is no longer met,
 * or un-cleared when it is met again. A rule the new thresholds now meet with no open alert raises
 * one only when that newest reading was measured within the organization's window (7 days by
 * default): lowering a threshold should show the patients it now concerns, but a months-old
 * reading is no reason to page anyone today. Resolved alerts stay resolved (a rule is met again
 * only on readings after the resolution). Answers the alerts that changed (already announced).
 */
export async function reevaluatePatients(db: Queryable, patientIds: number[]): Promise<AlertChange[]> {
  const readings = await readingsToCheck(db, await latestReadings(db, patientIds));
  const now = Date.now();
  return evaluateReadings(db, readings, {
    mode: 'reevaluate',
    raiseNew: (r) => r.measured_at.getTime() >= now - (r.bp_window_days ?? DEFAULT_BP_WINDOW_DAYS) * DAY_MS,
  });
}

/**
 * Resolves the patient's open and acknowledged alerts (reason `enrollment_ended`) when the patient
 * is discharged, paused or no longer enrolled in RPM: readings are no longer reviewed, so their
 * alerts must not wait on the worklist. Announces the changes and records who ended them (`ctx`:
 * the request that ended the enrollment) with the alerts' ids.
 */
export async function closeAlertsForEnrollmentEnd(db: Queryable, patientId: number, ctx?: RequestContext): Promise<AlertChange[]> {
  const closed = await resolveForEnrollmentEnd(db, patientId);
  if (closed.length === 0) return closed;
  await notifyAlertChanges(db, closed);
  const event = {
    action: 'alert.close_enrollment_ended',
    outcome: 'success',
    resourceType: 'patient',
    resourceId: patientId,
    details: { alert_ids: closed.map((c) => c.id) },
  } as const;
  // Without a request (a job), the portal itself ended them: no user, no address.
  if (ctx) await audit(db, ctx, event);
  else await insertAuditLog(db, event);
  return closed;
}
