import {
  ALERT_SEVERITY_RANK,
  ALERT_THRESHOLD_KEYS,
  type Alert,
  type AlertSeverity,
  type AlertThresholdValues,
  type WorklistRow,
} from '@rpm/contracts';
import type { AlertDetailRow } from './alerts.repository.ts';
import type { WorklistPatientRow } from './alerts.worklist.repository.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** An alert as the API answers it (the organization stays on the server). */
export function presentAlert(r: AlertDetailRow): Alert {
  return {
    id: r.id,
    patient_id: r.patient_id,
    patient_name: r.patient_name,
    rule: r.rule,
    severity: r.severity,
    status: r.status,
    count: r.count,
    first_at: r.first_at.toISOString(),
    last_at: r.last_at.toISOString(),
    last_values: r.last_values,
    primary_provider_id: r.primary_provider_id,
    confirmed: r.confirmed,
    cleared_at: iso(r.cleared_at),
    acknowledged_at: iso(r.acknowledged_at),
    acknowledged_by_name: r.acknowledged_by_name,
    snoozed_until: iso(r.snoozed_until),
    escalated_at: iso(r.escalated_at),
    resolved_at: iso(r.resolved_at),
    resolution_reason: r.resolution_reason,
  };
}

const SEVERITY_OF_RANK = Object.fromEntries(Object.entries(ALERT_SEVERITY_RANK).map(([s, r]) => [r, s])) as Record<
  number,
  AlertSeverity
>;

/** A worklist row: the patient with the row's alerts (already in the row's order). */
export function presentWorklistRow(p: WorklistPatientRow, alerts: AlertDetailRow[]): WorklistRow {
  return {
    patient_id: p.patient_id,
    patient_name: p.patient_name,
    primary_provider_id: p.primary_provider_id,
    severity: SEVERITY_OF_RANK[p.severity_rank]!,
    escalated: p.escalated,
    waiting_since: p.waiting_since.toISOString(),
    last_reading_at: iso(p.last_reading_at),
    alerts: alerts.map(presentAlert),
  };
}

/** Only the threshold keys, in their documented order. */
export function presentThresholdSet(t: AlertThresholdValues): AlertThresholdValues {
  return Object.fromEntries(ALERT_THRESHOLD_KEYS.map((k) => [k, t[k]])) as AlertThresholdValues;
}
