import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEVICE_TYPES,
  FEVER_CELSIUS,
  HYPERPYREXIA_CELSIUS,
  HYPOTHERMIA_CELSIUS,
  MEASUREMENT_KINDS,
  MeasurementTexts,
  TemperatureTexts,
  checkComponents,
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
  it.each([
    [HYPOTHERMIA_CELSIUS - 0.01, 'low', TemperatureTexts.hypothermia],
    [HYPOTHERMIA_CELSIUS, 'normal', ''],
    [FEVER_CELSIUS - 0.01, 'normal', ''],
    [FEVER_CELSIUS, 'high', TemperatureTexts.fever],
    [HYPERPYREXIA_CELSIUS - 0.01, 'high', TemperatureTexts.fever],
    [HYPERPYREXIA_CELSIUS, 'critical', TemperatureTexts.hyperpyrexia],
  ])('%d °C is %s', (c, level, label) => {
    expect(temperature.classify({ temperature: c })).toEqual({ level, label });
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
