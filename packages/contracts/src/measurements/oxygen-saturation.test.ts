import { describe, expect, it } from 'vitest';
import {
  COPD_PROGRAM,
  DEFAULT_THRESHOLDS,
  MeasurementTexts,
  OxygenSaturationTexts,
  checkComponents,
  effectiveThresholds,
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

describe('oxygen saturation: marks at every boundary (BTS 2017, NEWS2)', () => {
  const d = DEFAULT_THRESHOLDS;
  const copdThresholds = effectiveThresholds(null, null, [COPD_PROGRAM]);
  const normal = { level: 'normal', label: '', category: 'normal' };
  const critical = { level: 'critical', label: 'Below 85 %', category: 'critical' };
  const low = (target: number) => ({ level: 'low', label: `Below ${target} %`, category: 'below_target' });

  it('has the BTS numbers, and words them', () => {
    expect([d.spo2_critical, d.spo2_target_copd, d.spo2_target]).toEqual([85, 88, 92]);
    expect(OxygenSaturationTexts.belowTarget(d)).toBe('Below 92 %');
    expect(OxygenSaturationTexts.belowTarget(copdThresholds)).toBe('Below 88 %');
    expect(OxygenSaturationTexts.critical(d)).toBe('Below 85 %');
  });

  it.each([
    [100, normal],
    [92, normal],
    [91.9, low(92)],
    [91, low(92)],
    [88, low(92)],
    [86, low(92)],
    [85, low(92)],
    [84.9, critical],
    [84, critical],
    [50, critical],
  ])('%d %% without COPD', (spo2, expected) => {
    expect(oxygenSaturation.classify({ spo2 }, { programs: ['hypertension'] })).toEqual(expected);
    expect(oxygenSaturation.classify({ spo2 })).toEqual(expected);
    expect(oxygenSaturation.classify({ spo2, pulse: 80 }, { thresholds: d })).toEqual(expected);
  });

  it.each([
    [92, normal],
    [91, normal],
    [89, normal],
    [88, normal],
    [87.9, low(88)],
    [87, low(88)],
    [85, low(88)],
    [84, critical],
  ])('%d %% with COPD', (spo2, expected) => {
    expect(oxygenSaturation.classify({ spo2 }, copd)).toEqual(expected);
    expect(oxygenSaturation.classify({ spo2 }, { thresholds: copdThresholds })).toEqual(expected);
  });

  it("takes a COPD patient's own target over the program's", () => {
    const own = effectiveThresholds(null, { spo2_target: 90 }, [COPD_PROGRAM]);
    expect(oxygenSaturation.classify({ spo2: 90 }, { thresholds: own })).toEqual(normal);
    expect(oxygenSaturation.classify({ spo2: 89 }, { thresholds: own })).toEqual(low(90));
    expect(oxygenSaturation.classify({ spo2: 85 }, { thresholds: own })).toEqual(low(90));
    expect(oxygenSaturation.classify({ spo2: 84 }, { thresholds: own })).toEqual(critical);
  });

  it("takes the organization's critical floor", () => {
    const org = effectiveThresholds({ spo2_critical: 88 }, null);
    expect(oxygenSaturation.classify({ spo2: 88 }, { thresholds: org })).toEqual(low(92));
    expect(oxygenSaturation.classify({ spo2: 87 }, { thresholds: org })).toEqual({
      level: 'critical',
      label: 'Below 88 %',
      category: 'critical',
    });
  });

  it('marks nothing without a saturation', () => {
    expect(oxygenSaturation.classify({ pulse: 150 })).toEqual(normal);
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
