import { ALERT_THRESHOLD_KEYS, type Alert, type AlertThresholdValues } from '@rpm/contracts';
import type { AlertRow } from './alerts.repository.ts';

/** A worklist row as the API answers it (the organization stays on the server). */
export function presentAlert(r: AlertRow): Alert {
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
  };
}

/** Only the threshold keys, in their documented order. */
export function presentThresholdSet(t: AlertThresholdValues): AlertThresholdValues {
  return Object.fromEntries(ALERT_THRESHOLD_KEYS.map((k) => [k, t[k]])) as AlertThresholdValues;
}
