import { describe, expect, it } from 'vitest';
import {
  COPD_PROGRAM,
  DEFAULT_THRESHOLDS,
  GuidelineSources,
  ORGANIZATION_ONLY_THRESHOLDS,
  THRESHOLDS,
  THRESHOLD_KEYS,
  canonicalUnitLabel,
  componentOf,
  contextThresholds,
  effectiveThresholds,
  measurementKind,
  thresholdDefinition,
  type ThresholdKey,
} from '../index.ts';

/** Decimal places written in a number (0.9 → 1, 38 → 0). */
const decimalsOf = (n: number) => (Number.isInteger(n) ? 0 : String(n).split('.')[1]!.length);

/**
 * The component a threshold is compared with: blood pressure's by the key's ending, the other
 * kinds' their primary. Weight's thresholds are gains, not weights (undefined: no range to share).
 */
function componentFor(key: ThresholdKey, kindName: string) {
  const kind = measurementKind(kindName)!;
  if (kindName === 'weight') return undefined;
  if (kindName === 'blood_pressure') return componentOf(kind, key.slice(key.lastIndexOf('_') + 1));
  return componentOf(kind, kind.primary);
}

describe('the thresholds: defaults with their sources', () => {
  it('has each key once, in the same order as THRESHOLD_KEYS', () => {
    expect(new Set(THRESHOLD_KEYS).size).toBe(THRESHOLDS.length);
    expect(THRESHOLD_KEYS).toEqual(THRESHOLDS.map((t) => t.key));
    for (const key of THRESHOLD_KEYS) expect(thresholdDefinition(key).key).toBe(key);
  });

  it.each(THRESHOLDS.map((t) => [t.key, t] as const))('%s: cited, in range, decimals consistent', (_, t) => {
    // Every default is cited (the settings page shows the source beside it).
    expect(Object.keys(GuidelineSources)).toContain(t.source);
    expect(GuidelineSources[t.source].trim()).not.toBe('');
    expect(t.min).toBeLessThan(t.max);
    expect(t.default).toBeGreaterThanOrEqual(t.min);
    expect(t.default).toBeLessThanOrEqual(t.max);
    expect(DEFAULT_THRESHOLDS[t.key]).toBe(t.default);
    // The schemas allow `decimals` places: the default and the bounds need no more.
    expect(Number.isInteger(t.decimals) && t.decimals >= 0).toBe(true);
    for (const n of [t.default, t.min, t.max]) expect(decimalsOf(n)).toBeLessThanOrEqual(t.decimals);

    const kind = measurementKind(t.kind);
    expect(kind, `kind ${t.kind}`).toBeDefined();
    const component = componentFor(t.key, t.kind);
    if (t.kind === 'weight') {
      expect(t.unit).toBe(canonicalUnitLabel(kind!, componentOf(kind!, 'weight')!));
      return;
    }
    expect(component, `component of ${t.key}`).toBeDefined();
    // Same unit as the readings compared with it, and no value a reading could never reach.
    expect(t.unit).toBe(canonicalUnitLabel(kind!, component!));
    expect(t.min).toBeGreaterThanOrEqual(component!.range.min);
    expect(t.max).toBeLessThanOrEqual(component!.range.max);
    expect(t.decimals).toBeLessThanOrEqual(component!.decimals);
  });

  it('keeps the defaults in the guideline order', () => {
    const d = DEFAULT_THRESHOLDS;
    expect([d.low_severe_systolic, d.low_systolic, d.stage1_systolic, d.stage2_systolic, d.crisis_systolic]).toEqual([
      80, 90, 130, 135, 180,
    ]);
    expect([
      d.low_severe_diastolic,
      d.low_diastolic,
      d.stage1_diastolic,
      d.stage2_diastolic,
      d.crisis_diastolic,
    ]).toEqual([50, 60, 80, 85, 120]);
    expect([d.pulse_low, d.pulse_high, d.low_severe_pulse]).toEqual([50, 120, 100]);
    expect([d.glucose_very_low, d.glucose_low, d.glucose_high, d.glucose_very_high]).toEqual([54, 70, 250, 400]);
    expect([d.spo2_critical, d.spo2_target_copd, d.spo2_target]).toEqual([85, 88, 92]);
    expect([d.weight_gain_day, d.weight_gain_week, d.fever]).toEqual([0.9, 2.3, 38]);
  });
});

describe('effectiveThresholds: the patient, else the organization, else the default', () => {
  it('is the defaults when nothing is set', () => {
    expect(effectiveThresholds(null, null)).toEqual(DEFAULT_THRESHOLDS);
    expect(effectiveThresholds(undefined, undefined, [])).toEqual(DEFAULT_THRESHOLDS);
    expect(effectiveThresholds({}, {}, ['hypertension'])).toEqual(DEFAULT_THRESHOLDS);
  });

  it('takes the organization over the default and the patient over both', () => {
    const t = effectiveThresholds({ stage2_systolic: 140, pulse_high: 130 }, { stage2_systolic: 145 });
    expect(t.stage2_systolic).toBe(145);
    expect(t.pulse_high).toBe(130);
    expect(t.stage2_diastolic).toBe(DEFAULT_THRESHOLDS.stage2_diastolic);
  });

  it('falls through a null (left to the default) at each level', () => {
    expect(effectiveThresholds({ fever: 37.8 }, { fever: null }).fever).toBe(37.8);
    expect(effectiveThresholds({ fever: null }, { fever: null }).fever).toBe(DEFAULT_THRESHOLDS.fever);
    expect(effectiveThresholds({ fever: null }, { fever: 38.5 }).fever).toBe(38.5);
  });

  it('does not treat 0 as unset', () => {
    // `??`, not `||`: a value is a value (the schemas refuse 0, the precedence must not depend on it).
    expect(effectiveThresholds({ weight_gain_day: 0 }, null).weight_gain_day).toBe(0);
  });

  it('ignores an organization-only threshold given for a patient', () => {
    expect(ORGANIZATION_ONLY_THRESHOLDS).toEqual(['spo2_target_copd']);
    const t = effectiveThresholds({ spo2_target_copd: 89 }, { spo2_target_copd: 80 });
    expect(t.spo2_target_copd).toBe(89);
    expect(effectiveThresholds(null, { spo2_target_copd: 80 }).spo2_target_copd).toBe(
      DEFAULT_THRESHOLDS.spo2_target_copd,
    );
    // And it does not change a COPD patient's target either.
    expect(effectiveThresholds(null, { spo2_target_copd: 80 }, [COPD_PROGRAM]).spo2_target).toBe(88);
  });

  describe('the COPD program (BTS 2017)', () => {
    it('makes the COPD target the oxygen target', () => {
      expect(effectiveThresholds(null, null, [COPD_PROGRAM]).spo2_target).toBe(88);
      expect(effectiveThresholds(null, null, ['hypertension', COPD_PROGRAM]).spo2_target).toBe(88);
      expect(effectiveThresholds(null, null, ['hypertension']).spo2_target).toBe(92);
    });

    it("uses the organization's COPD target, over the organization's general one", () => {
      expect(effectiveThresholds({ spo2_target_copd: 90 }, null, [COPD_PROGRAM]).spo2_target).toBe(90);
      expect(effectiveThresholds({ spo2_target: 94 }, null, [COPD_PROGRAM]).spo2_target).toBe(88);
      expect(effectiveThresholds({ spo2_target: 94 }, null, []).spo2_target).toBe(94);
    });

    it("gives way to the patient's own target", () => {
      expect(effectiveThresholds(null, { spo2_target: 90 }, [COPD_PROGRAM]).spo2_target).toBe(90);
      expect(effectiveThresholds({ spo2_target_copd: 86 }, { spo2_target: 93 }, [COPD_PROGRAM]).spo2_target).toBe(93);
      // A patient's null is "not set": the program applies.
      expect(effectiveThresholds(null, { spo2_target: null }, [COPD_PROGRAM]).spo2_target).toBe(88);
    });

    it('changes nothing else', () => {
      const copd = effectiveThresholds(null, null, [COPD_PROGRAM]);
      expect({ ...copd, spo2_target: DEFAULT_THRESHOLDS.spo2_target }).toEqual(DEFAULT_THRESHOLDS);
    });
  });

  it('does not change the defaults it starts from', () => {
    const before = { ...DEFAULT_THRESHOLDS };
    effectiveThresholds({ fever: 37.5 }, { pulse_low: 40 }, [COPD_PROGRAM]).spo2_critical = 1;
    expect(DEFAULT_THRESHOLDS).toEqual(before);
  });
});

describe('contextThresholds: what a classification compares with', () => {
  it('is the thresholds given, as they are', () => {
    const given = effectiveThresholds(null, { pulse_high: 110 });
    expect(contextThresholds({ thresholds: given })).toBe(given);
    // Given thresholds are already effective: the programs are not applied twice.
    expect(contextThresholds({ thresholds: given, programs: [COPD_PROGRAM] }).spo2_target).toBe(92);
  });

  it('is the defaults with the programs applied otherwise', () => {
    expect(contextThresholds()).toEqual(DEFAULT_THRESHOLDS);
    expect(contextThresholds({})).toEqual(DEFAULT_THRESHOLDS);
    expect(contextThresholds({ programs: [COPD_PROGRAM] }).spo2_target).toBe(88);
  });
});
