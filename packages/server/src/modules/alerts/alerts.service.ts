import {
  ALERT_SEVERITY_RANK,
  ALERT_THRESHOLD_KEYS,
  AlertErrors,
  ApiErrors,
  BillingErrors,
  DEFAULT_STALE_DAYS,
  type AlertListQuery,
  type AlertPage,
  type AlertSettings,
  type AlertSettingsBody,
  type AlertSummary,
  type AlertThresholdOverrides,
  type PatientThresholds,
  type ResolveAlertBody,
} from '@rpm/contracts';
import type pg from 'pg';
import { withTransaction, type Queryable } from '../../db/pool.ts';
import { authorize, requirePatientAccess } from '../../kernel/access.ts';
import { AuditedRefusal, auditedTransaction } from '../../kernel/audited-transaction.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { alertListScope, mayEditAlertSettings, mayReadAlertSettings, mayWorkAlert } from '../../policies/alerts.ts';
import { presentAlert, presentThresholdSet } from './alerts.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { insertNote } from '../notes/notes.repository.ts';
import { sessionKeyOf, sessionTimeLeft } from '../sessions/index.ts';
import { insertTrackingEntry, organizationToday } from '../tracking/tracking.repository.ts';
import { trackingDayRefusal } from '../tracking/index.ts';
import { brokenRules, effectiveThresholds, severityOf } from './alert-rules.ts';
import type { StreamSession } from './alerts.stream.ts';
import {
  acknowledgeAlert,
  alertMarks,
  closeStaleAlerts,
  findAlert,
  findOrganizationSettings,
  findPatientOverrides,
  notifyAlertChanges,
  organizationExists,
  pageAlerts,
  raiseAlert,
  raiseOrRefreshStale,
  readingsToCheck,
  resolveAlert,
  saveOrganizationSettings,
  savePatientOverrides,
  stalePatients,
  summarizeOpen,
  type AlertChange,
  type AlertRow,
} from './alerts.repository.ts';

/**
 * Checks readings just stored against the patient's thresholds, in the storing transaction
 * (`tx`): each broken rule raises its alert or counts on the open one, an open stale-data alert
 * ends, and every instance hears of the changes once the transaction commits. A reading that
 * breaks no rule costs one query. Callers: device
 * ingestion, manual readings, the demo seed.
 */
export async function evaluateStoredReadings(tx: Queryable, vitalIds: number[]): Promise<AlertChange[]> {
  const readings = await readingsToCheck(tx, vitalIds);
  if (readings.length === 0) return [];
  const changes: AlertChange[] = [];
  for (const r of readings) {
    const thresholds = effectiveThresholds(r.organization, r.patient);
    for (const rule of brokenRules(r, thresholds)) {
      const severity = severityOf(rule);
      changes.push(
        await raiseAlert(tx, {
          patientId: r.patient_id,
          organizationId: r.organization_id,
          rule,
          severity,
          severityRank: ALERT_SEVERITY_RANK[severity],
          at: r.measured_at,
          values: {
            ...(r.systolic !== null ? { systolic: r.systolic } : {}),
            ...(r.diastolic !== null ? { diastolic: r.diastolic } : {}),
            pulse: r.pulse,
            ...(r.irregular === true ? { irregular_heartbeat: true } : {}),
            measured_at: r.measured_at.toISOString(),
          },
          vitalId: r.vital_id,
        }),
      );
    }
  }
  // raiseAlert has announced its own changes; only ended stale-data alerts are left to announce.
  const stale = [...new Set(readings.filter((r) => r.stale_open).map((r) => r.patient_id))];
  if (stale.length) {
    const closed = await closeStaleAlerts(tx, stale);
    await notifyAlertChanges(tx, closed);
    changes.push(...closed);
  }
  return changes;
}

/** The stale-data check (run by the job queue, once per scheduled run across instances). */
export async function checkStaleData(db: pg.Pool): Promise<{ raised: number; refreshed: number }> {
  return withTransaction(db, async (tx) => {
    const stale = await stalePatients(tx, DEFAULT_STALE_DAYS);
    const changes: AlertChange[] = [];
    let raised = 0;
    for (const s of stale) {
      const change = await raiseOrRefreshStale(tx, {
        patientId: s.patient_id,
        organizationId: s.organization_id,
        severityRank: ALERT_SEVERITY_RANK.info,
        values: { days_without_reading: s.days },
      });
      if (change) {
        changes.push(change);
        if (change.created) raised++;
      }
    }
    await notifyAlertChanges(tx, changes);
    return { raised, refreshed: changes.length - raised };
  });
}

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

/**
 * The alert, if the caller may work it. An alert of another organization is answered like one
 * that does not exist (404), so ids cannot be probed; the audit record tells them apart.
 */
async function requireAlert(tx: Queryable, ctx: SignedInContext, id: number, action: string): Promise<AlertRow> {
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

function refuseResolved(action: string, alert: AlertRow): AuditedRefusal {
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
 * today, all in one transaction (through the notes and tracking repositories).
 */
export async function resolve(deps: { db: pg.Pool }, ctx: SignedInContext, id: number, body: ResolveAlertBody) {
  const action = 'alert.resolve';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const alert = await requireAlert(tx, ctx, id, action);
    if (alert.status === 'resolved') throw refuseResolved(action, alert);
    const note = await insertNote(tx, alert.patient_id, ctx.actor.id, body.note);
    await audit(tx, ctx, {
      action: 'note.create',
      outcome: 'success',
      resourceType: 'note',
      resourceId: note.id,
      details: { patient_id: alert.patient_id, length: body.note.length, alert_id: id },
    });
    let trackingId: number | null = null;
    if (body.minutes !== undefined) {
      // The clinic's day, as for every tracking entry: in UTC the evening's work in New York
      // would count for tomorrow, and at a month's end for the next month.
      const date = await organizationToday(tx, alert.patient_id);
      const refusal = await trackingDayRefusal(tx, alert.patient_id, date, body.minutes);
      if (refusal) {
        const closed = refusal === 'month closed';
        throw new AuditedRefusal(closed ? 409 : 400, closed ? BillingErrors.monthClosed : AlertErrors.minutesDayFull, {
          action,
          outcome: 'failure',
          resourceType: 'alert',
          resourceId: id,
          reason: closed ? 'month closed for billing' : 'over 1440 minutes in a day',
        });
      }
      const session = await insertTrackingEntry(tx, alert.patient_id, ctx.actor.id, {
        date,
        duration_minutes: body.minutes,
        notes: body.note,
        // Time spent resolving an alert is review work, not a live contact with the patient.
        interactive: false,
      });
      trackingId = session.id;
      await audit(tx, ctx, {
        action: 'tracking.create',
        outcome: 'success',
        resourceType: 'tracking_session',
        resourceId: session.id,
        details: { patient_id: alert.patient_id, date, duration_minutes: body.minutes, alert_id: id },
      });
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

const blankOverrides = (): AlertThresholdOverrides =>
  Object.fromEntries(ALERT_THRESHOLD_KEYS.map((k) => [k, null])) as AlertThresholdOverrides;

export async function getPatientThresholds(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
): Promise<PatientThresholds> {
  const action = 'alert.thresholds.read';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const patient = await requirePatientAccess(tx, ctx, patientId, action);
    const answer = await thresholdsOf(tx, patientId, patient.organization_id);
    await audit(tx, ctx, { action, outcome: 'success', resourceType: 'patient', resourceId: patientId });
    return answer;
  });
}

async function thresholdsOf(tx: Queryable, patientId: number, organizationId: number): Promise<PatientThresholds> {
  const overrides = (await findPatientOverrides(tx, patientId)) ?? blankOverrides();
  const organization = await findOrganizationSettings(tx, organizationId);
  return {
    patient_id: patientId,
    overrides,
    effective: presentThresholdSet(effectiveThresholds(organization, overrides)),
  };
}

export async function putPatientThresholds(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
  body: AlertThresholdOverrides,
): Promise<PatientThresholds> {
  const action = 'alert.thresholds.update';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const patient = await requirePatientAccess(tx, ctx, patientId, action, true);
    const before = (await findPatientOverrides(tx, patientId)) ?? blankOverrides();
    await savePatientOverrides(tx, patientId, ctx.actor.id, body);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'patient',
      resourceId: patientId,
      details: { before, after: body },
    });
    return thresholdsOf(tx, patientId, patient.organization_id);
  });
}

/** A refusal recorded like any other when the organization named in the path does not exist. */
async function requireOrganization(tx: Queryable, organizationId: number, action: string): Promise<void> {
  if (await organizationExists(tx, organizationId)) return;
  throw new AuditedRefusal(404, ApiErrors.notFound, {
    action,
    outcome: 'failure',
    resourceType: 'organization',
    resourceId: organizationId,
    reason: 'no such organization',
  });
}

function settingsAnswer(organizationId: number, stored: AlertSettingsBody | null): AlertSettings {
  const overrides = stored ?? { ...blankOverrides(), stale_days: null };
  return {
    organization_id: organizationId,
    overrides,
    effective: {
      ...presentThresholdSet(effectiveThresholds(overrides, null)),
      stale_days: overrides.stale_days ?? DEFAULT_STALE_DAYS,
    },
  };
}

export async function getAlertSettings(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  organizationId: number,
): Promise<AlertSettings> {
  const action = 'alert.settings.read';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    authorize(mayReadAlertSettings(ctx.actor, organizationId), {
      action,
      resourceType: 'organization',
      resourceId: organizationId,
      reason: 'organization of another provider',
      status: 404,
    });
    await requireOrganization(tx, organizationId, action);
    return settingsAnswer(organizationId, await findOrganizationSettings(tx, organizationId));
  });
}

export async function putAlertSettings(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  organizationId: number,
  body: AlertSettingsBody,
): Promise<AlertSettings> {
  const action = 'alert.settings.update';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    authorize(mayEditAlertSettings(ctx.actor), {
      action,
      resourceType: 'organization',
      resourceId: organizationId,
      reason: 'not an admin',
    });
    await requireOrganization(tx, organizationId, action);
    const before = await findOrganizationSettings(tx, organizationId);
    await saveOrganizationSettings(tx, organizationId, ctx.actor.id, body);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'organization',
      resourceId: organizationId,
      details: { before, after: body },
    });
    return settingsAnswer(organizationId, body);
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

/**
 * Opening the live stream: recorded like a list read (events carry ids, never patient details).
 * Answers whose alerts it carries, and the session it belongs to, which it must not outlive.
 */
export async function openAlertStream(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  sessionToken: string,
): Promise<{ scope: number | null; session: StreamSession; timeLeftMs: number }> {
  const scope = alertListScope(ctx.actor);
  await audit(deps.db, ctx, { action: 'alert.stream', outcome: 'success', resourceType: 'alert' });
  const session: StreamSession = {
    key: sessionKeyOf(sessionToken),
    userId: ctx.actor.id,
    timeLeft: () => sessionTimeLeft(deps.db, sessionToken),
  };
  // Ended since the access check (null): the stream opens only to say so and end.
  return { scope, session, timeLeftMs: (await session.timeLeft()) ?? 0 };
}
