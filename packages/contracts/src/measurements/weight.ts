import { NORMAL, type MeasurementKind } from './types.ts';

/** One international avoirdupois pound, exactly (international yard and pound agreement, 1959). */
export const KG_PER_LB = 0.45359237;

/**
 * HFSA/ACC/AHA 2022 heart-failure guideline (Heidenreich et al., Circulation 2022;145:e895):
 * daily weights; a gain of more than 2 lb (0.9 kg) in a day or 5 lb (2.3 kg) in a week is reported.
 * The gain needs the patient's history, so it is a rule of the alerts, not a mark of one reading.
 */
export const WEIGHT_GAIN_DAY_LB = 2;
export const WEIGHT_GAIN_WEEK_LB = 5;
// The alert thresholds (thresholds.ts: weight_gain_day 0.9 kg, weight_gain_week 2.3 kg) are these in kg.

export const weight: MeasurementKind = {
  kind: 'weight',
  label: 'Weight',
  loinc: '29463-7',
  category: 'vital-signs',
  components: [
    { code: 'weight', label: 'Weight', loinc: '29463-7', ucum: 'kg', range: { min: 20, max: 350 }, decimals: 2 },
  ],
  primary: 'weight',
  unitChoices: [
    { ucum: 'kg', label: 'kg', decimals: 1, toCanonical: (v) => v, fromCanonical: (v) => v },
    {
      ucum: '[lb_av]',
      label: 'lb',
      decimals: 1,
      toCanonical: (v) => v * KG_PER_LB,
      fromCanonical: (v) => v / KG_PER_LB,
    },
  ],
  deviceType: 'scale',
  physiologic: true,
  // Tenovi's scales send pounds.
  vendorMetrics: [{ vendor: 'tenovi', metric: 'weight', component: 'weight', unit: '[lb_av]' }],
  guidance: ['hfsa'],
  /** A single weight has no mark: the gain rule compares it with earlier weights (alerts). */
  classify: () => NORMAL,
};
