import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import {
  GuidelineSources,
  DEVICE_TYPES,
  MEASUREMENT_KINDS,
  MeasurementKindName,
  MeasurementTexts,
  PROGRAMS,
  ProgramName,
  checkComponents,
  formatValue,
  fromCanonical,
  kindByLoinc,
  kindByVendorMetric,
  kindsForDeviceType,
  measurementKind,
  program,
  roundTo,
  toCanonical,
  unitChoiceFor,
} from '../index.ts';

const unique = (values: readonly string[]) => new Set(values).size === values.length;

describe('the registry of measurement kinds', () => {
  it('names every kind once, with a valid name', () => {
    const names = MEASUREMENT_KINDS.map((k) => k.kind);
    expect(unique(names)).toBe(true);
    for (const name of names) expect(Value.Check(MeasurementKindName, name)).toBe(true);
    // The first five, in the panel order; a new kind goes after them (its own test says so).
    expect(names.slice(0, 5)).toEqual(['blood_pressure', 'heart_rate', 'weight', 'glucose', 'spo2']);
  });

  it("gives every kind's codes to that kind only", () => {
    const codes = MEASUREMENT_KINDS.flatMap((k) => [k.loinc, ...(k.alternateLoinc ?? [])]);
    expect(unique(codes)).toBe(true);
    for (const kind of MEASUREMENT_KINDS) {
      for (const code of [kind.loinc, ...(kind.alternateLoinc ?? [])]) expect(kindByLoinc(code)).toBe(kind);
    }
    const metrics = MEASUREMENT_KINDS.flatMap((k) => k.vendorMetrics.map((m) => `${m.vendor}:${m.metric}`));
    expect(unique(metrics)).toBe(true);
  });

  it.each(MEASUREMENT_KINDS.map((k) => [k.kind, k] as const))('%s is complete and consistent', (_, kind) => {
    expect(unique(kind.components.map((c) => c.code))).toBe(true);
    for (const c of kind.components) {
      expect(c.range.min).toBeLessThan(c.range.max);
      expect(Number.isInteger(c.decimals) && c.decimals >= 0).toBe(true);
    }
    const primary = kind.components.find((c) => c.code === kind.primary);
    expect(primary?.optional).toBeFalsy();
    expect(kind.unitChoices.length).toBeGreaterThan(0);
    // The canonical unit is always a choice, and converts as is.
    expect(unitChoiceFor(kind, kind.primary, primary!.ucum)?.toCanonical(42)).toBe(42);
    for (const m of kind.vendorMetrics) {
      expect(kind.components.map((c) => c.code)).toContain(m.component);
      expect(toCanonical(kind, m.component, 1, m.unit)).toBeDefined();
    }
    expect(DEVICE_TYPES).toContain(kind.deviceType);
    // Each kind cites at least one source, and each source has its text.
    expect(kind.guidance.length).toBeGreaterThan(0);
    for (const source of kind.guidance) expect(GuidelineSources[source]).toBeTruthy();
    expect(measurementKind(kind.kind)).toBe(kind);
  });

  it('derives the device types from the kinds, each once, in order', () => {
    expect(DEVICE_TYPES).toEqual([...new Set(MEASUREMENT_KINDS.map((k) => k.deviceType))]);
    expect(DEVICE_TYPES.slice(0, 4)).toEqual(['cuff', 'scale', 'glucometer', 'pulse_oximeter']);
    for (const type of DEVICE_TYPES) {
      expect(kindsForDeviceType(type)).toEqual(MEASUREMENT_KINDS.filter((k) => k.deviceType === type));
    }
    expect(kindsForDeviceType('cuff').map((k) => k.kind)).toEqual(['blood_pressure', 'heart_rate']);
  });

  it('knows nothing of unknown kinds, codes, metrics and devices', () => {
    expect(measurementKind('peak_flow')).toBeUndefined();
    expect(measurementKind('')).toBeUndefined();
    // Peak expiratory flow: a LOINC code no kind has.
    expect(kindByLoinc('19935-6')).toBeUndefined();
    expect(kindByVendorMetric('tenovi', 'battery_percentage')).toBeUndefined();
    expect(kindByVendorMetric('other', 'blood_pressure')).toBeUndefined();
    expect(kindsForDeviceType('spirometer')).toEqual([]);
  });
});

describe('units and values', () => {
  const [bloodPressure, , weight] = MEASUREMENT_KINDS;

  it('applies unit choices to the components in the primary unit only', () => {
    expect(toCanonical(bloodPressure, 'diastolic', 80, 'mm[Hg]')).toBe(80);
    expect(toCanonical(bloodPressure, 'pulse', 70, '/min')).toBe(70);
    expect(toCanonical(bloodPressure, 'pulse', 70, 'mm[Hg]')).toBeUndefined();
    expect(fromCanonical(weight, 'height', 70, 'kg')).toBeUndefined();
    expect(formatValue(weight, 'weight', 70, '[lb_av]')).toBe('154.3');
  });

  it('rounds half away from zero on the decimal digits', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(80.125, 2)).toBe(80.13);
    expect(roundTo(2.5, 0)).toBe(3);
    expect(roundTo(-2.5, 0)).toBe(-3);
  });

  it('refuses unknown and missing components, naming them', () => {
    expect(checkComponents(weight, { weight: 80, height: 180 })).toEqual({
      ok: false,
      message: MeasurementTexts.unknownComponent('height', weight.label),
    });
    expect(checkComponents(weight, {})).toEqual({
      ok: false,
      message: MeasurementTexts.missingComponent('Weight', 'weight'),
    });
  });
});

describe('programs', () => {
  it('show kinds that exist, and have valid unique ids', () => {
    expect(unique(PROGRAMS.map((p) => p.id))).toBe(true);
    for (const p of PROGRAMS) {
      expect(Value.Check(ProgramName, p.id)).toBe(true);
      expect(program(p.id)).toBe(p);
      for (const kind of p.kinds) expect(measurementKind(kind)).toBeDefined();
    }
    expect(program('copd')?.kinds).toEqual(['spo2', 'heart_rate']);
    expect(program('oncology')).toBeUndefined();
    expect(Value.Check(ProgramName, 'Heart failure')).toBe(false);
  });
});
