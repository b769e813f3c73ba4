import { DEFAULT_ALERT_THRESHOLDS as D } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { brokenRules, effectiveThresholds } from './alert-rules.ts';

const reading = (systolic: number, diastolic: number, pulse: number | null = 70, irregular: boolean | null = null) => ({
  systolic,
  diastolic,
  pulse,
  irregular,
});

describe('alert rules at their boundaries (ACC/AHA defaults)', () => {
  it.each([
    ['systolic 180 is stage 2, 181 a crisis', reading(180, 80), ['bp_high'], reading(181, 80), ['bp_crisis']],
    ['diastolic 120 is stage 2, 121 a crisis', reading(120, 120), ['bp_high'], reading(120, 121), ['bp_crisis']],
    ['systolic 139 is no alert, 140 stage 2', reading(139, 80), [], reading(140, 80), ['bp_high']],
    ['diastolic 89 is no alert, 90 stage 2', reading(120, 89), [], reading(120, 90), ['bp_high']],
    ['pulse 49 is low, 50 is not', reading(120, 80, 49), ['pulse_low'], reading(120, 80, 50), []],
    ['pulse 120 is not high, 121 is', reading(120, 80, 120), [], reading(120, 80, 121), ['pulse_high']],
    ['systolic 89 is low, 90 is not', reading(89, 70), ['bp_low'], reading(90, 70), []],
    ['diastolic 59 is low, 60 is not', reading(110, 59), ['bp_low'], reading(110, 60), []],
  ])('%s', (_name, below, belowRules, above, aboveRules) => {
    expect(brokenRules(below, D)).toEqual(belowRules);
    expect(brokenRules(above, D)).toEqual(aboveRules);
  });

  it('flags an irregular heartbeat as info, and no pulse as no pulse alert', () => {
    expect(brokenRules(reading(120, 80, null, true), D)).toEqual(['irregular_heartbeat']);
    expect(brokenRules(reading(120, 80, null, false), D)).toEqual([]);
  });

  it('takes the patient’s value over the organization’s over the default, per threshold', () => {
    const t = effectiveThresholds({ high_systolic: 150, pulse_low: 45 }, { high_systolic: 130, pulse_low: null });
    expect(t.high_systolic).toBe(130);
    expect(t.pulse_low).toBe(45);
    expect(t.crisis_systolic).toBe(180);
    expect(brokenRules(reading(135, 70), t)).toEqual(['bp_high']);
    expect(brokenRules(reading(135, 70), D)).toEqual([]);
  });
});

describe('a heart rate measured alone', () => {
  it('is checked by the pulse rules only: no pressure is not a low pressure', () => {
    const heartRate = (pulse: number) => ({ systolic: null, diastolic: null, pulse, irregular: null });
    expect(brokenRules(heartRate(D.pulse_high + 1), D)).toEqual(['pulse_high']);
    expect(brokenRules(heartRate(D.pulse_low - 1), D)).toEqual(['pulse_low']);
    expect(brokenRules(heartRate(70), D)).toEqual([]);
  });
});
