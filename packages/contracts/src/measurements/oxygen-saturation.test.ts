import { describe, expect, it } from 'vitest';
import {
  COPD_PROGRAM,
  MeasurementTexts,
  OxygenSaturationTexts,
  SPO2_CRITICAL_BELOW,
  SPO2_TARGET,
  SPO2_TARGET_HYPERCAPNIC_RISK,
  checkComponents,
  kindByLoinc,
  kindByVendorMetric,
  oxygenSaturation,
} from '../index.ts';

const copd = { programs: ['hypertension', COPD_PROGRAM] };

describe('oxygen saturation: plausible range', () => {
  it.each([[{ spo2: 50 }], [{ spo2: 100 }], [{ spo2: 97, pulse: 20 }], [{ spo2: 97, pulse: 300 }]])(
    'accepts %o',
    (values) => {
      expect(checkComponents(oxygenSaturation, values)).toEqual({ ok: true, values });
    },
  );

  it.each([
    ['SpO2', 'spo2', 49, 50, 100, '%'],
    ['SpO2', 'spo2', 101, 50, 100, '%'],
    ['Pulse', 'pulse', 19, 20, 300, '/min'],
    ['Pulse', 'pulse', 301, 20, 300, '/min'],
  ])('refuses %s %d, naming the range', (label, code, value, min, max, unit) => {
    expect(checkComponents(oxygenSaturation, { spo2: 97, [code]: value })).toEqual({
      ok: false,
      message: MeasurementTexts.outsideRange(label, String(value), String(min), String(max), unit),
    });
  });
});

describe('oxygen saturation: marks (BTS 2017)', () => {
  it('has the BTS numbers', () => {
    expect(SPO2_TARGET).toEqual({ min: 94, max: 98 });
    expect(SPO2_TARGET_HYPERCAPNIC_RISK).toEqual({ min: 88, max: 92 });
    expect(SPO2_CRITICAL_BELOW).toBe(85);
  });

  it.each([
    [SPO2_TARGET.min - 1, 'low', OxygenSaturationTexts.belowTarget],
    [SPO2_TARGET.min, 'normal', ''],
    [SPO2_TARGET.min + 1, 'normal', ''],
    [SPO2_TARGET_HYPERCAPNIC_RISK.min, 'low', OxygenSaturationTexts.belowTarget],
    [SPO2_CRITICAL_BELOW - 1, 'critical', OxygenSaturationTexts.critical],
    [SPO2_CRITICAL_BELOW, 'low', OxygenSaturationTexts.belowTarget],
    [SPO2_CRITICAL_BELOW + 1, 'low', OxygenSaturationTexts.belowTarget],
    [100, 'normal', ''],
  ])('%d %% without COPD is %s', (spo2, level, label) => {
    expect(oxygenSaturation.classify({ spo2 }, { programs: ['hypertension'] })).toEqual({ level, label });
    expect(oxygenSaturation.classify({ spo2 })).toEqual({ level, label });
  });

  it.each([
    [SPO2_TARGET_HYPERCAPNIC_RISK.min - 1, 'low', OxygenSaturationTexts.belowTargetHypercapnicRisk],
    [SPO2_TARGET_HYPERCAPNIC_RISK.min, 'normal', ''],
    [SPO2_TARGET_HYPERCAPNIC_RISK.min + 1, 'normal', ''],
    [SPO2_TARGET.min - 1, 'normal', ''],
    [SPO2_CRITICAL_BELOW - 1, 'critical', OxygenSaturationTexts.critical],
    [SPO2_CRITICAL_BELOW, 'low', OxygenSaturationTexts.belowTargetHypercapnicRisk],
    [SPO2_CRITICAL_BELOW + 1, 'low', OxygenSaturationTexts.belowTargetHypercapnicRisk],
  ])('%d %% with COPD is %s', (spo2, level, label) => {
    expect(oxygenSaturation.classify({ spo2 }, copd)).toEqual({ level, label });
  });
});

describe('oxygen saturation: codes and vendors', () => {
  it("takes Tenovi's spO2; the oximeter's pulse is the pulse metric (paired by the ingestion)", () => {
    expect(kindByVendorMetric('tenovi', 'spO2')).toEqual({
      kind: oxygenSaturation,
      vendorMetric: { vendor: 'tenovi', metric: 'spO2', component: 'spo2', unit: '%' },
    });
    expect(kindByVendorMetric('tenovi', 'pulse')?.kind.kind).toBe('heart_rate');
    expect(kindByVendorMetric('tenovi', 'spo2')).toBeUndefined();
  });

  it('is found by either code and measured by a pulse oximeter', () => {
    expect(kindByLoinc('59408-5')).toBe(oxygenSaturation);
    expect(kindByLoinc('2708-6')).toBe(oxygenSaturation);
    expect(oxygenSaturation.deviceType).toBe('pulse_oximeter');
  });
});
