import { IngestionErrors } from '@rpm/contracts';
import type { IncomingPulse, IncomingReading } from './readings.repository.ts';
import {
  bloodPressure,
  measuredTime,
  measurementKey,
  pulseRate,
  ReadingRejected,
  wholeNumber,
} from './reading-rules.ts';

export interface TenoviBatch {
  received: number;
  readings: IncomingReading[];
  pulses: IncomingPulse[];
  batteries: { deviceIdentifier: string; level: number; at: Date }[];
}

const METRICS = new Set(['blood_pressure', 'pulse', 'irregular_heartbeat', 'battery_percentage']);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a Tenovi HWI measurement webhook body (one object, or an array with "post as array").
 * Blood pressure, pulse and the irregular-heartbeat flag with the same device, timestamp and
 * measurement index are one reading. Any bad measurement refuses the whole request.
 */
export function parseTenovi(body: unknown, now = Date.now()): TenoviBatch {
  const items = Array.isArray(body) ? body : [body];
  if (!Array.isArray(body) && !isObject(body)) throw new ReadingRejected(IngestionErrors.bodyShape);
  if (items.length === 0) throw new ReadingRejected(IngestionErrors.emptyBatch);

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
  const batteries: TenoviBatch['batteries'] = [];
  items.forEach((item, i) => {
    const at = (field: string) => (Array.isArray(body) ? `[${i}].${field}` : field);
    if (!isObject(item)) throw new ReadingRejected(IngestionErrors.bodyShape);
    const rawDevice = item.hwi_device_id;
    if (typeof rawDevice !== 'string' || !rawDevice.trim())
      throw new ReadingRejected(IngestionErrors.required(at('hwi_device_id')));
    const device = rawDevice.trim().slice(0, 100);
    if (typeof item.metric !== 'string' || !METRICS.has(item.metric))
      throw new ReadingRejected(IngestionErrors.metric(at('metric')), device);
    const time = measuredTime(item.timestamp, at('timestamp'), device, now);
    const filter = item.filter_params;
    const rawIndex = isObject(filter) ? filter.measurement_index : undefined;
    const index =
      rawIndex === undefined || rawIndex === null
        ? 0
        : wholeNumber(rawIndex, at('filter_params.measurement_index'), device, { min: 0, max: 2_147_483_647 }, '');

    if (item.metric === 'battery_percentage') {
      const level = Number(item.value_1);
      if (item.value_1 === null || item.value_1 === undefined || !Number.isFinite(level) || level < 0 || level > 100) {
        throw new ReadingRejected(IngestionErrors.battery(at('value_1')), device);
      }
      batteries.push({ deviceIdentifier: device, level: Math.round(level), at: time });
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
      // Tenovi sends the flag as value_1 = 1 (irregular) or 0; a missing value means detected.
      group.irregular =
        item.value_1 === undefined || item.value_1 === null
          ? true
          : Number(item.value_1) !== 0 && item.value_1 !== false;
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
        ...g.bp,
        pulse: g.pulse ?? null,
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
  return { received: items.length, readings, pulses, batteries };
}
