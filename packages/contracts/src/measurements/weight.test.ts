import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_THRESHOLDS,
  KG_PER_LB,
  MeasurementTexts,
  WEIGHT_GAIN_DAY_LB,
  WEIGHT_GAIN_WEEK_LB,
  checkComponents,
  effectiveThresholds,
  formatValue,
  fromCanonical,
  kindByLoinc,
  kindByVendorMetric,
  toCanonical,
  weight,
} from '../index.ts';

const LB = '[lb_av]';

/** A value shown in `ucum` (to its decimals), stored, and shown again. */
function showStoreShow(shown: string, ucum: string): string | undefined {
  const canonical = toCanonical(weight, 'weight', Number(shown), ucum)!;
  const stored = checkComponents(weight, { weight: canonical });
  if (!stored.ok) throw new Error(stored.message);
  return formatValue(weight, 'weight', stored.values.weight!, ucum);
}

describe('weight: plausible range', () => {
  it.each([20, 350, 80.5])('accepts %d kg', (kg) => {
    expect(checkComponents(weight, { weight: kg })).toEqual({ ok: true, values: { weight: kg } });
  });

  it.each([19.99, 350.01, 512])('refuses %d kg, naming the range', (kg) => {
    expect(checkComponents(weight, { weight: kg })).toEqual({
      ok: false,
      message: MeasurementTexts.outsideRange('Weight', String(kg), '20', '350', 'kg'),
    });
  });

  it('stores two decimals of a kilogram', () => {
    expect(checkComponents(weight, { weight: 80.456 })).toEqual({ ok: true, values: { weight: 80.46 } });
    expect(checkComponents(weight, { weight: 80.454 })).toEqual({ ok: true, values: { weight: 80.45 } });
  });
});

describe('weight: units', () => {
  it('converts pounds exactly (1 lb = 0.45359237 kg)', () => {
    expect(KG_PER_LB).toBe(0.45359237);
    expect(toCanonical(weight, 'weight', 1, LB)).toBe(KG_PER_LB);
    expect(toCanonical(weight, 'weight', 180, LB)).toBeCloseTo(81.6466266, 7);
    expect(fromCanonical(weight, 'weight', KG_PER_LB * 2, LB)).toBeCloseTo(2, 12);
    expect(toCanonical(weight, 'weight', 80, 'kg')).toBe(80);
  });

  it('shows a tenth of the chosen unit', () => {
    expect(formatValue(weight, 'weight', 81.65, LB)).toBe('180.0');
    expect(formatValue(weight, 'weight', 81.65, 'kg')).toBe('81.7');
  });

  it('has no conversion for a unit it does not know', () => {
    expect(toCanonical(weight, 'weight', 80, 'g')).toBeUndefined();
    expect(fromCanonical(weight, 'weight', 80, '[st_av]')).toBeUndefined();
    expect(formatValue(weight, 'weight', 80, 'mg/dL')).toBeUndefined();
  });

  it('gives back the pounds shown after storing them', () => {
    // 44.1 to 771.6 lb: inside 20–350 kg.
    fc.assert(
      fc.property(fc.integer({ min: 441, max: 7716 }), (tenths) => {
        const shown = (tenths / 10).toFixed(1);
        expect(showStoreShow(shown, LB)).toBe(shown);
      }),
    );
  });

  it('gives back the kilograms shown after storing them', () => {
    fc.assert(
      fc.property(fc.integer({ min: 200, max: 3500 }), (tenths) => {
        const shown = (tenths / 10).toFixed(1);
        expect(showStoreShow(shown, 'kg')).toBe(shown);
      }),
    );
  });
});

describe('weight: marks, codes and vendors', () => {
  it('marks no single weight (the gain rule needs earlier weights)', () => {
    const normal = { level: 'normal', label: '', category: 'normal' };
    expect(weight.classify({ weight: 20 })).toEqual(normal);
    expect(weight.classify({ weight: 350 })).toEqual(normal);
    // Not even with the patient's own gain thresholds: those are the alert rule's.
    const thresholds = effectiveThresholds(null, { weight_gain_day: 0.1, weight_gain_week: 0.1 });
    expect(weight.classify({ weight: 200 }, { thresholds })).toEqual(normal);
    expect(weight.bands).toBeUndefined();
  });

  it('has the HFSA gains, the defaults being those pounds in kg to a tenth', () => {
    expect([WEIGHT_GAIN_DAY_LB, WEIGHT_GAIN_WEEK_LB]).toEqual([2, 5]);
    expect(DEFAULT_THRESHOLDS.weight_gain_day).toBe(Math.round(WEIGHT_GAIN_DAY_LB * KG_PER_LB * 10) / 10);
    expect(DEFAULT_THRESHOLDS.weight_gain_week).toBe(Math.round(WEIGHT_GAIN_WEEK_LB * KG_PER_LB * 10) / 10);
  });

  it("takes Tenovi's weight in pounds", () => {
    const found = kindByVendorMetric('tenovi', 'weight');
    expect(found?.kind).toBe(weight);
    expect(found?.vendorMetric).toMatchObject({ component: 'weight', unit: LB });
    expect(toCanonical(weight, 'weight', 200, found!.vendorMetric.unit)).toBeCloseTo(90.718474, 6);
  });

  it('is found by its LOINC code and measured by a scale', () => {
    expect(kindByLoinc('29463-7')).toBe(weight);
    expect(weight.deviceType).toBe('scale');
  });
});
