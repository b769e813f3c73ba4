import type { GuidelineSource } from '../texts/guidelines.ts';

/**
 * The numbers the one classifier per kind compares readings with, and the alert rules that follow
 * from it. Each has a portal default with its source (shown as the settings page's help text); an
 * organization may set its own, and a provider a patient's own, which wins. Values are in the
 * kind's canonical unit (mmHg, /min, kg, mg/dL, %, °C).
 */


export type ThresholdKind = 'blood_pressure' | 'heart_rate' | 'weight' | 'glucose' | 'spo2' | 'temperature';

export interface ThresholdDefinition {
  key: string;
  kind: ThresholdKind;
  /** Canonical unit label, e.g. 'mmHg'. */
  unit: string;
  default: number;
  min: number;
  max: number;
  /** Decimal places a value may have (0: whole numbers). */
  decimals: number;
  /** Its source's key in GuidelineSources (texts/guidelines.ts), shown as the settings' help text. */
  source: GuidelineSource;
}

const def = <K extends string>(
  key: K,
  kind: ThresholdKind,
  unit: string,
  dflt: number,
  min: number,
  max: number,
  source: GuidelineSource,
  decimals = 0,
) => ({ key, kind, unit, default: dflt, min, max, decimals, source }) as const;

/**
 * Every threshold, in the order the settings page shows them. The blood-pressure ones apply to
 * the window's mean (stage 2, low) except crisis and severe low, which one reading meets.
 */
export const THRESHOLDS = [
  // Crisis: one reading ABOVE these (either number).
  def('crisis_systolic', 'blood_pressure', 'mmHg', 180, 40, 300, 'accAhaCrisis'),
  def('crisis_diastolic', 'blood_pressure', 'mmHg', 120, 20, 200, 'accAhaCrisis'),
  // Stage 2 (home 135/85 ↔ office 140/90): the window's mean AT OR ABOVE either number.
  def('stage2_systolic', 'blood_pressure', 'mmHg', 135, 40, 300, 'accAha2017'),
  def('stage2_diastolic', 'blood_pressure', 'mmHg', 85, 20, 200, 'accAha2017'),
  // Stage 1 (home 130/80 ↔ office 130/80): marked, not alerted (lifestyle and review, not a call).
  def('stage1_systolic', 'blood_pressure', 'mmHg', 130, 40, 300, 'accAha2017'),
  def('stage1_diastolic', 'blood_pressure', 'mmHg', 80, 20, 200, 'accAha2017'),
  // Low: the window's mean BELOW either number.
  def('low_systolic', 'blood_pressure', 'mmHg', 90, 40, 300, 'lowBp'),
  def('low_diastolic', 'blood_pressure', 'mmHg', 60, 20, 200, 'lowBp'),
  // Severe low: one reading BELOW either number with a pulse ABOVE low_severe_pulse.
  def('low_severe_systolic', 'blood_pressure', 'mmHg', 80, 40, 300, 'lowBp'),
  def('low_severe_diastolic', 'blood_pressure', 'mmHg', 50, 20, 200, 'lowBp'),
  def('low_severe_pulse', 'blood_pressure', '/min', 100, 20, 300, 'lowBp'),
  // What the patient is treated towards (drawn on the chart), not an alert.
  def('target_systolic', 'blood_pressure', 'mmHg', 130, 40, 300, 'accAha2017'),
  def('target_diastolic', 'blood_pressure', 'mmHg', 80, 20, 200, 'accAha2017'),
  // Pulse: the window's mean BELOW pulse_low or ABOVE pulse_high.
  def('pulse_low', 'heart_rate', '/min', 50, 20, 300, 'bradycardia'),
  def('pulse_high', 'heart_rate', '/min', 120, 20, 300, 'bradycardia'),
  // Weight: a gain of MORE than these against the patient's earlier weights.
  def('weight_gain_day', 'weight', 'kg', 0.9, 0.1, 20, 'hfsa', 1),
  def('weight_gain_week', 'weight', 'kg', 2.3, 0.1, 30, 'hfsa', 1),
  // Glucose: BELOW the low ones, ABOVE the high ones.
  def('glucose_very_low', 'glucose', 'mg/dL', 54, 10, 800, 'adaHypo'),
  def('glucose_low', 'glucose', 'mg/dL', 70, 10, 800, 'adaHypo'),
  def('glucose_high', 'glucose', 'mg/dL', 250, 10, 800, 'adaHigh'),
  def('glucose_very_high', 'glucose', 'mg/dL', 400, 10, 800, 'adaHigh'),
  // Oxygen saturation: BELOW the target (two readings within an hour), or below critical once.
  def('spo2_target', 'spo2', '%', 92, 50, 100, 'bts'),
  def('spo2_target_copd', 'spo2', '%', 88, 50, 100, 'bts'),
  def('spo2_critical', 'spo2', '%', 85, 50, 100, 'bts'),
  // Fever: AT OR ABOVE.
  // Between hypothermia (35) and hyperpyrexia (40), so the bands cannot overlap.
  def('fever', 'temperature', '°C', 38, 37, 40, 'fever', 1),
] as const satisfies readonly ThresholdDefinition[];

export type ThresholdKey = (typeof THRESHOLDS)[number]['key'];
export const THRESHOLD_KEYS = THRESHOLDS.map((t) => t.key) as ThresholdKey[];
export type ThresholdValues = Record<ThresholdKey, number>;
export type ThresholdOverrides = Partial<Record<ThresholdKey, number | null>>;

export const DEFAULT_THRESHOLDS = Object.fromEntries(THRESHOLDS.map((t) => [t.key, t.default])) as ThresholdValues;

/** The keys only an organization sets: a patient's own oxygen target is `spo2_target`, COPD or not. */
export const ORGANIZATION_ONLY_THRESHOLDS: readonly ThresholdKey[] = ['spo2_target_copd'];

export function thresholdDefinition(key: ThresholdKey): ThresholdDefinition {
  return THRESHOLDS.find((t) => t.key === key)!;
}

/**
 * The values that apply to one patient: the patient's own (set by a provider), else the
 * organization's, else the portal default. A patient in the COPD program has 88 % as the oxygen
 * target unless the patient's own target is set (BTS 2017: 88–92 % at risk of hypercapnia).
 */
export function effectiveThresholds(
  organization: ThresholdOverrides | null | undefined,
  patient: ThresholdOverrides | null | undefined,
  programs: readonly string[] = [],
): ThresholdValues {
  const out = { ...DEFAULT_THRESHOLDS };
  for (const key of THRESHOLD_KEYS) {
    const own = ORGANIZATION_ONLY_THRESHOLDS.includes(key) ? null : patient?.[key];
    out[key] = own ?? organization?.[key] ?? DEFAULT_THRESHOLDS[key];
  }
  if (programs.includes('copd') && (patient?.spo2_target ?? null) === null) out.spo2_target = out.spo2_target_copd;
  return out;
}

/*
 * The rules' windows (organization settings where the issue asks; the rest fixed with their
 * source). The blood-pressure window: ACC/AHA 2017 section 4.2 (a week of readings).
 */
export const DEFAULT_BP_WINDOW_DAYS = 7;
export const BP_WINDOW_DAYS_MAX = 30;
export const DEFAULT_BP_WINDOW_MIN_READINGS = 6;
export const BP_WINDOW_MIN_READINGS_MAX = 60;
/** A second severe reading within this many minutes confirms a crisis (ACC/AHA 2017: repeat after a few minutes). */
export const BP_CRISIS_CONFIRM_MINUTES = 15;
/** Two oxygen readings below target within this many minutes raise the alert (one may be a poor probe contact). */
export const SPO2_PAIR_MINUTES = 60;
/** Two glucose readings above `glucose_high` within this many hours raise the alert. */
export const GLUCOSE_HIGH_PAIR_HOURS = 24;
/** Critical alerts not acknowledged within this many minutes escalate (organization setting). */
export const DEFAULT_ESCALATION_MINUTES = 30;
export const ESCALATION_MINUTES_MAX = 1440;
export const ESCALATION_CONTACTS_MAX = 20;

/** The thresholds a classification uses: those given, else the defaults with the programs applied. */
export function contextThresholds(context?: { thresholds?: ThresholdValues; programs?: readonly string[] }): ThresholdValues {
  return context?.thresholds ?? effectiveThresholds(null, null, context?.programs ?? []);
}
