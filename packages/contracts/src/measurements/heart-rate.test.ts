import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ALERT_THRESHOLDS,
  DEFAULT_THRESHOLDS,
  HeartRateTexts,
  MeasurementTexts,
  checkComponents,
  effectiveThresholds,
  formatValue,
  heartRate,
  kindByVendorMetric,
  kindsForDeviceType,
} from '../index.ts';

describe('heart rate', () => {
  const d = DEFAULT_THRESHOLDS;
  const low = { level: 'low', label: HeartRateTexts.low(d), category: 'low' };
  const high = { level: 'high', label: HeartRateTexts.high(d), category: 'high' };
  const normal = { level: 'normal', label: '', category: 'normal' };

  it('marks by the thresholds the alerts use (ACC/AHA/HRS 2018)', () => {
    expect(DEFAULT_ALERT_THRESHOLDS).toBe(DEFAULT_THRESHOLDS);
    expect([d.pulse_low, d.pulse_high]).toEqual([50, 120]);
    expect(HeartRateTexts.low(d)).toBe('Below 50/min');
    expect(HeartRateTexts.high(d)).toBe('Above 120/min');
  });

  it.each([20, 300, 72])('accepts %d/min', (pulse) => {
    expect(checkComponents(heartRate, { pulse })).toEqual({ ok: true, values: { pulse } });
  });

  it.each([19.5, 300.5, 0])('refuses %d/min with the plausible range', (pulse) => {
    expect(checkComponents(heartRate, { pulse })).toEqual({
      ok: false,
      message: MeasurementTexts.outsideRange('Pulse', String(pulse), '20', '300', heartRate.unitChoices[0]!.label),
    });
  });

  it('refuses a value that is not a number', () => {
    expect(checkComponents(heartRate, { pulse: Number.NaN })).toEqual({
      ok: false,
      message: MeasurementTexts.notANumber('Pulse'),
    });
  });

  it.each([
    [20, low],
    [49, low],
    [49.9, low],
    [50, normal],
    [51, normal],
    [119, normal],
    [120, normal],
    [120.1, high],
    [121, high],
    [300, high],
  ])('%d/min', (pulse, expected) => {
    expect(heartRate.classify({ pulse })).toEqual(expected);
  });

  it("follows the patient's own numbers, and says them", () => {
    const thresholds = effectiveThresholds({ pulse_high: 110 }, { pulse_low: 40 });
    expect(heartRate.classify({ pulse: 45 }, { thresholds })).toEqual(normal);
    expect(heartRate.classify({ pulse: 39 }, { thresholds })).toEqual({
      level: 'low',
      label: 'Below 40/min',
      category: 'low',
    });
    expect(heartRate.classify({ pulse: 110 }, { thresholds })).toEqual(normal);
    expect(heartRate.classify({ pulse: 111 }, { thresholds })).toEqual({
      level: 'high',
      label: 'Above 110/min',
      category: 'high',
    });
  });

  it('marks nothing without a pulse', () => {
    expect(heartRate.classify({})).toEqual(normal);
  });

  it("is Tenovi's pulse metric, measured by a cuff", () => {
    expect(kindByVendorMetric('tenovi', 'pulse')).toEqual({
      kind: heartRate,
      vendorMetric: heartRate.vendorMetrics[0],
    });
    expect(kindsForDeviceType('cuff')).toContain(heartRate);
  });

  it('shows whole beats', () => {
    expect(formatValue(heartRate, 'pulse', 71.6, '/min')).toBe('72');
  });
});
