import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_THRESHOLDS,
  GLUCOSE_ABOVE_TARGET,
  GLUCOSE_MG_DL_PER_MMOL_L,
  GlucoseTexts,
  MeasurementTexts,
  checkComponents,
  effectiveThresholds,
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

describe('glucose: marks at every boundary (ADA Standards of Care 2025, section 6)', () => {
  const d = DEFAULT_THRESHOLDS;
  const level2 = { level: 'critical', label: GlucoseTexts.level2Hypoglycemia(d), category: 'level2' };
  const level1 = { level: 'low', label: GlucoseTexts.level1Hypoglycemia(d), category: 'level1' };
  const normal = { level: 'normal', label: '', category: 'normal' };
  const aboveTarget = { level: 'elevated', label: GlucoseTexts.aboveTarget, category: 'above_target' };
  const high = { level: 'high', label: GlucoseTexts.veryHigh(d), category: 'high' };
  const veryHigh = { level: 'critical', label: GlucoseTexts.critical(d), category: 'very_high' };

  it.each([
    [10, level2],
    [53.9, level2],
    [54, level1],
    [54.1, level1],
    [69.9, level1],
    [70, normal],
    [70.1, normal],
    [179.9, normal],
    [180, normal],
    [180.1, aboveTarget],
    [249.9, aboveTarget],
    [250, aboveTarget],
    [250.1, high],
    [399.9, high],
    [400, high],
    [400.1, veryHigh],
    [800, veryHigh],
  ])('%d mg/dL', (value, expected) => {
    expect(glucose.classify({ glucose: value })).toEqual(expected);
  });

  it('has the ADA numbers, and words them', () => {
    expect([d.glucose_very_low, d.glucose_low, GLUCOSE_ABOVE_TARGET, d.glucose_high, d.glucose_very_high]).toEqual([
      54, 70, 180, 250, 400,
    ]);
    expect(GlucoseTexts.level2Hypoglycemia(d)).toBe('Level 2 hypoglycemia (below 54 mg/dL)');
    expect(GlucoseTexts.level1Hypoglycemia(d)).toBe('Level 1 hypoglycemia (below 70 mg/dL)');
    expect(GlucoseTexts.aboveTarget).toBe('Above target (above 180 mg/dL)');
    expect(GlucoseTexts.veryHigh(d)).toBe('High (above 250 mg/dL)');
    expect(GlucoseTexts.critical(d)).toBe('Very high (above 400 mg/dL)');
  });

  it("follows the patient's own numbers, and says them", () => {
    const own = effectiveThresholds({ glucose_high: 300 }, { glucose_low: 80, glucose_very_high: 350 });
    expect(glucose.classify({ glucose: 79.9 }, { thresholds: own })).toEqual({
      level: 'low',
      label: 'Level 1 hypoglycemia (below 80 mg/dL)',
      category: 'level1',
    });
    expect(glucose.classify({ glucose: 80 }, { thresholds: own }).category).toBe('normal');
    expect(glucose.classify({ glucose: 300 }, { thresholds: own }).category).toBe('above_target');
    expect(glucose.classify({ glucose: 300.1 }, { thresholds: own })).toEqual({
      level: 'high',
      label: 'High (above 300 mg/dL)',
      category: 'high',
    });
    expect(glucose.classify({ glucose: 350 }, { thresholds: own }).category).toBe('high');
    expect(glucose.classify({ glucose: 350.1 }, { thresholds: own }).label).toBe('Very high (above 350 mg/dL)');
  });

  it('marks nothing without a glucose value', () => {
    expect(glucose.classify({})).toEqual(normal);
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
