import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  GLUCOSE_ABOVE_TARGET,
  GLUCOSE_LEVEL_1_HYPOGLYCEMIA,
  GLUCOSE_LEVEL_2_HYPOGLYCEMIA,
  GLUCOSE_MG_DL_PER_MMOL_L,
  GLUCOSE_VERY_HIGH,
  GlucoseTexts,
  MeasurementTexts,
  checkComponents,
  formatValue,
  glucose,
  kindByLoinc,
  kindByVendorMetric,
  toCanonical,
} from '../index.ts';

const MMOL = 'mmol/L';

describe('glucose: plausible range', () => {
  it.each([10, 800, 123.4])('accepts %d mg/dL', (value) => {
    expect(checkComponents(glucose, { glucose: value })).toEqual({ ok: true, values: { glucose: value } });
  });

  it.each([9.9, 800.1])('refuses %d mg/dL, naming the range', (value) => {
    expect(checkComponents(glucose, { glucose: value })).toEqual({
      ok: false,
      message: MeasurementTexts.outsideRange('Glucose', String(value), '10', '800', 'mg/dL'),
    });
  });

  it('stores a tenth of a mg/dL', () => {
    expect(checkComponents(glucose, { glucose: 5.55 * GLUCOSE_MG_DL_PER_MMOL_L })).toEqual({
      ok: true,
      values: { glucose: 100 },
    });
  });
});

describe('glucose: marks (ADA Standards of Care 2025, section 6)', () => {
  const below = (n: number) => Math.round((n - 0.1) * 10) / 10;
  const above = (n: number) => Math.round((n + 0.1) * 10) / 10;
  it.each([
    [below(GLUCOSE_LEVEL_2_HYPOGLYCEMIA), 'critical', GlucoseTexts.level2Hypoglycemia],
    [GLUCOSE_LEVEL_2_HYPOGLYCEMIA, 'low', GlucoseTexts.level1Hypoglycemia],
    [above(GLUCOSE_LEVEL_2_HYPOGLYCEMIA), 'low', GlucoseTexts.level1Hypoglycemia],
    [below(GLUCOSE_LEVEL_1_HYPOGLYCEMIA), 'low', GlucoseTexts.level1Hypoglycemia],
    [GLUCOSE_LEVEL_1_HYPOGLYCEMIA, 'normal', ''],
    [above(GLUCOSE_LEVEL_1_HYPOGLYCEMIA), 'normal', ''],
    [below(GLUCOSE_ABOVE_TARGET), 'normal', ''],
    [GLUCOSE_ABOVE_TARGET, 'normal', ''],
    [above(GLUCOSE_ABOVE_TARGET), 'high', GlucoseTexts.aboveTarget],
    [below(GLUCOSE_VERY_HIGH), 'high', GlucoseTexts.aboveTarget],
    [GLUCOSE_VERY_HIGH, 'high', GlucoseTexts.aboveTarget],
    [above(GLUCOSE_VERY_HIGH), 'high', GlucoseTexts.veryHigh],
  ])('%d mg/dL is %s', (value, level, label) => {
    expect(glucose.classify({ glucose: value })).toEqual({ level, label });
  });

  it('has the ADA numbers', () => {
    expect([
      GLUCOSE_LEVEL_2_HYPOGLYCEMIA,
      GLUCOSE_LEVEL_1_HYPOGLYCEMIA,
      GLUCOSE_ABOVE_TARGET,
      GLUCOSE_VERY_HIGH,
    ]).toEqual([54, 70, 180, 250]);
  });
});

describe('glucose: units', () => {
  it('converts mmol/L with 18.016 mg/dL each (180.16 g/mol)', () => {
    expect(toCanonical(glucose, 'glucose', 1, MMOL)).toBe(18.016);
    expect(formatValue(glucose, 'glucose', 100, MMOL)).toBe('5.6');
    expect(formatValue(glucose, 'glucose', 99.5, 'mg/dL')).toBe('100');
    expect(toCanonical(glucose, 'glucose', 5, 'mmol/mol')).toBeUndefined();
  });

  it.each([
    // 0.6–44.4 mmol/L: inside 10–800 mg/dL.
    [MMOL, 0.6, 44.4, 1],
    ['mg/dL', 10, 800, 0],
  ])('gives back the %s shown after storing them', (ucum, low, high, decimals) => {
    const scale = 10 ** decimals;
    fc.assert(
      fc.property(fc.integer({ min: Math.round(low * scale), max: Math.round(high * scale) }), (n) => {
        const shown = (n / scale).toFixed(decimals);
        const stored = checkComponents(glucose, { glucose: toCanonical(glucose, 'glucose', Number(shown), ucum)! });
        expect(stored.ok && formatValue(glucose, 'glucose', stored.values.glucose!, ucum)).toBe(shown);
      }),
    );
  });
});

describe('glucose: codes and vendors', () => {
  it('is a laboratory observation found by either code', () => {
    expect(glucose.category).toBe('laboratory');
    expect(kindByLoinc('2339-0')).toBe(glucose);
    expect(kindByLoinc('41653-7')).toBe(glucose);
  });

  it("takes Tenovi's glucose in mg/dL from a glucometer", () => {
    expect(kindByVendorMetric('tenovi', 'glucose')?.vendorMetric).toMatchObject({
      component: 'glucose',
      unit: 'mg/dL',
    });
    expect(glucose.deviceType).toBe('glucometer');
  });
});
