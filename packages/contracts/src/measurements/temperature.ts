import { contextThresholds, type ThresholdValues } from './thresholds.ts';
import { NORMAL, type MeasurementKind } from './types.ts';

/**
 * Fever: a measured temperature of 100.4 °F (38.0 °C) or greater (CDC, definitions of symptoms
 * for reportable illnesses); hypothermia: a core temperature below 35 °C (Brown et al., Accidental
 * hypothermia, N Engl J Med 2012;367:1930); 40 °C and above is treated as critical (hyperpyrexia).
 */
export const HYPERPYREXIA_CELSIUS = 40;
export const HYPOTHERMIA_CELSIUS = 35;

export const TemperatureTexts = {
  fever: (t: ThresholdValues) => `Fever (${t.fever.toFixed(1)} °C / ${((t.fever * 9) / 5 + 32).toFixed(1)} °F or above)`,
  hyperpyrexia: 'Very high (40.0 °C / 104.0 °F or above)',
  hypothermia: 'Low (below 35.0 °C / 95.0 °F)',
} as const;

export const temperature: MeasurementKind = {
  kind: 'temperature',
  label: 'Body temperature',
  loinc: '8310-5',
  category: 'vital-signs',
  components: [
    {
      code: 'temperature',
      label: 'Temperature',
      loinc: '8310-5',
      ucum: 'Cel',
      range: { min: 30, max: 45 },
      decimals: 2,
    },
  ],
  primary: 'temperature',
  unitChoices: [
    { ucum: 'Cel', label: '°C', decimals: 1, toCanonical: (v) => v, fromCanonical: (v) => v },
    {
      ucum: '[degF]',
      label: '°F',
      decimals: 1,
      toCanonical: (v) => ((v - 32) * 5) / 9,
      fromCanonical: (v) => (v * 9) / 5 + 32,
    },
  ],
  deviceType: 'thermometer',
  physiologic: true,
  // Tenovi's thermometers send Fahrenheit.
  vendorMetrics: [{ vendor: 'tenovi', metric: 'temperature', component: 'temperature', unit: '[degF]' }],
  guidance: ['fever', 'hypothermia'],
  classify: (values, context) => {
    const v = values.temperature;
    if (v === undefined) return NORMAL;
    const t = contextThresholds(context);
    if (v >= HYPERPYREXIA_CELSIUS) return { level: 'critical', label: TemperatureTexts.hyperpyrexia, category: 'hyperpyrexia' };
    if (v >= t.fever) return { level: 'high', label: TemperatureTexts.fever(t), category: 'fever' };
    if (v < HYPOTHERMIA_CELSIUS) return { level: 'low', label: TemperatureTexts.hypothermia, category: 'hypothermia' };
    return NORMAL;
  },
  bands: (t) => [
    { component: 'temperature', level: 'critical', from: HYPERPYREXIA_CELSIUS, to: null, label: TemperatureTexts.hyperpyrexia },
    { component: 'temperature', level: 'high', from: t.fever, to: HYPERPYREXIA_CELSIUS, label: TemperatureTexts.fever(t) },
    { component: 'temperature', level: 'low', from: null, to: HYPOTHERMIA_CELSIUS, label: TemperatureTexts.hypothermia },
  ],
};
