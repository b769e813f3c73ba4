import { PatientTexts } from '../texts/patients.ts';
import { BP_CRITICAL, BP_HIGH, readingLevel } from '../vitals.ts';
import type { MeasurementKind } from './types.ts';

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The marks' words: today's vitals-table legend, as a sentence ("Above 140/90", "Above 180/120"). */
export const BloodPressureTexts = {
  high: sentence(PatientTexts.readingHighRule),
  critical: sentence(PatientTexts.readingCriticalRule),
} as const;

/**
 * Blood pressure: systolic and diastolic (and the cuff's pulse when it sends one).
 * Marks as the vitals table's `readingLevel` (BP_HIGH, BP_CRITICAL), unchanged: high when either
 * number is above 140/90, critical above 180/120 — 2017 ACC/AHA guideline for high blood pressure
 * in adults (Whelton et al., Hypertension 2018;71:e13).
 */
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
  guidance: `2017 ACC/AHA guideline for high blood pressure in adults (Whelton et al., Hypertension 2018;71:e13): high above ${BP_HIGH.systolic}/${BP_HIGH.diastolic}, critical above ${BP_CRITICAL.systolic}/${BP_CRITICAL.diastolic} mmHg.`,
  classify(values) {
    const { systolic, diastolic } = values;
    // A reading without both numbers has no pressure to grade (as the vitals table).
    if (systolic === undefined || diastolic === undefined) return { level: 'normal', label: '' };
    const level = readingLevel(systolic, diastolic);
    if (level === 'normal') return { level, label: '' };
    return { level, label: BloodPressureTexts[level] };
  },
};
