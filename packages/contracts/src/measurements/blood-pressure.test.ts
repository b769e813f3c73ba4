import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BP_CATEGORIES,
  BloodPressureTexts,
  DEFAULT_THRESHOLDS,
  MeasurementTexts,
  bloodPressure,
  canonicalUnitLabel,
  checkComponents,
  componentOf,
  kindByLoinc,
  classifyBloodPressure,
  effectiveThresholds,
  kindByVendorMetric,
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

const d = DEFAULT_THRESHOLDS;
const stage2 = { level: 'high', label: BloodPressureTexts.stage2(d), category: 'stage2' };
const stage1 = { level: 'elevated', label: BloodPressureTexts.stage1(d), category: 'stage1' };
const crisis = { level: 'critical', label: BloodPressureTexts.crisis(d), category: 'crisis' };
const lowSevere = { level: 'critical', label: BloodPressureTexts.lowSevere(d), category: 'low_severe' };
const low = { level: 'low', label: BloodPressureTexts.low(d), category: 'low' };
const normal = { level: 'normal', label: '', category: 'normal' };

type Expected = typeof normal;
const bp = (systolic: number, diastolic: number, pulse?: number): Record<string, number> =>
  pulse === undefined ? { systolic, diastolic } : { systolic, diastolic, pulse };

describe('blood pressure: marks at every boundary (ACC/AHA 2017, home readings)', () => {
  it.each<[string, Record<string, number>, Expected]>([
    // Stage 1: AT OR ABOVE 130/80 (elevated, not alerted).
    ['129/79', bp(129, 79), normal],
    ['130/79 (systolic at stage 1)', bp(130, 79), stage1],
    ['129/80 (diastolic at stage 1)', bp(129, 80), stage1],
    // Stage 2: AT OR ABOVE 135/85 (home equivalent of office 140/90, table 11).
    ['134/84', bp(134, 84), stage1],
    ['135/84 (systolic at stage 2)', bp(135, 84), stage2],
    ['134/85 (diastolic at stage 2)', bp(134, 85), stage2],
    ['136/70', bp(136, 70), stage2],
    ['120/86', bp(120, 86), stage2],
    // Crisis: ABOVE 180/120, either number.
    ['180/120 (at crisis, not above)', bp(180, 120), stage2],
    ['181/80', bp(181, 80), crisis],
    ['120/121', bp(120, 121), crisis],
    ['80/120 (stage 2 by the diastolic)', bp(80, 120), stage2],
    ['80/121 (crisis by the diastolic)', bp(80, 121), crisis],
    ['300/200', bp(300, 200), crisis],
    // Low: BELOW 90/60, either number.
    ['90/60', bp(90, 60), normal],
    ['89/60', bp(89, 60), low],
    ['90/59', bp(90, 59), low],
    ['40/20 without a pulse', bp(40, 20), low],
    // Severe low: BELOW 80/50 (either) with a pulse ABOVE 100.
    ['79/60 pulse 101', bp(79, 60, 101), lowSevere],
    ['79/60 pulse 100', bp(79, 60, 100), low],
    ['80/60 pulse 101 (systolic at, not below)', bp(80, 60, 101), low],
    ['85/49 pulse 101', bp(85, 49, 101), lowSevere],
    ['85/50 pulse 101', bp(85, 50, 101), low],
    ['85/50 pulse 130', bp(85, 50, 130), low],
    ['79/49 pulse 100', bp(79, 49, 100), low],
    // The diastolic counts only while the systolic is low too: 150/45 is a wide pulse pressure.
    ['90/49 pulse 101 (systolic not low)', bp(90, 49, 101), low],
    ['150/45 pulse 110', bp(150, 45, 110), stage2],
    // A crisis number outranks a low one; a stage number outranks low.
    ['75/125 pulse 130', bp(75, 125, 130), crisis],
    ['132/55', bp(132, 55), stage1],
    ['140/55', bp(140, 55), stage2],
    // The pulse alone marks nothing here (heart rate's classifier does).
    ['120/75 pulse 200', bp(120, 75, 200), normal],
    ['120/75 pulse 30', bp(120, 75, 30), normal],
  ])('%s', (_, values, expected) => {
    expect(bloodPressure.classify(values)).toEqual(expected);
    expect(classifyBloodPressure(values, d)).toEqual(expected);
  });

  it('classifies a window mean (not whole numbers) by the same comparisons', () => {
    expect(bloodPressure.classify(bp(134.9, 84.9)).category).toBe('stage1');
    expect(bloodPressure.classify(bp(135, 70.5)).category).toBe('stage2');
    expect(bloodPressure.classify(bp(180.1, 90)).category).toBe('crisis');
    expect(bloodPressure.classify(bp(89.9, 70)).category).toBe('low');
    expect(bloodPressure.classify(bp(129.9, 79.9)).category).toBe('normal');
  });

  it('names each band most urgent first, and gives every non-normal mark a label', () => {
    expect(BP_CATEGORIES).toEqual(['crisis', 'low_severe', 'stage2', 'stage1', 'low']);
    fc.assert(
      fc.property(
        fc.integer({ min: 40, max: 300 }),
        fc.integer({ min: 20, max: 200 }),
        fc.option(fc.integer({ min: 20, max: 300 }), { nil: undefined }),
        (systolic, diastolic, pulse) => {
          const c = bloodPressure.classify(bp(systolic, diastolic, pulse));
          expect(['normal', ...BP_CATEGORIES]).toContain(c.category);
          expect(c.label === '').toBe(c.category === 'normal');
          expect(c.level === 'normal').toBe(c.category === 'normal');
        },
      ),
    );
  });

  it('does not grade a reading without both pressures', () => {
    expect(bloodPressure.classify({ pulse: 200 })).toEqual(normal);
    expect(bloodPressure.classify({ systolic: 250 })).toEqual(normal);
    expect(bloodPressure.classify({ diastolic: 130 })).toEqual(normal);
  });
});

describe("blood pressure: the patient's own thresholds", () => {
  const own = effectiveThresholds(null, { stage2_systolic: 140 });

  it('moves the class and says the numbers that applied', () => {
    expect(bloodPressure.classify(bp(138, 80), { thresholds: own })).toEqual({
      level: 'elevated',
      label: 'At or above 130/80 (stage 1)',
      category: 'stage1',
    });
    expect(bloodPressure.classify(bp(139, 79), { thresholds: own }).category).toBe('stage1');
    expect(bloodPressure.classify(bp(140, 80), { thresholds: own })).toEqual({
      level: 'high',
      label: 'At or above 140/85 (stage 2)',
      category: 'stage2',
    });
    // The diastolic is still the default's.
    expect(bloodPressure.classify(bp(120, 85), { thresholds: own }).label).toBe('At or above 140/85 (stage 2)');
    // Without them, 138/80 is stage 2 by the default 135.
    expect(bloodPressure.classify(bp(138, 80)).label).toBe('At or above 135/85 (stage 2)');
  });

  it("takes the organization's when the patient has none", () => {
    const org = effectiveThresholds({ crisis_systolic: 170, low_severe_pulse: 110 }, null);
    expect(bloodPressure.classify(bp(171, 80), { thresholds: org })).toEqual({
      level: 'critical',
      label: 'Above 170/120 (crisis)',
      category: 'crisis',
    });
    expect(bloodPressure.classify(bp(170, 80), { thresholds: org }).category).toBe('stage2');
    expect(bloodPressure.classify(bp(79, 60, 110), { thresholds: org }).category).toBe('low');
    expect(bloodPressure.classify(bp(79, 60, 111), { thresholds: org })).toEqual({
      level: 'critical',
      label: 'Below 80/50 with pulse above 110',
      category: 'low_severe',
    });
  });

  it('words the default marks with the guideline numbers', () => {
    expect(BloodPressureTexts.crisis(d)).toBe('Above 180/120 (crisis)');
    expect(BloodPressureTexts.lowSevere(d)).toBe('Below 80/50 with pulse above 100');
    expect(BloodPressureTexts.stage2(d)).toBe('At or above 135/85 (stage 2)');
    expect(BloodPressureTexts.stage1(d)).toBe('At or above 130/80 (stage 1)');
    expect(BloodPressureTexts.low(d)).toBe('Below 90/60');
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
