import { contextThresholds, type ThresholdValues } from './thresholds.ts';
import { NORMAL, type MeasurementKind } from './types.ts';

/** The marks' words, from the thresholds that applied (pulse_low, pulse_high in thresholds.ts). */
export const HeartRateTexts = {
  low: (t: ThresholdValues) => `Below ${t.pulse_low}/min`,
  high: (t: ThresholdValues) => `Above ${t.pulse_high}/min`,
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
  guidance: ['bradycardia'],
  classify(values, context) {
    const { pulse } = values;
    if (pulse === undefined) return NORMAL;
    const t = contextThresholds(context);
    if (pulse < t.pulse_low) return { level: 'low', label: HeartRateTexts.low(t), category: 'low' };
    if (pulse > t.pulse_high) return { level: 'high', label: HeartRateTexts.high(t), category: 'high' };
    return NORMAL;
  },
  bands: (t) => [
    { component: 'pulse', level: 'high', from: t.pulse_high, to: null, label: HeartRateTexts.high(t) },
    { component: 'pulse', level: 'low', from: null, to: t.pulse_low, label: HeartRateTexts.low(t) },
  ],
};
