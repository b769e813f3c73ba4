import { DECIMAL_STRING_PATTERN, IngestionErrors, ReadingLimits, ZONED_DATE_TIME_PATTERN } from '@rpm/contracts';

/**
 * A refused measurement: the message names the field and the rule; nothing of the request is
 * stored. `status` is the answer's (413 for a body over the measurement limit).
 */
export class ReadingRejected extends Error {
  constructor(
    message: string,
    public readonly deviceIdentifier: string | null = null,
    public readonly status: 400 | 409 | 413 = 400,
  ) {
    super(message);
    this.name = 'ReadingRejected';
  }
}

const ZONED = new RegExp(ZONED_DATE_TIME_PATTERN);
const DECIMAL = new RegExp(DECIMAL_STRING_PATTERN);
const DATE_PARTS =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:[Zz]|([+-])(\d{2}):?(\d{2}))$/;

/**
 * The instant of an ISO-8601 date-time with a zone, computed from its parts: `Date` would roll
 * 31 September over to 1 October and accept hour 24. Undefined when the date does not exist.
 */
export function zonedInstant(text: string): number | undefined {
  const m = DATE_PARTS.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  const offsetMinutes = m[8] ? (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10])) : 0;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  // Real zones lie within -12:00 and +14:00.
  if (m[8] && (Number(m[10]) > 59 || offsetMinutes < -12 * 60 || offsetMinutes > 14 * 60)) return undefined;
  // setUTCFullYear, unlike Date.UTC, keeps years 0-99 as they are (then refused as too early).
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, second, ms);
  if (local.getUTCFullYear() !== year || local.getUTCMonth() !== month - 1 || local.getUTCDate() !== day)
    return undefined;
  return local.getTime() - offsetMinutes * 60_000;
}

/**
 * A measurement time: ISO-8601 with a zone (a device's local time would be ambiguous), a real
 * calendar date, not before ReadingLimits.earliestYear, not in the future and, when `maxAgeDays`
 * is given (device clouds), not older than that.
 */
export function measuredTime(
  value: unknown,
  field: string,
  device: string | null,
  now = Date.now(),
  maxAgeDays?: number,
): Date {
  if (value === undefined || value === null || value === '')
    throw new ReadingRejected(IngestionErrors.required(field), device);
  if (typeof value !== 'string' || value.length > 40 || !ZONED.test(value))
    throw new ReadingRejected(IngestionErrors.timestamp(field), device);
  const t = zonedInstant(value);
  if (t === undefined) throw new ReadingRejected(IngestionErrors.calendar(field), device);
  if (t < Date.UTC(ReadingLimits.earliestYear, 0, 1))
    throw new ReadingRejected(IngestionErrors.beforeEarliest(field), device);
  if (t > now + ReadingLimits.futureToleranceMinutes * 60_000)
    throw new ReadingRejected(IngestionErrors.future(field), device);
  if (maxAgeDays !== undefined && t < now - maxAgeDays * 86_400_000)
    throw new ReadingRejected(IngestionErrors.tooOld(field, maxAgeDays), device);
  return new Date(t);
}

/**
 * A number as sent: a JSON number, or a strictly decimal string (some vendors send numbers as
 * text). `Number()` alone would read "0x80" as 128 and " 1.2e2 " as 120.
 */
export function vendorNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.length <= 32 && DECIMAL.test(value)) return Number(value);
  return undefined;
}

/** A whole number within limits; strictly decimal strings are accepted (some vendors send them). */
export function wholeNumber(
  value: unknown,
  field: string,
  device: string | null,
  limits: { min: number; max: number },
  unit: string,
): number {
  if (value === undefined || value === null || value === '')
    throw new ReadingRejected(IngestionErrors.required(field), device);
  const n = vendorNumber(value);
  if (n === undefined) throw new ReadingRejected(IngestionErrors.notNumber(field), device);
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
export const measurementKey = (
  device: string,
  at: Date,
  kind = 'blood_pressure',
): string => `${device.trim().toLowerCase()}|${kind}|${at.getTime()}`;
