import {
  INGEST_MAX_MEASUREMENTS,
  TENOVI_DEVICE_ID_MAX_LENGTH,
  IngestionErrors,
  ReadingLimits,
  TenoviMeasurement,
} from '@rpm/contracts';
import { Compile } from 'typebox/compile';
import type { IncomingPulse, IncomingReading } from './readings.repository.ts';
import {
  bloodPressure,
  measuredTime,
  measurementKey,
  pulseRate,
  ReadingRejected,
  vendorNumber,
} from './reading-rules.ts';

export interface TenoviBatch {
  received: number;
  readings: IncomingReading[];
  pulses: IncomingPulse[];
  /** The newest level of each device in the call (an older one in the same call never wins). */
  batteries: { deviceIdentifier: string; level: number; at: Date }[];
}

export interface TenoviOptions {
  now?: number;
  /** Measurements older than this are refused (config READING_MAX_AGE_DAYS). */
  maxAgeDays?: number;
}

const measurement = Compile(TenoviMeasurement);
const field = (name: keyof typeof TenoviMeasurement.properties) => Compile(TenoviMeasurement.properties[name]);
const fields = {
  device_name: field('device_name'),
  sensor_code: field('sensor_code'),
  created: field('created'),
  value_1: field('value_1'),
  value_2: field('value_2'),
  filter_params: field('filter_params'),
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Record<string, unknown>, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);

/**
 * Checks one measurement against its schema before any rule reads it, and names the first field
 * that breaks it. The whole-object check is the gate; the walk only finds the words.
 */
function checkShape(item: unknown, at: (f: string) => string): asserts item is TenoviMeasurement {
  if (measurement.Check(item)) return;
  if (!isObject(item)) throw new ReadingRejected(IngestionErrors.bodyShape);
  const rawDevice = own(item, 'hwi_device_id');
  if (typeof rawDevice !== 'string' || !rawDevice.trim())
    throw new ReadingRejected(IngestionErrors.required(at('hwi_device_id')));
  if (rawDevice.length > TENOVI_DEVICE_ID_MAX_LENGTH)
    throw new ReadingRejected(IngestionErrors.tooLong(at('hwi_device_id'), TENOVI_DEVICE_ID_MAX_LENGTH));
  const device = rawDevice.trim();
  const metric = own(item, 'metric');
  if (typeof metric !== 'string' || !(TenoviMeasurement.properties.metric.enum as readonly string[]).includes(metric))
    throw new ReadingRejected(IngestionErrors.metric(at('metric')), device);
  // The timestamp's own rules name what is wrong with it (missing, format, calendar).
  measuredTime(own(item, 'timestamp'), at('timestamp'), device, Number.MAX_SAFE_INTEGER);
  for (const name of ['value_1', 'value_2'] as const) {
    if (!fields[name].Check(own(item, name))) {
      throw new ReadingRejected(
        metric === 'irregular_heartbeat' && name === 'value_1'
          ? IngestionErrors.irregular(at(name))
          : IngestionErrors.notNumber(at(name)),
        device,
      );
    }
  }
  if (!fields.filter_params.Check(own(item, 'filter_params'))) {
    const filter = own(item, 'filter_params');
    throw new ReadingRejected(
      isObject(filter)
        ? IngestionErrors.notInteger(at('filter_params.measurement_index'))
        : IngestionErrors.notObject(at('filter_params')),
      device,
    );
  }
  for (const name of ['device_name', 'sensor_code', 'created'] as const) {
    if (!fields[name].Check(own(item, name))) throw new ReadingRejected(IngestionErrors.notText(at(name)), device);
  }
  throw new ReadingRejected(IngestionErrors.bodyShape, device);
}

/** The irregular-heartbeat flag: 1/true irregular, 0/false not; a missing value means detected. */
function irregularFlag(value: unknown, name: string, device: string): boolean {
  if (value === undefined || value === null || value === true || value === 1 || value === '1') return true;
  if (value === false || value === 0 || value === '0') return false;
  throw new ReadingRejected(IngestionErrors.irregular(name), device);
}

/**
 * Reads a Tenovi HWI measurement webhook body (one object, or an array with "post as array").
 * Blood pressure, pulse and the irregular-heartbeat flag of the same device and measured time
 * are one reading, whatever measurement index the sender gave each. Any bad measurement refuses
 * the whole request; more than INGEST_MAX_MEASUREMENTS refuses it with 413 before any is read.
 */
export function parseTenovi(body: unknown, options: TenoviOptions = {}): TenoviBatch {
  const now = options.now ?? Date.now();
  const maxAgeDays = options.maxAgeDays ?? ReadingLimits.maxAgeDays;
  if (!Array.isArray(body) && !isObject(body)) throw new ReadingRejected(IngestionErrors.bodyShape);
  const items: unknown[] = Array.isArray(body) ? body : [body];
  if (items.length === 0) throw new ReadingRejected(IngestionErrors.emptyBatch);
  if (items.length > INGEST_MAX_MEASUREMENTS) throw new ReadingRejected(IngestionErrors.tooMany, null, 413);

  const groups = new Map<
    string,
    {
      device: string;
      at: Date;
      index: number;
      bp?: { systolic: number; diastolic: number };
      pulse?: number;
      irregular?: boolean;
    }
  >();
  const batteries = new Map<string, TenoviBatch['batteries'][number]>();
  items.forEach((item, i) => {
    const at = (name: string) => (Array.isArray(body) ? `[${i}].${name}` : name);
    checkShape(item, at);
    const device = item.hwi_device_id.trim();
    const time = measuredTime(item.timestamp, at('timestamp'), device, now, maxAgeDays);
    const index = item.filter_params?.measurement_index ?? 0;

    if (item.metric === 'battery_percentage') {
      const level = vendorNumber(item.value_1);
      if (level === undefined || level < 0 || level > 100)
        throw new ReadingRejected(IngestionErrors.battery(at('value_1')), device);
      const key = device.toLowerCase();
      const seen = batteries.get(key);
      if (!seen || seen.at <= time)
        batteries.set(key, { deviceIdentifier: device, level: Math.round(level), at: time });
      return;
    }
    const key = measurementKey(device, time);
    const group = groups.get(key) ?? { device, at: time, index };
    groups.set(key, group);
    if (item.metric === 'blood_pressure') {
      group.bp = bloodPressure(
        item.value_1,
        item.value_2,
        { systolic: at('value_1'), diastolic: at('value_2') },
        device,
      );
    } else if (item.metric === 'pulse') {
      group.pulse = pulseRate(item.value_1, at('value_1'), device);
    } else {
      group.irregular = irregularFlag(item.value_1, at('value_1'), device);
    }
  });

  const readings: IncomingReading[] = [];
  const pulses: IncomingPulse[] = [];
  for (const g of groups.values()) {
    if (g.bp) {
      readings.push({
        deviceIdentifier: g.device,
        measuredAt: g.at,
        index: g.index,
        kind: 'blood_pressure',
        components: g.pulse === undefined ? g.bp : { ...g.bp, pulse: g.pulse },
        unit: 'mm[Hg]',
        irregular: g.irregular ?? null,
      });
    } else {
      pulses.push({
        deviceIdentifier: g.device,
        measuredAt: g.at,
        index: g.index,
        pulse: g.pulse ?? null,
        irregular: g.irregular ?? null,
      });
    }
  }
  return { received: items.length, readings, pulses, batteries: [...batteries.values()] };
}
