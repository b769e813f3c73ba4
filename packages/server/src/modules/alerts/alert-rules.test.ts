import { DEFAULT_THRESHOLDS, effectiveThresholds } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import {
  bpCategory,
  bpReadingRules,
  bpWindowRules,
  gainMet,
  glucoseCategory,
  glucoseReadingRules,
  isFever,
  pulseCategory,
  pulseWindowRules,
  spo2BelowTarget,
  spo2Category,
  spo2Critical,
  temperatureCategory,
  weightGain,
} from './alert-rules.ts';

const o = { thresholds: DEFAULT_THRESHOLDS, programs: [] as string[] };
const copd = { thresholds: effectiveThresholds(null, null, ['copd']), programs: ['copd'] };

describe('alert rules on the classifiers\' categories, at the guideline boundaries', () => {
  it('180/120 is not a crisis, 181 systolic or 121 diastolic is', () => {
    expect(bpReadingRules(bpCategory({ systolic: 180, diastolic: 120 }, o)).bp_crisis).toBe(false);
    expect(bpReadingRules(bpCategory({ systolic: 181, diastolic: 80 }, o)).bp_crisis).toBe(true);
    expect(bpReadingRules(bpCategory({ systolic: 120, diastolic: 121 }, o)).bp_crisis).toBe(true);
  });

  it('severe low needs a pulse above 100', () => {
    expect(bpReadingRules(bpCategory({ systolic: 79, diastolic: 55, pulse: 101 }, o)).bp_low_severe).toBe(true);
    expect(bpReadingRules(bpCategory({ systolic: 79, diastolic: 55, pulse: 100 }, o)).bp_low_severe).toBe(false);
  });

  it('a mean of 135/85 is stage 2, 134/84 is not; a crisis-level mean is stage 2 too; below 90/60 is low', () => {
    expect(bpWindowRules(bpCategory({ systolic: 135, diastolic: 70 }, o)).bp_stage2).toBe(true);
    expect(bpWindowRules(bpCategory({ systolic: 120, diastolic: 85 }, o)).bp_stage2).toBe(true);
    expect(bpWindowRules(bpCategory({ systolic: 134, diastolic: 84 }, o)).bp_stage2).toBe(false);
    expect(bpWindowRules(bpCategory({ systolic: 134.9, diastolic: 84.9 }, o)).bp_stage2).toBe(false);
    expect(bpWindowRules(bpCategory({ systolic: 190, diastolic: 100 }, o)).bp_stage2).toBe(true);
    expect(bpWindowRules(bpCategory({ systolic: 89, diastolic: 70 }, o)).bp_low).toBe(true);
    expect(bpWindowRules(bpCategory({ systolic: 90, diastolic: 60 }, o)).bp_low).toBe(false);
  });

  it('pulse means below 50 and above 120', () => {
    expect(pulseWindowRules(pulseCategory(49.9, o))).toEqual({ pulse_low: true, pulse_high: false });
    expect(pulseWindowRules(pulseCategory(50, o))).toEqual({ pulse_low: false, pulse_high: false });
    expect(pulseWindowRules(pulseCategory(120, o))).toEqual({ pulse_low: false, pulse_high: false });
    expect(pulseWindowRules(pulseCategory(120.1, o))).toEqual({ pulse_low: false, pulse_high: true });
  });

  it('glucose 70 is fine, 69.9 level 1, 54 level 1, 53.9 level 2, 400 not very high, 400.1 very high', () => {
    const rules = (v: number) => glucoseReadingRules(glucoseCategory(v, o));
    expect(rules(70)).toEqual({ glucose_very_low: false, glucose_low: false, glucose_very_high: false });
    expect(rules(69.9).glucose_low).toBe(true);
    expect(rules(54).glucose_low).toBe(true);
    expect(rules(53.9)).toEqual({ glucose_very_low: true, glucose_low: false, glucose_very_high: false });
    expect(rules(400).glucose_very_high).toBe(false);
    expect(glucoseCategory(400, o)).toBe('high');
    expect(glucoseCategory(250, o)).not.toBe('high');
    expect(glucoseCategory(250.1, o)).toBe('high');
    expect(rules(400.1).glucose_very_high).toBe(true);
  });

  it('SpO2 92 is at target, 91 below, 84 critical; 88 is the COPD target', () => {
    expect(spo2BelowTarget(spo2Category(92, o))).toBe(false);
    expect(spo2BelowTarget(spo2Category(91, o))).toBe(true);
    expect(spo2Critical(spo2Category(85, o))).toBe(false);
    expect(spo2Critical(spo2Category(84, o))).toBe(true);
    expect(spo2BelowTarget(spo2Category(91, copd))).toBe(false);
    expect(spo2BelowTarget(spo2Category(88, copd))).toBe(false);
    expect(spo2BelowTarget(spo2Category(87, copd))).toBe(true);
  });

  it('fever at 38.0, not 37.9', () => {
    expect(isFever(temperatureCategory(37.9, o))).toBe(false);
    expect(isFever(temperatureCategory(38, o))).toBe(true);
    expect(isFever(temperatureCategory(41.5, o))).toBe(true);
  });

  it('a weight gain of exactly 0.9 kg is not more than 0.9, 0.91 is (no float residue)', () => {
    expect(weightGain(80.9, 80)).toBe(0.9);
    expect(gainMet(weightGain(80.9, 80), 0.9)).toBe(false);
    expect(gainMet(weightGain(80.91, 80), 0.9)).toBe(true);
    expect(gainMet(weightGain(72.3, 70), 2.3)).toBe(false);
    expect(gainMet(weightGain(72.31, 70), 2.3)).toBe(true);
  });

  it('a patient threshold beats the organization', () => {
    const t = effectiveThresholds({ stage2_systolic: 150 }, { stage2_systolic: 125 });
    expect(bpWindowRules(bpCategory({ systolic: 126, diastolic: 70 }, { thresholds: t, programs: [] })).bp_stage2).toBe(true);
  });
});
