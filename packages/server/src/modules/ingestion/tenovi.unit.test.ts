import {
  IngestionErrors,
  KG_PER_LB,
  UNKNOWN_METRIC_KIND,
  UNKNOWN_METRIC_UNIT,
  bloodPressure,
  glucose,
  heartRate,
  kindsForDeviceType,
  oxygenSaturation,
  weight,
  type MeasurementKind,
} from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { ReadingRejected } from './reading-rules.ts';
import { parseTenovi } from './tenovi.ts';
import { SIMULATED_DEVICE_TYPES, roundRobinType, simulatedDevice, tenoviMeasurement } from './tenovi-simulator.ts';

const now = Date.parse('2026-11-20T12:00:00Z');
const at = '2026-11-20T11:00:00Z';
const metric = (kind: MeasurementKind) => kind.vendorMetrics.find((m) => m.vendor === 'tenovi')!.metric;
const item = (m: string, value_1: unknown, value_2: unknown = null, device = 'DEV-1') => ({
  metric: m,
  hwi_device_id: device,
  value_1,
  value_2,
  timestamp: at,
});

describe('parseTenovi, every kind of the registry', () => {
  it('converts pounds to kilograms, kept to the stored decimals', () => {
    const batch = parseTenovi(item(metric(weight), 180.4), { now });
    expect(batch.readings).toEqual([
      expect.objectContaining({ kind: weight.kind, components: { weight: 81.83 }, unit: 'kg', irregular: null }),
    ]);
    expect(81.83).toBeCloseTo(180.4 * KG_PER_LB, 2);
  });

  it('reads glucose, and SpO2 with the pulse of the same device and time', () => {
    const batch = parseTenovi(
      [item(metric(glucose), '98.5', null, 'G'), item(metric(oxygenSaturation), 97), item(metric(heartRate), 64)],
      { now },
    );
    expect(batch.pulses).toEqual([]);
    expect(batch.readings).toEqual([
      expect.objectContaining({
        deviceIdentifier: 'G',
        kind: glucose.kind,
        components: { glucose: 98.5 },
        unit: 'mg/dL',
      }),
      expect.objectContaining({ kind: oxygenSaturation.kind, components: { spo2: 97, pulse: 64 }, unit: '%' }),
    ]);
  });

  it('keeps blood pressure and a lone pulse as before', () => {
    const batch = parseTenovi([item(metric(bloodPressure), 130, 85), item(metric(heartRate), 70, null, 'OTHER')], {
      now,
    });
    expect(batch.readings).toEqual([
      expect.objectContaining({ kind: bloodPressure.kind, components: { systolic: 130, diastolic: 85 } }),
    ]);
    expect(batch.pulses).toEqual([expect.objectContaining({ deviceIdentifier: 'OTHER', pulse: 70 })]);
  });

  it('refuses a value outside the plausible range, naming the field', () => {
    const refuse = () => parseTenovi([item(metric(weight), 180), item(metric(weight), 1000)], { now });
    expect(refuse).toThrow(ReadingRejected);
    expect(refuse).toThrow(/^\[1\]\.value_1: /);
  });

  it('keeps a metric the registry does not know with its name and values as sent', () => {
    const batch = parseTenovi(item('peak_flow', '410', ''), { now });
    expect(batch.readings).toEqual([
      expect.objectContaining({
        kind: UNKNOWN_METRIC_KIND,
        metric: 'peak_flow',
        components: { value_1: 410 },
        unit: UNKNOWN_METRIC_UNIT,
      }),
    ]);
    expect(() => parseTenovi(item('peak flow', 1), { now })).toThrow(IngestionErrors.metric('metric'));
    expect(() => parseTenovi(item('steps', true), { now })).toThrow(IngestionErrors.notNumber('value_1'));
  });
});

describe('the device simulator', () => {
  it.each(SIMULATED_DEVICE_TYPES)('sends what the webhook reads as the kind a %s measures', (type) => {
    const device = simulatedDevice(`SIM-${type}`, 3, type);
    for (let i = 0; i < 20; i++) {
      const batch = parseTenovi(tenoviMeasurement(device, new Date(now - i * 86_400_000), 30), { now });
      expect(batch.readings).toHaveLength(1);
      expect(batch.pulses).toEqual([]);
      const kinds = kindsForDeviceType(type).map((k) => k.kind);
      expect(kinds).toContain(batch.readings[0]!.kind);
    }
  });

  it("pairs an oximeter's pulse with its SpO2 and gives types in turn", () => {
    const batch = parseTenovi(tenoviMeasurement(simulatedDevice('OXI', 1, 'pulse_oximeter'), new Date(now)), { now });
    expect(Object.keys(batch.readings[0]!.components).sort()).toEqual(['pulse', 'spo2']);
    expect([0, 1, 2, 3, 4].map((i) => roundRobinType(SIMULATED_DEVICE_TYPES, i))).toEqual([
      ...SIMULATED_DEVICE_TYPES,
      SIMULATED_DEVICE_TYPES[0],
    ]);
  });
});
