import { COPD_PROGRAM } from './programs.ts';
import type { MeasurementKind } from './types.ts';

/*
 * BTS guideline for oxygen use in adults in healthcare and emergency settings 2017 (O'Driscoll et
 * al., Thorax 2017;72:ii1): target saturation 94–98 %, or 88–92 % for patients at risk of
 * hypercapnic respiratory failure (here: the COPD program). Below the target's lower bound is low;
 * below 85 % is critical in either group. Above the target is not marked (home readings on air).
 */
export const SPO2_TARGET = { min: 94, max: 98 } as const;
export const SPO2_TARGET_HYPERCAPNIC_RISK = { min: 88, max: 92 } as const;
export const SPO2_CRITICAL_BELOW = 85;

export const OxygenSaturationTexts = {
  belowTarget: `Below ${SPO2_TARGET.min} %`,
  belowTargetHypercapnicRisk: `Below ${SPO2_TARGET_HYPERCAPNIC_RISK.min} %`,
  critical: `Below ${SPO2_CRITICAL_BELOW} %`,
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
  guidance: `BTS guideline for oxygen use in adults 2017 (O'Driscoll et al., Thorax 2017;72:ii1): target ${SPO2_TARGET.min}–${SPO2_TARGET.max} %, or ${SPO2_TARGET_HYPERCAPNIC_RISK.min}–${SPO2_TARGET_HYPERCAPNIC_RISK.max} % at risk of hypercapnic respiratory failure (COPD); below ${SPO2_CRITICAL_BELOW} % is critical.`,
  classify(values, context) {
    const { spo2 } = values;
    if (spo2 === undefined) return { level: 'normal', label: '' };
    if (spo2 < SPO2_CRITICAL_BELOW) return { level: 'critical', label: OxygenSaturationTexts.critical };
    const atRisk = context?.programs?.includes(COPD_PROGRAM) ?? false;
    const target = atRisk ? SPO2_TARGET_HYPERCAPNIC_RISK : SPO2_TARGET;
    if (spo2 < target.min) {
      const label = atRisk ? OxygenSaturationTexts.belowTargetHypercapnicRisk : OxygenSaturationTexts.belowTarget;
      return { level: 'low', label };
    }
    return { level: 'normal', label: '' };
  },
};
