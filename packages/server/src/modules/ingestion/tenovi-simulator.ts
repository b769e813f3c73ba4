import type { TenoviMeasurement } from '@rpm/contracts';

export interface SimulatedDevice {
  id: string;
  /** The cuff's wearer: their usual pressure, so each device tells a consistent story. */
  baseSystolic: number;
  baseDiastolic: number;
  basePulse: number;
  index: number;
  battery: number;
}

const noise = (spread: number) => (Math.random() + Math.random() + Math.random() - 1.5) * spread;

export function simulatedDevice(id: string, seed: number): SimulatedDevice {
  const hypertensive = seed % 3 === 0;
  return {
    id,
    baseSystolic: hypertensive ? 148 + (seed % 12) : 118 + (seed % 10),
    baseDiastolic: hypertensive ? 92 + (seed % 6) : 74 + (seed % 6),
    basePulse: 64 + (seed % 18),
    index: 0,
    battery: 100 - (seed % 40),
  };
}

/**
 * One measurement as a Tenovi HWI cuff's cloud posts it: blood pressure and pulse with the same
 * timestamp and measurement index, now and then the battery level and an irregular heartbeat.
 * `delaySeconds` backdates it, as a cuff that uploads stored readings later does.
 */
export function tenoviMeasurement(d: SimulatedDevice, now: Date, delaySeconds = 0): TenoviMeasurement[] {
  const timestamp = new Date(now.getTime() - delaySeconds * 1000).toISOString();
  d.index += 1;
  const systolic = Math.round(Math.min(230, Math.max(85, d.baseSystolic + noise(14))));
  const diastolic = Math.round(Math.min(systolic - 15, Math.max(50, d.baseDiastolic + noise(9))));
  const common = {
    device_name: 'Tenovi BPM',
    hwi_device_id: d.id,
    sensor_code: 'BP',
    timestamp,
    created: now.toISOString(),
    filter_params: { measurement_index: d.index },
  };
  const out: TenoviMeasurement[] = [
    { ...common, metric: 'blood_pressure', value_1: systolic, value_2: diastolic },
    {
      ...common,
      metric: 'pulse',
      value_1: Math.round(Math.min(140, Math.max(45, d.basePulse + noise(8)))),
      value_2: null,
    },
  ];
  if (Math.random() < 0.03) out.push({ ...common, metric: 'irregular_heartbeat', value_1: 1, value_2: null });
  if (d.index % 10 === 1) {
    d.battery = Math.max(5, d.battery - 1);
    out.push({ ...common, metric: 'battery_percentage', value_1: d.battery, value_2: null });
  }
  return out;
}
