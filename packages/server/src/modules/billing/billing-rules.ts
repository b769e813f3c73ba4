import {
  BILLING_CODE_ORDER,
  BILLING_PERIOD_DAYS,
  BillingCodes,
  BillingTexts,
  DEVICE_DAYS_FULL,
  DEVICE_DAYS_SHORT,
  MANAGEMENT_MINUTES_EXTRA,
  MANAGEMENT_MINUTES_FULL,
  MANAGEMENT_MINUTES_SHORT,
  type BillingCodeUnits,
  type BillingTotal,
} from '@rpm/contracts';

/**
 * The CMS 2026 remote patient monitoring rules as plain functions over what the database counts:
 * days with device data per 30-day period, minutes and interactive contact per calendar month.
 * Nothing here reads a clock or a database, so every rule is checked by the table test alone.
 *
 * Dates are ISO calendar days (YYYY-MM-DD) already in the organization's time zone.
 */

const DAY_MS = 86_400_000;
const toUtc = (day: string) => Date.parse(`${day}T00:00:00Z`);
const fromUtc = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const addDays = (day: string, n: number): string => fromUtc(toUtc(day) + n * DAY_MS);
export const daysBetween = (from: string, to: string): number => Math.round((toUtc(to) - toUtc(from)) / DAY_MS);

/** First and last day of a calendar month 'YYYY-MM'. */
export function monthBounds(month: string): { start: string; end: string } {
  const start = `${month}-01`;
  const [y, m] = month.split('-').map(Number) as [number, number];
  const end = fromUtc(Date.UTC(y, m, 0));
  return { start, end };
}

export interface Period {
  index: number;
  start: string;
  end: string;
}

/** The 30-day period `index` counted from the patient's first day of monitoring (index 0). */
export function periodAt(firstDay: string, index: number): Period {
  const start = addDays(firstDay, index * BILLING_PERIOD_DAYS);
  return { index, start, end: addDays(start, BILLING_PERIOD_DAYS - 1) };
}

/** The period a day falls in (days before the first day have none). */
export function periodOf(firstDay: string, day: string): Period | null {
  const offset = daysBetween(firstDay, day);
  return offset < 0 ? null : periodAt(firstDay, Math.floor(offset / BILLING_PERIOD_DAYS));
}

/** Every period with at least one day in [from, to], oldest first. */
export function periodsOverlapping(firstDay: string, from: string, to: string): Period[] {
  if (daysBetween(firstDay, to) < 0) return [];
  const first = Math.max(0, Math.floor((daysBetween(firstDay, from) - (BILLING_PERIOD_DAYS - 1)) / BILLING_PERIOD_DAYS));
  const out: Period[] = [];
  for (let i = first; ; i++) {
    const p = periodAt(firstDay, i);
    if (daysBetween(p.start, to) < 0) break;
    if (daysBetween(from, p.end) >= 0) out.push(p);
  }
  return out;
}

/** Device supply for one period: 99454 from 16 days, 99445 from 2 to 15, never both, nothing below 2. */
export function deviceCode(days: number): string | null {
  if (days >= DEVICE_DAYS_FULL) return BillingCodes.device;
  if (days >= DEVICE_DAYS_SHORT) return BillingCodes.deviceShort;
  return null;
}

/**
 * Treatment management for one calendar month: 99470 for 10 to 19 minutes, 99457 from 20 (never
 * both), 99458 once per further full 20 minutes; none of them without an interactive contact.
 */
export function managementCodes(minutes: number, interactive: boolean): { code: string; units: number }[] {
  if (!interactive || minutes < MANAGEMENT_MINUTES_SHORT) return [];
  if (minutes < MANAGEMENT_MINUTES_FULL) return [{ code: BillingCodes.managementShort, units: 1 }];
  const extra = Math.floor((minutes - MANAGEMENT_MINUTES_FULL) / MANAGEMENT_MINUTES_EXTRA);
  const codes: { code: string; units: number }[] = [{ code: BillingCodes.management, units: 1 }];
  if (extra > 0) codes.push({ code: BillingCodes.managementExtra, units: extra });
  return codes;
}

/** What the database counted for one patient, up to the end of the month. */
export interface PatientMonthInput {
  month: string;
  /** Today in the organization's time zone: a period not yet over is still open. */
  today: string;
  /** The first day with device data: day 1 of the first period. Null when there is none. */
  firstDay: string | null;
  /** The first period that reached 2 days with device data: the one 99453 is billed for. */
  setupPeriod: number | null;
  /** Days with device data per period index, for the periods overlapping the month (absent: 0). */
  periodDays: Readonly<Record<number, number>>;
  minutes: number;
  interactive: boolean;
}

export interface PatientMonthResult {
  period_start: string | null;
  period_end: string | null;
  device_days: number;
  codes: BillingCodeUnits[];
  missing: string[];
}

/**
 * One patient's month. A 30-day period's device codes (and 99453) are billed in the month the
 * period ends, as CMS reports them at the end of the period; a month can hold the end of two
 * periods. The period shown is the one running today for the current month, else the last one
 * ending in the month.
 */
export function billPatientMonth(input: PatientMonthInput): PatientMonthResult {
  const { start, end } = monthBounds(input.month);
  const codes: BillingCodeUnits[] = [];
  const missing: string[] = [];
  const daysIn = (p: Period) => input.periodDays[p.index] ?? 0;

  let shown: Period | null = null;
  if (input.firstDay) {
    const periods = periodsOverlapping(input.firstDay, start, end);
    const endingInMonth = periods.filter((p) => p.end <= end);
    for (const p of endingInMonth) {
      if (p.index === input.setupPeriod) codes.push({ code: BillingCodes.setup, units: 1, period_start: p.start, period_end: p.end });
      const code = deviceCode(daysIn(p));
      if (code) codes.push({ code, units: 1, period_start: p.start, period_end: p.end });
    }
    const currentMonth = input.today >= start && input.today <= end;
    const reference = currentMonth ? input.today : end;
    shown = currentMonth
      ? periodOf(input.firstDay, reference)
      : (endingInMonth.at(-1) ?? periodOf(input.firstDay, reference));
  }
  const deviceDays = shown ? daysIn(shown) : 0;

  if (!input.firstDay || !shown) {
    missing.push(BillingTexts.missingNoReadings);
  } else if (shown.end >= input.today && deviceDays < DEVICE_DAYS_FULL) {
    missing.push(BillingTexts.missingDeviceDays(DEVICE_DAYS_FULL - deviceDays, BillingCodes.device));
  }

  for (const c of managementCodes(input.minutes, input.interactive)) codes.push({ ...c, period_start: start, period_end: end });
  if (input.minutes < MANAGEMENT_MINUTES_SHORT) {
    missing.push(BillingTexts.missingMinutes(MANAGEMENT_MINUTES_SHORT - input.minutes, BillingCodes.managementShort));
  } else if (input.minutes < MANAGEMENT_MINUTES_FULL) {
    missing.push(BillingTexts.missingMinutes(MANAGEMENT_MINUTES_FULL - input.minutes, BillingCodes.management));
  }
  if (!input.interactive) missing.push(BillingTexts.missingInteractive);

  codes.sort((a, b) => codeRank(a.code) - codeRank(b.code) || a.period_start.localeCompare(b.period_start));
  return { period_start: shown?.start ?? null, period_end: shown?.end ?? null, device_days: deviceDays, codes, missing };
}

const codeRank = (code: string) => BILLING_CODE_ORDER.indexOf(code as (typeof BILLING_CODE_ORDER)[number]);

/** Units per code over the rows, in the codes' usual order; codes nobody earned are left out. */
export function totalsOf(rows: readonly { codes: readonly { code: string; units: number }[] }[]): BillingTotal[] {
  const sums = new Map<string, number>();
  for (const row of rows) for (const c of row.codes) sums.set(c.code, (sums.get(c.code) ?? 0) + c.units);
  return BILLING_CODE_ORDER.filter((code) => sums.has(code)).map((code) => ({ code, units: sums.get(code)! }));
}
