import { IngestionErrors, ReadingLimits } from '@rpm/contracts';

/** A refused measurement: the message names the field and the rule; nothing of the request is stored. */
export class ReadingRejected extends Error {
  constructor(
    message: string,
    public readonly deviceIdentifier: string | null = null,
  ) {
    super(message);
    this.name = 'ReadingRejected';
  }
}

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** A measurement time: ISO-8601 with a zone (a device's local time would be ambiguous), not in the future. */
export function measuredTime(value: unknown, field: string, device: string | null, now = Date.now()): Date {
  if (value === undefined || value === null || value === '')
    throw new ReadingRejected(IngestionErrors.required(field), device);
  if (typeof value !== 'string' || !ISO_WITH_ZONE.test(value))
    throw new ReadingRejected(IngestionErrors.timestamp(field), device);
  const t = new Date(value);
  if (Number.isNaN(t.getTime())) throw new ReadingRejected(IngestionErrors.timestamp(field), device);
  if (t.getTime() > now + ReadingLimits.futureToleranceMinutes * 60_000)
    throw new ReadingRejected(IngestionErrors.future(field), device);
  return t;
}

/** A whole number within limits; numeric strings are accepted (some vendors send them). */
export function wholeNumber(
  value: unknown,
  field: string,
  device: string | null,
  limits: { min: number; max: number },
  unit: string,
): number {
  if (value === undefined || value === null || value === '')
    throw new ReadingRejected(IngestionErrors.required(field), device);
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new ReadingRejected(IngestionErrors.notNumber(field), device);
  if (!Number.isInteger(n)) throw new ReadingRejected(IngestionErrors.notInteger(field), device);
  if (n < limits.min || n > limits.max)
    throw new ReadingRejected(IngestionErrors.range(field, limits.min, limits.max, unit), device);
  return n;
}

/** Blood pressure checked as a pair: each in range, and systolic above diastolic. */
export function bloodPressure(
  systolic: unknown,
  diastolic: unknown,
  fields: { systolic: string; diastolic: string },
  device: string | null,
): { systolic: number; diastolic: number } {
  const s = wholeNumber(systolic, fields.systolic, device, ReadingLimits.systolic, 'mmHg');
  const d = wholeNumber(diastolic, fields.diastolic, device, ReadingLimits.diastolic, 'mmHg');
  if (s <= d)
    throw new ReadingRejected(IngestionErrors.systolicAboveDiastolic(fields.systolic, fields.diastolic), device);
  return { systolic: s, diastolic: d };
}

export const pulseRate = (value: unknown, field: string, device: string | null): number =>
  wholeNumber(value, field, device, ReadingLimits.pulse, 'beats per minute');

/**
 * The key under which measurements of one reading meet: the vendor's reading identity (device,
 * kind, measured time; device ids compare trimmed, any case), never a sender-chosen index.
 */
export const measurementKey = (device: string, at: Date, kind: 'blood_pressure' | 'heart_rate' = 'blood_pressure'): string =>
  `${device.trim().toLowerCase()}|${kind}|${at.getTime()}`;
