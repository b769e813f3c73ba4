import type { MeasurementKind } from './types.ts';

/**
 * Fever: a measured temperature of 100.4 °F (38.0 °C) or greater (CDC, definitions of symptoms
 * for reportable illnesses); hypothermia: a core temperature below 35 °C (Brown et al., Accidental
 * hypothermia, N Engl J Med 2012;367:1930); 40 °C and above is treated as critical (hyperpyrexia).
 */
export const FEVER_CELSIUS = 38;
export const HYPERPYREXIA_CELSIUS = 40;
export const HYPOTHERMIA_CELSIUS = 35;

export const TemperatureTexts = {
  fever: 'Fever (38.0 °C / 100.4 °F or above)',
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
  guidance: `CDC: fever is ${FEVER_CELSIUS}.0 °C (100.4 °F) or above; hypothermia below ${HYPOTHERMIA_CELSIUS} °C (Brown et al., N Engl J Med 2012); ${HYPERPYREXIA_CELSIUS} °C and above is critical.`,
  classify: (values) => {
    const t = values.temperature;
    if (t === undefined) return { level: 'normal', label: '' };
    if (t >= HYPERPYREXIA_CELSIUS) return { level: 'critical', label: TemperatureTexts.hyperpyrexia };
    if (t >= FEVER_CELSIUS) return { level: 'high', label: TemperatureTexts.fever };
    if (t < HYPOTHERMIA_CELSIUS) return { level: 'low', label: TemperatureTexts.hypothermia };
    return { level: 'normal', label: '' };
  },
};
