import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ALERT_THRESHOLDS,
  HEART_RATE_HIGH,
  HEART_RATE_LOW,
  HeartRateTexts,
  MeasurementTexts,
  checkComponents,
  formatValue,
  heartRate,
  kindByVendorMetric,
  kindsForDeviceType,
} from '../index.ts';

describe('heart rate', () => {
  it('uses the alert defaults for its marks', () => {
    expect(HEART_RATE_LOW).toBe(DEFAULT_ALERT_THRESHOLDS.pulse_low);
    expect(HEART_RATE_HIGH).toBe(DEFAULT_ALERT_THRESHOLDS.pulse_high);
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
    [HEART_RATE_LOW - 1, 'low', HeartRateTexts.low],
    [HEART_RATE_LOW, 'normal', ''],
    [HEART_RATE_LOW + 1, 'normal', ''],
    [HEART_RATE_HIGH - 1, 'normal', ''],
    [HEART_RATE_HIGH, 'normal', ''],
    [HEART_RATE_HIGH + 1, 'high', HeartRateTexts.high],
  ])('%d/min is %s', (pulse, level, label) => {
    expect(heartRate.classify({ pulse })).toEqual({ level, label });
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
