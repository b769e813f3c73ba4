import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_THRESHOLDS,
  DEVICE_TYPES,
  HYPERPYREXIA_CELSIUS,
  HYPOTHERMIA_CELSIUS,
  MEASUREMENT_KINDS,
  MeasurementTexts,
  TemperatureTexts,
  checkComponents,
  effectiveThresholds,
  formatValue,
  kindByLoinc,
  kindByVendorMetric,
  temperature,
  toCanonical,
} from '../index.ts';

const F = '[degF]';

/** A value shown in `ucum` (to its decimals), stored, and shown again. */
function showStoreShow(shown: string, ucum: string): string | undefined {
  const canonical = toCanonical(temperature, 'temperature', Number(shown), ucum)!;
  const stored = checkComponents(temperature, { temperature: canonical });
  if (!stored.ok) throw new Error(stored.message);
  return formatValue(temperature, 'temperature', stored.values.temperature!, ucum);
}

describe('body temperature: plausible range', () => {
  it.each([30, 45, 36.8])('accepts %d °C', (c) => {
    expect(checkComponents(temperature, { temperature: c })).toEqual({ ok: true, values: { temperature: c } });
  });

  it.each([29.99, 45.01, 98.6])('refuses %d °C, naming the range', (c) => {
    expect(checkComponents(temperature, { temperature: c })).toEqual({
      ok: false,
      message: MeasurementTexts.outsideRange('Temperature', String(c), '30', '45', '°C'),
    });
  });
});

describe('body temperature: units', () => {
  it('converts Fahrenheit (°F = °C × 9/5 + 32)', () => {
    expect(toCanonical(temperature, 'temperature', 100.4, F)).toBeCloseTo(38, 10);
    expect(toCanonical(temperature, 'temperature', 212, F)).toBeCloseTo(100, 10);
    expect(formatValue(temperature, 'temperature', 37, F)).toBe('98.6');
    expect(formatValue(temperature, 'temperature', 37, 'Cel')).toBe('37.0');
    expect(toCanonical(temperature, 'temperature', 300, 'K')).toBeUndefined();
  });

  it('gives back the tenths of a degree shown, in either unit, after storing them', () => {
    fc.assert(
      fc.property(fc.integer({ min: 300, max: 450 }), (tenths) => {
        const shown = (tenths / 10).toFixed(1);
        expect(showStoreShow(shown, 'Cel')).toBe(shown);
      }),
    );
    // 86.0 °F to 113.0 °F: inside 30–45 °C.
    fc.assert(
      fc.property(fc.integer({ min: 860, max: 1130 }), (tenths) => {
        const shown = (tenths / 10).toFixed(1);
        expect(showStoreShow(shown, F)).toBe(shown);
      }),
    );
  });
});

describe('body temperature: marks at every boundary', () => {
  const d = DEFAULT_THRESHOLDS;
  const normal = { level: 'normal', label: '', category: 'normal' };
  const hypothermia = { level: 'low', label: TemperatureTexts.hypothermia, category: 'hypothermia' };
  const fever = { level: 'high', label: TemperatureTexts.fever(d), category: 'fever' };
  const hyperpyrexia = { level: 'critical', label: TemperatureTexts.hyperpyrexia, category: 'hyperpyrexia' };

  it('has the CDC, hypothermia and hyperpyrexia numbers, and words them in both units', () => {
    expect([HYPOTHERMIA_CELSIUS, d.fever, HYPERPYREXIA_CELSIUS]).toEqual([35, 38, 40]);
    expect(TemperatureTexts.fever(d)).toBe('Fever (38.0 °C / 100.4 °F or above)');
    expect(TemperatureTexts.hyperpyrexia).toBe('Very high (40.0 °C / 104.0 °F or above)');
    expect(TemperatureTexts.hypothermia).toBe('Low (below 35.0 °C / 95.0 °F)');
  });

  it.each([
    [30, hypothermia],
    [34.99, hypothermia],
    [35, normal],
    [35.01, normal],
    [37, normal],
    [37.99, normal],
    [38, fever],
    [38.01, fever],
    [39.99, fever],
    [40, hyperpyrexia],
    [40.01, hyperpyrexia],
    [45, hyperpyrexia],
  ])('%d °C', (c, expected) => {
    expect(temperature.classify({ temperature: c })).toEqual(expected);
  });

  it("follows the patient's own fever threshold, and says it", () => {
    const thresholds = effectiveThresholds({ fever: 38.3 }, { fever: 37.5 });
    expect(temperature.classify({ temperature: 37.49 }, { thresholds })).toEqual(normal);
    expect(temperature.classify({ temperature: 37.5 }, { thresholds })).toEqual({
      level: 'high',
      label: 'Fever (37.5 °C / 99.5 °F or above)',
      category: 'fever',
    });
    // Hyperpyrexia and hypothermia are fixed.
    expect(temperature.classify({ temperature: 40 }, { thresholds }).category).toBe('hyperpyrexia');
    expect(temperature.classify({ temperature: 34.99 }, { thresholds }).category).toBe('hypothermia');
  });

  it('marks nothing without a temperature', () => {
    expect(temperature.classify({})).toEqual(normal);
  });
});

describe('body temperature: registry, codes and vendors', () => {
  it('is registered last, found by LOINC 8310-5, measured by a thermometer', () => {
    expect(MEASUREMENT_KINDS.at(-1)).toBe(temperature);
    expect(kindByLoinc('8310-5')).toBe(temperature);
    expect(DEVICE_TYPES).toContain('thermometer');
  });

  it("takes Tenovi's temperature in Fahrenheit", () => {
    const found = kindByVendorMetric('tenovi', 'temperature');
    expect(found?.kind).toBe(temperature);
    expect(toCanonical(temperature, 'temperature', 98.6, found!.vendorMetric.unit)).toBeCloseTo(37, 10);
  });
});
