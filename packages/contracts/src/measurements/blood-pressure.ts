import { contextThresholds, type ThresholdValues } from './thresholds.ts';
import { NORMAL, type Classification, type MeasurementKind } from './types.ts';

/**
 * The marks' words, from the thresholds that applied (the patient's own show their own numbers).
 * "Above" and "at or above" say exactly what the comparison is.
 */
export const BloodPressureTexts = {
  crisis: (t: ThresholdValues) => `Above ${t.crisis_systolic}/${t.crisis_diastolic} (crisis)`,
  lowSevere: (t: ThresholdValues) =>
    `Below ${t.low_severe_systolic}/${t.low_severe_diastolic} with pulse above ${t.low_severe_pulse}`,
  stage2: (t: ThresholdValues) => `At or above ${t.stage2_systolic}/${t.stage2_diastolic} (stage 2)`,
  stage1: (t: ThresholdValues) => `At or above ${t.stage1_systolic}/${t.stage1_diastolic} (stage 1)`,
  low: (t: ThresholdValues) => `Below ${t.low_systolic}/${t.low_diastolic}`,
} as const;

/** The blood-pressure bands, most urgent first; the first that a value set meets is its class. */
export const BP_CATEGORIES = ['crisis', 'low_severe', 'stage2', 'stage1', 'low'] as const;
export type BloodPressureCategory = (typeof BP_CATEGORIES)[number] | 'normal';

/**
 * Blood pressure (home readings): one classification for a single reading and for a window's
 * mean. 2017 ACC/AHA guideline (Whelton et al., Hypertension 2018;71:e13), table 11, home
 * equivalents: stage 2 at or above 135/85 (office 140/90), stage 1 at or above 130/80; crisis
 * above 180/120 (section 11.2). Low below 90/60; below 80/50 with a pulse above 100 is severe
 * (the diastolic only with a systolic below 90). Otherwise either number meeting a band is enough
 * (the guideline's "or").
 */
export function classifyBloodPressure(values: Readonly<Record<string, number>>, t: ThresholdValues): Classification {
  const { systolic, diastolic, pulse } = values;
  // A reading without both numbers has no pressure to grade.
  if (systolic === undefined || diastolic === undefined) return NORMAL;
  if (systolic > t.crisis_systolic || diastolic > t.crisis_diastolic)
    return { level: 'critical', label: BloodPressureTexts.crisis(t), category: 'crisis' };
  // A low diastolic alone under a normal or high systolic (e.g. 150/45: a wide pulse pressure) is
  // not a shock picture: the diastolic counts only while the systolic is also low.
  const belowSevere =
    systolic < t.low_severe_systolic || (diastolic < t.low_severe_diastolic && systolic < t.low_systolic);
  if (belowSevere && pulse !== undefined && pulse > t.low_severe_pulse)
    return { level: 'critical', label: BloodPressureTexts.lowSevere(t), category: 'low_severe' };
  if (systolic >= t.stage2_systolic || diastolic >= t.stage2_diastolic)
    return { level: 'high', label: BloodPressureTexts.stage2(t), category: 'stage2' };
  if (systolic >= t.stage1_systolic || diastolic >= t.stage1_diastolic)
    return { level: 'elevated', label: BloodPressureTexts.stage1(t), category: 'stage1' };
  if (systolic < t.low_systolic || diastolic < t.low_diastolic)
    return { level: 'low', label: BloodPressureTexts.low(t), category: 'low' };
  return NORMAL;
}

/** Blood pressure: systolic and diastolic (and the cuff's pulse when it sends one). */
export const bloodPressure: MeasurementKind = {
  kind: 'blood_pressure',
  label: 'Blood pressure',
  loinc: '85354-9',
  category: 'vital-signs',
  components: [
    { code: 'systolic', label: 'Systolic', loinc: '8480-6', ucum: 'mm[Hg]', range: { min: 40, max: 300 }, decimals: 0 },
    {
      code: 'diastolic',
      label: 'Diastolic',
      loinc: '8462-4',
      ucum: 'mm[Hg]',
      range: { min: 20, max: 200 },
      decimals: 0,
    },
    {
      code: 'pulse',
      label: 'Pulse',
      loinc: '8867-4',
      ucum: '/min',
      range: { min: 20, max: 300 },
      decimals: 0,
      optional: true,
    },
  ],
  primary: 'systolic',
  unitChoices: [{ ucum: 'mm[Hg]', label: 'mmHg', decimals: 0, toCanonical: (v) => v, fromCanonical: (v) => v }],
  deviceType: 'cuff',
  physiologic: true,
  vendorMetrics: [
    { vendor: 'tenovi', metric: 'blood_pressure', component: 'systolic', component2: 'diastolic', unit: 'mm[Hg]' },
  ],
  guidance: ['accAha2017', 'accAhaCrisis', 'lowBp'],
  classify: (values, context) => classifyBloodPressure(values, contextThresholds(context)),
  bands: (t) => [
    { component: 'systolic', level: 'critical', from: t.crisis_systolic, to: null, label: BloodPressureTexts.crisis(t) },
    { component: 'systolic', level: 'high', from: t.stage2_systolic, to: t.crisis_systolic, label: BloodPressureTexts.stage2(t) },
    { component: 'systolic', level: 'elevated', from: t.stage1_systolic, to: t.stage2_systolic, label: BloodPressureTexts.stage1(t) },
    { component: 'systolic', level: 'low', from: null, to: t.low_systolic, label: BloodPressureTexts.low(t) },
    { component: 'diastolic', level: 'critical', from: t.crisis_diastolic, to: null, label: BloodPressureTexts.crisis(t) },
    { component: 'diastolic', level: 'high', from: t.stage2_diastolic, to: t.crisis_diastolic, label: BloodPressureTexts.stage2(t) },
    { component: 'diastolic', level: 'elevated', from: t.stage1_diastolic, to: t.stage2_diastolic, label: BloodPressureTexts.stage1(t) },
    { component: 'diastolic', level: 'low', from: null, to: t.low_diastolic, label: BloodPressureTexts.low(t) },
  ],
};
