import { contextThresholds, type ThresholdValues } from './thresholds.ts';
import { NORMAL, type MeasurementKind } from './types.ts';

/*
 * BTS guideline for oxygen use in adults 2017 (O'Driscoll et al., Thorax 2017;72:ii1): target
 * 94–98 %, 88–92 % at risk of hypercapnic respiratory failure (the COPD program). For home
 * readings on air the alert floor is lower than the target's bound: below 92 % (NEWS2, RCP 2017,
 * scores 91 % and below highest), below 88 % in COPD; below 85 % is critical in either group.
 * The floors are thresholds (spo2_target, spo2_target_copd, spo2_critical in thresholds.ts).
 */
export const OxygenSaturationTexts = {
  belowTarget: (t: ThresholdValues) => `Below ${t.spo2_target} %`,
  critical: (t: ThresholdValues) => `Below ${t.spo2_critical} %`,
} as const;

export const oxygenSaturation: MeasurementKind = {
  kind: 'spo2',
  label: 'Oxygen saturation',
  loinc: '59408-5',
  alternateLoinc: ['2708-6'],
  category: 'vital-signs',
  components: [
    { code: 'spo2', label: 'SpO2', loinc: '59408-5', ucum: '%', range: { min: 50, max: 100 }, decimals: 0 },
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
  primary: 'spo2',
  unitChoices: [{ ucum: '%', label: '%', decimals: 0, toCanonical: (v) => v, fromCanonical: (v) => v }],
  deviceType: 'pulse_oximeter',
  physiologic: true,
  // The oximeter also sends a 'pulse' metric: the ingestion pairs it with the spO2 of the same time.
  vendorMetrics: [{ vendor: 'tenovi', metric: 'spO2', component: 'spo2', unit: '%' }],
  guidance: ['bts'],
  /** The target applied is the patient's (88 % in the COPD program unless set otherwise). */
  classify(values, context) {
    const { spo2 } = values;
    if (spo2 === undefined) return NORMAL;
    const t = contextThresholds(context);
    if (spo2 < t.spo2_critical) return { level: 'critical', label: OxygenSaturationTexts.critical(t), category: 'critical' };
    if (spo2 < t.spo2_target) return { level: 'low', label: OxygenSaturationTexts.belowTarget(t), category: 'below_target' };
    return NORMAL;
  },
  bands: (t) => [
    { component: 'spo2', level: 'low', from: t.spo2_critical, to: t.spo2_target, label: OxygenSaturationTexts.belowTarget(t) },
    { component: 'spo2', level: 'critical', from: null, to: t.spo2_critical, label: OxygenSaturationTexts.critical(t) },
  ],
};
