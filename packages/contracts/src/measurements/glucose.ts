import { contextThresholds, type ThresholdValues } from './thresholds.ts';
import { NORMAL, type MeasurementKind } from './types.ts';

/** mg/dL in 1 mmol/L of glucose (molar mass 180.16 g/mol). */
export const GLUCOSE_MG_DL_PER_MMOL_L = 18.016;

/*
 * ADA Standards of Care in Diabetes 2025, section 6 (Glycemic goals and hypoglycemia), in mg/dL:
 * level 2 hypoglycemia below 54, level 1 below 70; above the target range above 180 (marked, not
 * alerted), very high above 250 (alerted when twice within 24 hours); above 400 the portal's
 * default for a same-day call. The alert numbers are thresholds an organization may change
 * (thresholds.ts); 180 is the guideline's target bound and fixed.
 */
export const GLUCOSE_ABOVE_TARGET = 180;

/** The marks' words, in the canonical unit, from the thresholds that applied. */
export const GlucoseTexts = {
  level2Hypoglycemia: (t: ThresholdValues) => `Level 2 hypoglycemia (below ${t.glucose_very_low} mg/dL)`,
  level1Hypoglycemia: (t: ThresholdValues) => `Level 1 hypoglycemia (below ${t.glucose_low} mg/dL)`,
  critical: (t: ThresholdValues) => `Very high (above ${t.glucose_very_high} mg/dL)`,
  veryHigh: (t: ThresholdValues) => `High (above ${t.glucose_high} mg/dL)`,
  aboveTarget: `Above target (above ${GLUCOSE_ABOVE_TARGET} mg/dL)`,
} as const;

export const glucose: MeasurementKind = {
  kind: 'glucose',
  label: 'Blood glucose',
  loinc: '2339-0',
  // Glucose in capillary blood by glucometer.
  alternateLoinc: ['41653-7'],
  category: 'laboratory',
  components: [
    { code: 'glucose', label: 'Glucose', loinc: '2339-0', ucum: 'mg/dL', range: { min: 10, max: 800 }, decimals: 1 },
  ],
  primary: 'glucose',
  unitChoices: [
    { ucum: 'mg/dL', label: 'mg/dL', decimals: 0, toCanonical: (v) => v, fromCanonical: (v) => v },
    {
      ucum: 'mmol/L',
      label: 'mmol/L',
      decimals: 1,
      toCanonical: (v) => v * GLUCOSE_MG_DL_PER_MMOL_L,
      fromCanonical: (v) => v / GLUCOSE_MG_DL_PER_MMOL_L,
    },
  ],
  deviceType: 'glucometer',
  physiologic: true,
  vendorMetrics: [{ vendor: 'tenovi', metric: 'glucose', component: 'glucose', unit: 'mg/dL' }],
  guidance: ['adaHypo', 'adaHigh'],
  classify(values, context) {
    const { glucose: value } = values;
    if (value === undefined) return NORMAL;
    const t = contextThresholds(context);
    if (value < t.glucose_very_low) return { level: 'critical', label: GlucoseTexts.level2Hypoglycemia(t), category: 'level2' };
    if (value < t.glucose_low) return { level: 'low', label: GlucoseTexts.level1Hypoglycemia(t), category: 'level1' };
    if (value > t.glucose_very_high) return { level: 'critical', label: GlucoseTexts.critical(t), category: 'very_high' };
    if (value > t.glucose_high) return { level: 'high', label: GlucoseTexts.veryHigh(t), category: 'high' };
    if (value > GLUCOSE_ABOVE_TARGET) return { level: 'elevated', label: GlucoseTexts.aboveTarget, category: 'above_target' };
    return NORMAL;
  },
  bands: (t) => [
    { component: 'glucose', level: 'critical', from: t.glucose_very_high, to: null, label: GlucoseTexts.critical(t) },
    { component: 'glucose', level: 'high', from: t.glucose_high, to: t.glucose_very_high, label: GlucoseTexts.veryHigh(t) },
    { component: 'glucose', level: 'elevated', from: GLUCOSE_ABOVE_TARGET, to: t.glucose_high, label: GlucoseTexts.aboveTarget },
    { component: 'glucose', level: 'low', from: t.glucose_very_low, to: t.glucose_low, label: GlucoseTexts.level1Hypoglycemia(t) },
    { component: 'glucose', level: 'critical', from: null, to: t.glucose_very_low, label: GlucoseTexts.level2Hypoglycemia(t) },
  ],
};
