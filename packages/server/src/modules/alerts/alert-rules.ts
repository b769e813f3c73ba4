import {
  ALERT_RULE_SEVERITY,
  ALERT_THRESHOLD_KEYS,
  DEFAULT_ALERT_THRESHOLDS,
  type AlertRule,
  type AlertThresholdValues,
} from '@rpm/contracts';

/** One stored reading, as the rules see it. */
export interface CheckedReading {
  /** Null on a heart rate measured alone: the blood-pressure rules do not apply to it. */
  systolic: number | null;
  diastolic: number | null;
  pulse: number | null;
  irregular: boolean | null;
}

type Overrides = Partial<Record<keyof AlertThresholdValues, number | null>>;

/** The patient's value, else the organization's, else the portal default: per threshold. */
export function effectiveThresholds(organization: Overrides | null, patient: Overrides | null): AlertThresholdValues {
  const out = { ...DEFAULT_ALERT_THRESHOLDS };
  for (const key of ALERT_THRESHOLD_KEYS) {
    out[key] = patient?.[key] ?? organization?.[key] ?? DEFAULT_ALERT_THRESHOLDS[key];
  }
  return out;
}

/**
 * The rules one reading breaks. A crisis reading is also at stage 2; it raises the crisis alert
 * only, so one reading never puts two blood-pressure alerts on the worklist.
 */
export function brokenRules(r: CheckedReading, t: AlertThresholdValues): AlertRule[] {
  const rules: AlertRule[] = [];
  const { systolic, diastolic } = r;
  // Compared as numbers only: a missing pressure (null) would compare as 0 and read as low.
  if (systolic !== null && diastolic !== null) {
    if (systolic > t.crisis_systolic || diastolic > t.crisis_diastolic) rules.push('bp_crisis');
    else if (systolic >= t.high_systolic || diastolic >= t.high_diastolic) rules.push('bp_high');
    if (systolic < t.low_systolic || diastolic < t.low_diastolic) rules.push('bp_low');
  }
  if (r.pulse !== null && r.pulse < t.pulse_low) rules.push('pulse_low');
  if (r.pulse !== null && r.pulse > t.pulse_high) rules.push('pulse_high');
  if (r.irregular === true) rules.push('irregular_heartbeat');
  return rules;
}

export const severityOf = (rule: AlertRule) => ALERT_RULE_SEVERITY[rule];
