import {
  ALERT_RULE_SEVERITY,
  bloodPressure,
  glucose,
  heartRate,
  oxygenSaturation,
  temperature,
  type AlertRule,
  type MeasurementKind,
  type ThresholdValues,
} from '@rpm/contracts';

/**
 * The alert rules as verdicts on classifications. Every comparison with a threshold is the kind's
 * one classifier (contracts, measurements/*.ts): the rules only match on its `category`, so the
 * table's marks, the chart and the alerts agree at every boundary. The one exception is weight
 * gain, which compares two readings (the weight classifier grades a single weight, and has no
 * band for a gain).
 */

export interface ClassifyOptions {
  thresholds: ThresholdValues;
  programs: readonly string[];
}

/** The category of one value set of a kind (a reading, or a window's mean). */
export function categoryOf(kind: MeasurementKind, values: Readonly<Record<string, number>>, o: ClassifyOptions): string {
  return kind.classify(values, { thresholds: o.thresholds, programs: o.programs }).category;
}

export const bpCategory = (values: Readonly<Record<string, number>>, o: ClassifyOptions) =>
  categoryOf(bloodPressure, values, o);
export const pulseCategory = (pulse: number, o: ClassifyOptions) => categoryOf(heartRate, { pulse }, o);
export const glucoseCategory = (value: number, o: ClassifyOptions) => categoryOf(glucose, { glucose: value }, o);
export const spo2Category = (value: number, o: ClassifyOptions) => categoryOf(oxygenSaturation, { spo2: value }, o);
export const temperatureCategory = (value: number, o: ClassifyOptions) => categoryOf(temperature, { temperature: value }, o);

/** Blood pressure, one reading: a crisis or a severe low is acted on at once (ACC/AHA 2017, 11.2). */
export function bpReadingRules(category: string): { bp_crisis: boolean; bp_low_severe: boolean } {
  return { bp_crisis: category === 'crisis', bp_low_severe: category === 'low_severe' };
}

/**
 * Blood pressure, the window's mean: stage 2 (a crisis-level mean is at least stage 2, and the
 * crisis itself is the one-reading rule's) or low.
 */
export function bpWindowRules(meanCategory: string): { bp_stage2: boolean; bp_low: boolean } {
  return { bp_stage2: meanCategory === 'stage2' || meanCategory === 'crisis', bp_low: meanCategory === 'low' };
}

export function pulseWindowRules(meanCategory: string): { pulse_low: boolean; pulse_high: boolean } {
  return { pulse_low: meanCategory === 'low', pulse_high: meanCategory === 'high' };
}

/** Glucose, one reading (ADA 2025, section 6); `glucose_high` needs a second reading (see pairs). */
export function glucoseReadingRules(category: string) {
  return {
    glucose_very_low: category === 'level2',
    glucose_low: category === 'level1',
    glucose_very_high: category === 'very_high',
  };
}
/** A glucose reading that starts a high pair, and one that completes it. */
export const glucoseStartsHighPair = (category: string) => category === 'high';
export const glucoseCompletesHighPair = (category: string) => category === 'high' || category === 'very_high';

/** Oxygen saturation below the patient's target (a critical one is below it too). */
export const spo2BelowTarget = (category: string) => category === 'below_target' || category === 'critical';
export const spo2Critical = (category: string) => category === 'critical';

export const isFever = (category: string) => category === 'fever' || category === 'hyperpyrexia';

/**
 * Weight gain in kg, rounded to the stored precision (two decimals), so 80.9 − 80.0 is 0.9 and
 * not 0.90000000000001: "more than 0.9 kg" must not be met by a float's last digit.
 */
export function weightGain(now: number, before: number): number {
  return Math.round((now - before) * 100) / 100;
}

/**
 * HFSA/ACC/AHA 2022 heart-failure guideline (Heidenreich et al., Circulation 2022;145:e895):
 * report a gain of MORE than 2 lb (0.9 kg) in a day or 5 lb (2.3 kg) in a week.
 */
export const gainMet = (gain: number | null, limit: number) => gain !== null && gain > limit;

/** The arithmetic mean, or null for none. */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return values.reduce((a, b) => a + b, 0) / values.length;
}

export const severityOf = (rule: AlertRule) => ALERT_RULE_SEVERITY[rule];

/** Kept for the settings' service, which shows the thresholds that apply (the contracts' one rule). */
export { effectiveThresholds } from '@rpm/contracts';
