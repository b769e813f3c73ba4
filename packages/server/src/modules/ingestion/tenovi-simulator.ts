import {
  DEVICE_TYPES,
  bloodPressure,
  fromCanonical,
  glucose,
  heartRate,
  kindsForDeviceType,
  oxygenSaturation,
  roundTo,
  weight,
  type DeviceType,
  type MeasurementKind,
  type TenoviMeasurement,
} from '@rpm/contracts';

export interface SimulatedDevice {
  id: string;
  /** What it measures: a cuff, a scale, a glucometer or a pulse oximeter. */
  type: DeviceType;
  /** The cuff's wearer: their usual pressure, so each device tells a consistent story. */
  baseSystolic: number;
  baseDiastolic: number;
  basePulse: number;
  /** The scale's wearer's usual weight (kg), the glucometer's usual glucose (mg/dL), the oximeter's SpO2 (%). */
  baseWeight: number;
  baseGlucose: number;
  baseSpo2: number;
  index: number;
  battery: number;
}

/** The device types the simulator sends for: those that measure some kind of the registry and it can fake. */
export const SIMULATED_DEVICE_TYPES: readonly DeviceType[] = DEVICE_TYPES.filter((t) =>
  (['cuff', 'scale', 'glucometer', 'pulse_oximeter'] as const).some((s) => s === t),
);

const noise = (spread: number) => (Math.random() + Math.random() + Math.random() - 1.5) * spread;
const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));

export function simulatedDevice(id: string, seed: number, type: DeviceType = 'cuff'): SimulatedDevice {
  const hypertensive = seed % 3 === 0;
  return {
    id,
    type,
    baseSystolic: hypertensive ? 148 + (seed % 12) : 118 + (seed % 10),
    baseDiastolic: hypertensive ? 92 + (seed % 6) : 74 + (seed % 6),
    basePulse: 64 + (seed % 18),
    baseWeight: 62 + ((seed * 7) % 45),
    baseGlucose: seed % 4 === 0 ? 165 + (seed % 30) : 100 + (seed % 25),
    baseSpo2: seed % 5 === 0 ? 91 : 96 + (seed % 3),
    index: 0,
    battery: 100 - (seed % 40),
  };
}

/** The device type of the i-th simulated device when the types are taken in turn. */
export const roundRobinType = (types: readonly DeviceType[], i: number): DeviceType => types[i % types.length]!;

/** The metric Tenovi names a kind's values with, and the unit it sends them in (the registry's). */
function tenoviMetric(kind: MeasurementKind) {
  const m = kind.vendorMetrics.find((v) => v.vendor === 'tenovi');
  if (!m) throw new Error(`no Tenovi metric for ${kind.kind}`);
  return m;
}

/** A canonical value as Tenovi sends it (a scale sends pounds), to the decimals of the display unit. */
function asSent(kind: MeasurementKind, canonical: number): number {
  const m = tenoviMetric(kind);
  const value = fromCanonical(kind, m.component, canonical, m.unit) ?? canonical;
  const decimals = kind.unitChoices.find((u) => u.ucum === m.unit)?.decimals ?? 0;
  return roundTo(value, decimals);
}

const DEVICE_NAMES: Record<DeviceType, { name: string; sensor: string }> = {
  cuff: { name: 'Tenovi BPM', sensor: 'BP' },
  scale: { name: 'Tenovi Scale', sensor: 'WS' },
  glucometer: { name: 'Tenovi Glucometer', sensor: 'GM' },
  pulse_oximeter: { name: 'Tenovi Pulse Oximeter', sensor: 'PO' },
  thermometer: { name: 'Tenovi Thermometer', sensor: 'TM' },
};

/**
 * One measurement as a Tenovi HWI device's cloud posts it, by the device's type: a cuff's blood
 * pressure and pulse with the same timestamp and measurement index (now and then an irregular
 * heartbeat), a scale's weight in pounds, a glucometer's glucose in mg/dL, an oximeter's SpO2 and
 * pulse with the same timestamp; now and then the battery level. `delaySeconds` backdates it, as a
 * device that uploads stored readings later does. The metric names come from the registry.
 */
export function tenoviMeasurement(d: SimulatedDevice, now: Date, delaySeconds = 0): TenoviMeasurement[] {
  const timestamp = new Date(now.getTime() - delaySeconds * 1000).toISOString();
  d.index += 1;
  const names = DEVICE_NAMES[d.type];
  const common = {
    device_name: names.name,
    hwi_device_id: d.id,
    sensor_code: names.sensor,
    timestamp,
    created: now.toISOString(),
    filter_params: { measurement_index: d.index },
  };
  const pulse = (): TenoviMeasurement => ({
    ...common,
    metric: tenoviMetric(heartRate).metric,
    value_1: Math.round(clamp(d.basePulse + noise(8), 45, 140)),
    value_2: null,
  });
  const out: TenoviMeasurement[] = [];
  switch (d.type) {
    case 'scale':
      // A daily weight: a few hundred grams either way.
      out.push({
        ...common,
        metric: tenoviMetric(weight).metric,
        value_1: asSent(weight, clamp(d.baseWeight + noise(0.6), 30, 250)),
        value_2: null,
      });
      break;
    case 'glucometer':
      out.push({
        ...common,
        metric: tenoviMetric(glucose).metric,
        value_1: asSent(glucose, clamp(d.baseGlucose + noise(30), 45, 450)),
        value_2: null,
      });
      break;
    case 'pulse_oximeter':
      out.push(
        {
          ...common,
          metric: tenoviMetric(oxygenSaturation).metric,
          value_1: asSent(oxygenSaturation, clamp(d.baseSpo2 + noise(2), 80, 100)),
          value_2: null,
        },
        pulse(),
      );
      break;
    default: {
      const systolic = Math.round(clamp(d.baseSystolic + noise(14), 85, 230));
      const diastolic = Math.round(Math.min(systolic - 15, Math.max(50, d.baseDiastolic + noise(9))));
      out.push(
        { ...common, metric: tenoviMetric(bloodPressure).metric, value_1: systolic, value_2: diastolic },
        pulse(),
      );
      if (Math.random() < 0.03) out.push({ ...common, metric: 'irregular_heartbeat', value_1: 1, value_2: null });
    }
  }
  if (d.index % 10 === 1) {
    d.battery = Math.max(5, d.battery - 1);
    out.push({ ...common, metric: 'battery_percentage', value_1: d.battery, value_2: null });
  }
  return out;
}

/** Whether a text names a device type the simulator sends for. */
export const isSimulatedType = (t: string): t is DeviceType =>
  SIMULATED_DEVICE_TYPES.some((s) => s === t) && kindsForDeviceType(t).length > 0;
