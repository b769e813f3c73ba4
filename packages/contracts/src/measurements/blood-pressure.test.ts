import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BP_CRITICAL,
  BP_HIGH,
  BloodPressureTexts,
  MeasurementTexts,
  PatientTexts,
  bloodPressure,
  canonicalUnitLabel,
  checkComponents,
  componentOf,
  kindByLoinc,
  kindByVendorMetric,
  readingLevel,
} from '../index.ts';

const mmHg = canonicalUnitLabel(bloodPressure, componentOf(bloodPressure, 'systolic')!);

describe('blood pressure: plausible ranges', () => {
  it.each([
    [{ systolic: 40, diastolic: 20 }],
    [{ systolic: 300, diastolic: 200 }],
    [{ systolic: 120, diastolic: 80, pulse: 20 }],
    [{ systolic: 120, diastolic: 80, pulse: 300 }],
  ])('accepts %o', (values) => {
    expect(checkComponents(bloodPressure, values)).toEqual({ ok: true, values });
  });

  it.each([
    ['Systolic', 'systolic', 39, 40, 300, mmHg],
    ['Systolic', 'systolic', 301, 40, 300, mmHg],
    ['Diastolic', 'diastolic', 19, 20, 200, mmHg],
    ['Diastolic', 'diastolic', 201, 20, 200, mmHg],
    ['Pulse', 'pulse', 19, 20, 300, '/min'],
    ['Pulse', 'pulse', 301, 20, 300, '/min'],
  ])('refuses %s %d, naming it', (label, code, value, min, max, unit) => {
    const result = checkComponents(bloodPressure, { systolic: 120, diastolic: 80, [code]: value });
    const message = MeasurementTexts.outsideRange(label, String(value), String(min), String(max), unit);
    expect(result).toEqual({ ok: false, message });
  });

  it('shows the pressure unit as mmHg and keeps whole numbers', () => {
    expect(mmHg).toBe(bloodPressure.unitChoices[0]!.label);
    expect(checkComponents(bloodPressure, { systolic: 120.4, diastolic: 79.5, pulse: null })).toEqual({
      ok: true,
      values: { systolic: 120, diastolic: 80 },
    });
  });

  it('needs both pressures; the pulse is optional', () => {
    expect(checkComponents(bloodPressure, { systolic: 120 })).toEqual({
      ok: false,
      message: MeasurementTexts.missingComponent('Diastolic', bloodPressure.label.toLowerCase()),
    });
  });
});

describe('blood pressure: marks as the vitals table today', () => {
  it.each([
    [BP_HIGH.systolic - 1, 80, 'normal'],
    [BP_HIGH.systolic, 80, 'normal'],
    [BP_HIGH.systolic + 1, 80, 'high'],
    [120, BP_HIGH.diastolic - 1, 'normal'],
    [120, BP_HIGH.diastolic, 'normal'],
    [120, BP_HIGH.diastolic + 1, 'high'],
    [BP_CRITICAL.systolic - 1, 80, 'high'],
    [BP_CRITICAL.systolic, 80, 'high'],
    [BP_CRITICAL.systolic + 1, 80, 'critical'],
    [120, BP_CRITICAL.diastolic - 1, 'high'],
    [120, BP_CRITICAL.diastolic, 'high'],
    [120, BP_CRITICAL.diastolic + 1, 'critical'],
  ])('%d/%d is %s', (systolic, diastolic, level) => {
    expect(bloodPressure.classify({ systolic, diastolic }).level).toBe(level);
  });

  it('gives readingLevel for every plausible reading, with the legend words', () => {
    fc.assert(
      fc.property(fc.integer({ min: 40, max: 300 }), fc.integer({ min: 20, max: 200 }), (systolic, diastolic) => {
        const { level, label } = bloodPressure.classify({ systolic, diastolic });
        expect(level).toBe(readingLevel(systolic, diastolic));
        expect(label).toBe(level === 'normal' ? '' : BloodPressureTexts[level as 'high' | 'critical']);
      }),
    );
  });

  it("words the marks as today's legend, as a sentence", () => {
    expect(BloodPressureTexts.high.toLowerCase()).toBe(PatientTexts.readingHighRule.toLowerCase());
    expect(BloodPressureTexts.critical.toLowerCase()).toBe(PatientTexts.readingCriticalRule.toLowerCase());
    expect(BloodPressureTexts.high[0]).toBe(BloodPressureTexts.high[0]!.toUpperCase());
  });

  it('does not grade a reading without both pressures', () => {
    expect(bloodPressure.classify({ pulse: 200 })).toEqual({ level: 'normal', label: '' });
  });
});

describe('blood pressure: codes and vendors', () => {
  it("fills systolic and diastolic from Tenovi's blood_pressure", () => {
    const found = kindByVendorMetric('tenovi', 'blood_pressure');
    expect(found?.kind).toBe(bloodPressure);
    expect(found?.vendorMetric).toMatchObject({ component: 'systolic', component2: 'diastolic', unit: 'mm[Hg]' });
  });

  it('is found by its panel code only (the pulse code is the heart rate kind)', () => {
    expect(kindByLoinc(bloodPressure.loinc)).toBe(bloodPressure);
    expect(kindByLoinc(componentOf(bloodPressure, 'pulse')!.loinc)?.kind).toBe('heart_rate');
  });
});
