import { ALERT_SEVERITY_RANK } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';
import { brokenRules, effectiveThresholds, severityOf } from './alert-rules.ts';
import {
  closeStaleAlerts,
  notifyAlertChanges,
  raiseAlert,
  readingsToCheck,
  type AlertChange,
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
