import { DEFAULT_ALERT_THRESHOLDS } from '../alerts.ts';
import type { MeasurementKind } from './types.ts';

/**
 * The marks follow the alert defaults (pulse_low, pulse_high): low below 50/min — ACC/AHA/HRS 2018
 * bradycardia guideline (Kusumoto et al., Circulation 2019;140:e382), which takes a rate below
 * 50/min as bradycardia — and high above 120/min, the portal's alert default.
 */
export const HEART_RATE_LOW = DEFAULT_ALERT_THRESHOLDS.pulse_low;
export const HEART_RATE_HIGH = DEFAULT_ALERT_THRESHOLDS.pulse_high;

export const HeartRateTexts = {
  low: `Below ${HEART_RATE_LOW}/min`,
  high: `Above ${HEART_RATE_HIGH}/min`,
} as const;

/** Heart rate measured alone (a cuff's pulse without a pressure, Tenovi's 'pulse' metric). */
export const heartRate: MeasurementKind = {
  kind: 'heart_rate',
  label: 'Heart rate',
  loinc: '8867-4',
  category: 'vital-signs',
  components: [
    { code: 'pulse', label: 'Pulse', loinc: '8867-4', ucum: '/min', range: { min: 20, max: 300 }, decimals: 0 },
  ],
  primary: 'pulse',
  unitChoices: [{ ucum: '/min', label: '/min', decimals: 0, toCanonical: (v) => v, fromCanonical: (v) => v }],
  deviceType: 'cuff',
  physiologic: true,
  vendorMetrics: [{ vendor: 'tenovi', metric: 'pulse', component: 'pulse', unit: '/min' }],
  guidance: `ACC/AHA/HRS 2018 bradycardia guideline (rate below ${HEART_RATE_LOW}/min); high above ${HEART_RATE_HIGH}/min, the alert default.`,
  classify(values) {
    const { pulse } = values;
    if (pulse === undefined) return { level: 'normal', label: '' };
    if (pulse < HEART_RATE_LOW) return { level: 'low', label: HeartRateTexts.low };
    if (pulse > HEART_RATE_HIGH) return { level: 'high', label: HeartRateTexts.high };
    return { level: 'normal', label: '' };
  },
};
