import {
  INGEST_MAX_MEASUREMENTS,
  TENOVI_DEVICE_ID_MAX_LENGTH,
  TENOVI_METRIC_MAX_LENGTH,
  TENOVI_METRIC_PATTERN,
  UNKNOWN_METRIC_KIND,
  UNKNOWN_METRIC_UNIT,
  IngestionErrors,
  MeasurementTexts,
  ReadingLimits,
  TenoviMeasurement,
  checkComponents,
  componentOf,
  kindByVendorMetric,
  roundTo,
  toCanonical,
  type MeasurementKind,
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
const METRIC_NAME = new RegExp(TENOVI_METRIC_PATTERN);
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
  if (typeof metric !== 'string' || metric.length > TENOVI_METRIC_MAX_LENGTH || !METRIC_NAME.test(metric))
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

/** Tenovi's metrics that are not measurements of the registry: the device's battery and the cuff's flag. */
const BATTERY = 'battery_percentage';
const IRREGULAR = 'irregular_heartbeat';
/** Tenovi's pulse comes as its own metric and joins the reading of the same device and time (vendor format). */
const PULSE = 'pulse';
/** Tenovi's blood pressure keeps its whole-number and systolic-above-diastolic rules (and their words). */
const BLOOD_PRESSURE = 'blood_pressure';

/** A reading of one kind being put together from the measurements of one device and time. */
interface KindReading {
  kind: MeasurementKind;
  values: Record<string, number>;
  /** The request field each component came from, for the refusal's words. */
  fields: Record<string, string>;
}

interface Group {
  device: string;
  at: Date;
  index: number;
  readings: Map<string, KindReading>;
  pulse?: { value: number; field: string };
  irregular?: boolean;
}

/** A value as sent: required, a number (a JSON number or a strictly decimal string). */
function sentNumber(value: unknown, field: string, device: string): number {
  if (value === undefined || value === null || value === '')
    throw new ReadingRejected(IngestionErrors.required(field), device);
  const n = vendorNumber(value);
  if (n === undefined) throw new ReadingRejected(IngestionErrors.notNumber(field), device);
  return n;
}

/**
 * A value converted from the vendor's unit to the component's canonical one, kept to the decimals
 * stored (Tenovi's scales send pounds: 180.4 lb is 81.83 kg). The plausible range is checked on
 * the whole reading after (checkComponents).
 */
function canonicalValue(
  kind: MeasurementKind,
  component: string,
  value: number,
  unit: string,
  field: string,
  device: string,
): number {
  const converted = toCanonical(kind, component, value, unit);
  const definition = componentOf(kind, component);
  if (converted === undefined || !definition)
    throw new ReadingRejected(
      IngestionErrors.measurement(field, MeasurementTexts.unknownUnit(unit, component)),
      device,
    );
  return roundTo(converted, definition.decimals);
}

/** The field of the component checkComponents refuses first (it walks the kind's components in order). */
function refusedField(r: KindReading): string | undefined {
  for (const c of r.kind.components) {
    const v = r.values[c.code];
    if (v === undefined) {
      if (!c.optional) return Object.values(r.fields)[0];
      continue;
    }
    if (!Number.isFinite(v) || v < c.range.min || v > c.range.max) return r.fields[c.code];
  }
  return undefined;
}

/**
 * Reads a Tenovi HWI measurement webhook body (one object, or an array with "post as array").
 * Each metric is looked up in the measurement registry: its values are converted from the
 * vendor's unit to the kind's canonical one and checked against the kind's plausible ranges.
 * A pulse (and the irregular-heartbeat flag) of the same device and measured time as a reading
 * whose kind has a pulse (a blood pressure, an SpO2) is part of it, whatever measurement index
 * the sender gave each; alone, it waits for its blood pressure. A metric the registry does not
 * know is kept for the unmatched list under its own name, never refused for being unknown. Any
 * bad measurement refuses the whole request; more than INGEST_MAX_MEASUREMENTS refuses it with
 * 413 before any is read.
 */
export function parseTenovi(body: unknown, options: TenoviOptions = {}): TenoviBatch {
  const now = options.now ?? Date.now();
  const maxAgeDays = options.maxAgeDays ?? ReadingLimits.maxAgeDays;
  if (!Array.isArray(body) && !isObject(body)) throw new ReadingRejected(IngestionErrors.bodyShape);
  const items: unknown[] = Array.isArray(body) ? body : [body];
  if (items.length === 0) throw new ReadingRejected(IngestionErrors.emptyBatch);
  if (items.length > INGEST_MAX_MEASUREMENTS) throw new ReadingRejected(IngestionErrors.tooMany, null, 413);

  const groups = new Map<string, Group>();
  const unknown = new Map<string, IncomingReading>();
  const batteries = new Map<string, TenoviBatch['batteries'][number]>();
  items.forEach((item, i) => {
    const at = (name: string) => (Array.isArray(body) ? `[${i}].${name}` : name);
    checkShape(item, at);
    const device = item.hwi_device_id.trim();
    const time = measuredTime(item.timestamp, at('timestamp'), device, now, maxAgeDays);
    const index = item.filter_params?.measurement_index ?? 0;

    if (item.metric === BATTERY) {
      const level = vendorNumber(item.value_1);
      if (level === undefined || level < 0 || level > 100)
        throw new ReadingRejected(IngestionErrors.battery(at('value_1')), device);
      const key = device.toLowerCase();
      const seen = batteries.get(key);
      if (!seen || seen.at <= time)
        batteries.set(key, { deviceIdentifier: device, level: Math.round(level), at: time });
      return;
    }
    const found = kindByVendorMetric('tenovi', item.metric);
    if (!found && item.metric !== IRREGULAR) {
      // Kept as sent, for a person to look at: the numbers only, never a guess at their meaning.
      const components: Record<string, number> = { value_1: sentNumber(item.value_1, at('value_1'), device) };
      if (item.value_2 !== undefined && item.value_2 !== null && item.value_2 !== '')
        components.value_2 = sentNumber(item.value_2, at('value_2'), device);
      // One unknown reading per device and time (the unmatched list's key): the last one sent wins.
      unknown.set(measurementKey(device, time, UNKNOWN_METRIC_KIND), {
        deviceIdentifier: device,
        measuredAt: time,
        index,
        kind: UNKNOWN_METRIC_KIND,
        metric: item.metric,
        components,
        unit: UNKNOWN_METRIC_UNIT,
        irregular: null,
      });
      return;
    }
    const key = measurementKey(device, time);
    const group: Group = groups.get(key) ?? { device, at: time, index, readings: new Map() };
    groups.set(key, group);
    if (!found) {
      group.irregular = irregularFlag(item.value_1, at('value_1'), device);
      return;
    }
    const { kind, vendorMetric } = found;
    if (item.metric === PULSE) {
      group.pulse = { value: pulseRate(item.value_1, at('value_1'), device), field: at('value_1') };
      return;
    }
    const reading: KindReading = { kind, values: {}, fields: {} };
    if (item.metric === BLOOD_PRESSURE && vendorMetric.component2) {
      const pair = bloodPressure(
        item.value_1,
        item.value_2,
        { systolic: at('value_1'), diastolic: at('value_2') },
        device,
      );
      reading.values[vendorMetric.component] = pair.systolic;
      reading.values[vendorMetric.component2] = pair.diastolic;
    } else {
      const parts: [string, 'value_1' | 'value_2'][] = [[vendorMetric.component, 'value_1']];
      if (vendorMetric.component2) parts.push([vendorMetric.component2, 'value_2']);
      for (const [component, name] of parts) {
        const sent = sentNumber(item[name], at(name), device);
        reading.values[component] = canonicalValue(kind, component, sent, vendorMetric.unit, at(name), device);
      }
    }
    reading.fields[vendorMetric.component] = at('value_1');
    if (vendorMetric.component2) reading.fields[vendorMetric.component2] = at('value_2');
    group.readings.set(kind.kind, reading);
  });

  const readings: IncomingReading[] = [];
  const pulses: IncomingPulse[] = [];
  for (const g of groups.values()) {
    // The pulse and the flag join each reading of this device and time whose kind has a pulse.
    const withPulse = [...g.readings.values()].filter((r) => componentOf(r.kind, PULSE));
    for (const r of withPulse) {
      if (g.pulse) {
        r.values[PULSE] = g.pulse.value;
        r.fields[PULSE] = g.pulse.field;
      }
    }
    for (const r of g.readings.values()) {
      const checked = checkComponents(r.kind, r.values);
      if (!checked.ok) {
        const field = refusedField(r) ?? Object.values(r.fields)[0] ?? 'value_1';
        throw new ReadingRejected(IngestionErrors.measurement(field, checked.message), g.device);
      }
      const primary = componentOf(r.kind, r.kind.primary);
      readings.push({
        deviceIdentifier: g.device,
        measuredAt: g.at,
        index: g.index,
        kind: r.kind.kind,
        components: checked.values,
        unit: primary?.ucum ?? UNKNOWN_METRIC_UNIT,
        irregular: withPulse.includes(r) ? (g.irregular ?? null) : null,
      });
    }
    if (withPulse.length === 0 && (g.pulse || g.irregular !== undefined)) {
      pulses.push({
        deviceIdentifier: g.device,
        measuredAt: g.at,
        index: g.index,
        pulse: g.pulse?.value ?? null,
        irregular: g.irregular ?? null,
      });
    }
  }
  readings.push(...unknown.values());
  return { received: items.length, readings, pulses, batteries: [...batteries.values()] };
}
