import type { MeasurementKind } from './types.ts';

/** mg/dL in 1 mmol/L of glucose (molar mass 180.16 g/mol). */
export const GLUCOSE_MG_DL_PER_MMOL_L = 18.016;

/*
 * ADA Standards of Care in Diabetes 2025, section 6 (Glycemic goals and hypoglycemia), in mg/dL:
 * level 2 hypoglycemia below 54, level 1 below 70; above the target range above 180, very high
 * above 250 (the time-in-range terms of continuous monitoring). Marks compare the canonical value.
 */
export const GLUCOSE_LEVEL_2_HYPOGLYCEMIA = 54;
export const GLUCOSE_LEVEL_1_HYPOGLYCEMIA = 70;
export const GLUCOSE_ABOVE_TARGET = 180;
export const GLUCOSE_VERY_HIGH = 250;

/** The marks' words, in the canonical unit (the web may reword them in the clinic's unit from the numbers above). */
export const GlucoseTexts = {
  level2Hypoglycemia: `Level 2 hypoglycemia (below ${GLUCOSE_LEVEL_2_HYPOGLYCEMIA} mg/dL)`,
  level1Hypoglycemia: `Level 1 hypoglycemia (below ${GLUCOSE_LEVEL_1_HYPOGLYCEMIA} mg/dL)`,
  veryHigh: `Very high (above ${GLUCOSE_VERY_HIGH} mg/dL)`,
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
  guidance: `ADA Standards of Care in Diabetes 2025, section 6: level 2 hypoglycemia below ${GLUCOSE_LEVEL_2_HYPOGLYCEMIA} mg/dL, level 1 below ${GLUCOSE_LEVEL_1_HYPOGLYCEMIA} mg/dL; above target above ${GLUCOSE_ABOVE_TARGET} mg/dL, very high above ${GLUCOSE_VERY_HIGH} mg/dL.`,
  classify(values) {
    const { glucose: value } = values;
    if (value === undefined) return { level: 'normal', label: '' };
    if (value < GLUCOSE_LEVEL_2_HYPOGLYCEMIA) return { level: 'critical', label: GlucoseTexts.level2Hypoglycemia };
    if (value < GLUCOSE_LEVEL_1_HYPOGLYCEMIA) return { level: 'low', label: GlucoseTexts.level1Hypoglycemia };
    // ADA calls above 250 "very high", not an emergency by itself: a high mark, with its own words.
    if (value > GLUCOSE_VERY_HIGH) return { level: 'high', label: GlucoseTexts.veryHigh };
    if (value > GLUCOSE_ABOVE_TARGET) return { level: 'high', label: GlucoseTexts.aboveTarget };
    return { level: 'normal', label: '' };
  },
};
