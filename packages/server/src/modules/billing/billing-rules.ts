import {
  BILLING_CODE_ORDER,
  BILLING_PERIOD_DAYS,
  BillingCodes,
  BillingHints,
  BillingTexts,
  DEVICE_DAYS_FULL,
  DEVICE_DAYS_SHORT,
  MANAGEMENT_MINUTES_EXTRA,
  MANAGEMENT_MINUTES_FULL,
  MANAGEMENT_MINUTES_SHORT,
  type BillingCodeUnits,
  type BillingNeeds,
  type BillingTotal,
  type DeviceOutlook,
} from '@rpm/contracts';

/**
 * The CMS 2026 remote patient monitoring rules as plain functions over what the database counts:
 * days with device data per 30-day period, minutes and interactive contact per calendar month.
 * Nothing here reads a clock or a database, so every rule is checked by the table test alone.
 *
 * Dates are ISO calendar days (YYYY-MM-DD) already in the organization's time zone.
 */

const DAY_MS = 86_400_000;

/**
 * Calendar days as UTC midnights and back, remembered: a report or worklist of 1,000 patients
 * asks for the same few hundred days again and again, and parsing and formatting dates was most
 * of the rules' time. Still pure (the same answer for the same day); bounded, as days are.
 */
const MEMO_LIMIT = 20_000;
const parsed = new Map<string, number>();
const formatted = new Map<number, string>();
function toUtc(day: string): number {
  let ms = parsed.get(day);
  if (ms === undefined) {
    if (parsed.size >= MEMO_LIMIT) parsed.clear();
    ms = Date.parse(`${day}T00:00:00Z`);
    parsed.set(day, ms);
  }
  return ms;
}
function fromUtc(ms: number): string {
  let day = formatted.get(ms);
  if (day === undefined) {
    if (formatted.size >= MEMO_LIMIT) formatted.clear();
    day = new Date(ms).toISOString().slice(0, 10);
    formatted.set(ms, day);
  }
  return day;
}

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
  const first = Math.max(
    0,
    Math.floor((daysBetween(firstDay, from) - (BILLING_PERIOD_DAYS - 1)) / BILLING_PERIOD_DAYS),
  );
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
      if (p.index === input.setupPeriod)
        codes.push({ code: BillingCodes.setup, units: 1, period_start: p.start, period_end: p.end });
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

  for (const c of managementCodes(input.minutes, input.interactive))
    codes.push({ ...c, period_start: start, period_end: end });
  missing.push(...managementHints(input.minutes, input.interactive));

  codes.sort((a, b) => codeRank(a.code) - codeRank(b.code) || a.period_start.localeCompare(b.period_start));
  return {
    period_start: shown?.start ?? null,
    period_end: shown?.end ?? null,
    device_days: deviceDays,
    codes,
    missing,
  };
}

/** The next minutes threshold of the month: 10, 20, then every further 20 (40, 60, ...). */
export function nextMinutesThreshold(minutes: number): number {
  if (minutes < MANAGEMENT_MINUTES_SHORT) return MANAGEMENT_MINUTES_SHORT;
  if (minutes < MANAGEMENT_MINUTES_FULL) return MANAGEMENT_MINUTES_FULL;
  const extra = Math.floor((minutes - MANAGEMENT_MINUTES_FULL) / MANAGEMENT_MINUTES_EXTRA) + 1;
  return MANAGEMENT_MINUTES_FULL + extra * MANAGEMENT_MINUTES_EXTRA;
}

/** What the next management code needs: more minutes, a live contact, or both. */
export interface ManagementStep {
  code: string;
  minutes: number;
  contact: boolean;
}

/**
 * The cheapest next management code. Below 10 minutes it is 99470 (the missing minutes, and the
 * contact if there was none). From 10 minutes without a contact, the contact alone earns a code
 * (99470, or 99457 from 20): that is the next step, not more minutes. With a contact, the next
 * threshold's code (99457 at 20, one more 99458 per further 20).
 */
export function nextManagementStep(minutes: number, interactive: boolean): ManagementStep {
  if (minutes < MANAGEMENT_MINUTES_SHORT) {
    return { code: BillingCodes.managementShort, minutes: MANAGEMENT_MINUTES_SHORT - minutes, contact: !interactive };
  }
  if (!interactive) {
    const code = minutes < MANAGEMENT_MINUTES_FULL ? BillingCodes.managementShort : BillingCodes.management;
    return { code, minutes: 0, contact: true };
  }
  const code = minutes < MANAGEMENT_MINUTES_FULL ? BillingCodes.management : BillingCodes.managementExtra;
  return { code, minutes: nextMinutesThreshold(minutes) - minutes, contact: false };
}

/**
 * The report's words for the next management code, up to 99457: the units of 99458 beyond it are
 * not "missing", so a patient with 20 minutes and a contact lacks nothing.
 */
export function managementHints(minutes: number, interactive: boolean): string[] {
  const step = nextManagementStep(minutes, interactive);
  if (step.code === BillingCodes.managementExtra) return [];
  const hints: string[] = [];
  if (step.minutes > 0) hints.push(BillingTexts.missingMinutes(step.minutes, step.code));
  if (step.contact) hints.push(BillingHints.contactFor(step.code));
  return hints;
}

/** What the worklist adds to the rules' input: whether later days can still count. */
export interface WorklistInput extends PatientMonthInput {
  /** Active for billing now (enrolled, status Active): readings and minutes from now on count. */
  active: boolean;
  /** The last day with device data counted, up to the month's end (null: none). */
  lastDay: string | null;
}

/** A patient's month as the report states it, and what can still come of it. */
export interface MonthState {
  month: string;
  today: string;
  /** The period the report shows (the running one in the current month), or null before any data. */
  periodEnd: string | null;
  deviceDays: number;
  minutes: number;
  interactive: boolean;
  active: boolean;
  /** Today already has device data (it cannot add a day any more). */
  todayCounted: boolean;
}

export interface MonthOutlook {
  days_left: number;
  device_outlook: DeviceOutlook;
  next_minutes: number;
  needs: BillingNeeds;
  at_risk: boolean;
  /** Sorts the worklist (see compareOutlooks); not part of the answer. */
  rank: { earnable: number; slack: number };
}

const NOTHING_NEEDED: BillingNeeds = { code: null, minutes: 0, contact: false, days: 0, within_days: 0 };

/**
 * What the rest of the month can still bring, from the report's own figures (one implementation):
 * - days_left: days of the running 30-day period after today (0 once the month or period is over);
 * - the device outlook: the full code (16 days) earned, or reachable with a reading on each day
 *   that can still count (the days left, and today when it has none yet), else the short code
 *   (2 days) earned or reachable, else none;
 * - at_risk: an active patient whose running period cannot reach 16 days any more;
 * - needs: the next code and what it takes. The base management code (99470, then 99457) comes
 *   first: its call and minutes are in the team's hands, and the call is the moment to ask for
 *   readings; then the device code still reachable (days needed within the days that can count);
 *   then the next unit of 99458. Nothing once the month is over or the patient is not active.
 */
export function monthOutlook(s: MonthState): MonthOutlook {
  const { end: monthEnd } = monthBounds(s.month);
  const open = s.active && s.today <= monthEnd;
  const daysLeft = s.today <= monthEnd && s.periodEnd !== null ? Math.max(0, daysBetween(s.today, s.periodEnd)) : 0;
  // Days that can still add device data: today (unless counted) and the days left; before any
  // reading, the first one opens a new 30-day period.
  const canCount = !open ? 0 : s.periodEnd === null ? BILLING_PERIOD_DAYS : daysLeft + (s.todayCounted ? 0 : 1);
  const reachable = (days: number) => s.deviceDays < days && s.deviceDays + canCount >= days;

  let deviceOutlook: DeviceOutlook = 'none';
  let device: BillingNeeds | null = null;
  if (s.deviceDays >= DEVICE_DAYS_FULL) deviceOutlook = 'full_earned';
  else if (reachable(DEVICE_DAYS_FULL)) {
    deviceOutlook = 'full_reachable';
    device = {
      ...NOTHING_NEEDED,
      code: BillingCodes.device,
      days: DEVICE_DAYS_FULL - s.deviceDays,
      within_days: canCount,
    };
  } else if (s.deviceDays >= DEVICE_DAYS_SHORT) deviceOutlook = 'short_earned';
  else if (reachable(DEVICE_DAYS_SHORT)) {
    deviceOutlook = 'short_reachable';
    device = {
      ...NOTHING_NEEDED,
      code: BillingCodes.deviceShort,
      days: DEVICE_DAYS_SHORT - s.deviceDays,
      within_days: canCount,
    };
  }
  const atRisk = open && s.deviceDays < DEVICE_DAYS_FULL && deviceOutlook !== 'full_reachable';

  const step = open ? nextManagementStep(s.minutes, s.interactive) : null;
  const management = step ? { ...NOTHING_NEEDED, code: step.code, minutes: step.minutes, contact: step.contact } : null;
  const baseManagement = management && management.code !== BillingCodes.managementExtra ? management : null;
  const needs = baseManagement ?? device ?? management ?? NOTHING_NEEDED;

  const daysToMonthEnd = Math.max(0, daysBetween(s.today, monthEnd));
  return {
    days_left: daysLeft,
    device_outlook: deviceOutlook,
    next_minutes: nextMinutesThreshold(s.minutes),
    needs,
    at_risk: atRisk,
    rank: {
      earnable: (device ? 1 : 0) + (baseManagement ? 1 : 0),
      // The margin before a code is lost: the spare days for the device data, or the month's days
      // left for the minutes, whichever is less.
      slack: Math.min(device ? device.within_days - device.days : Infinity, management ? daysToMonthEnd : Infinity),
    },
  };
}

/** One worklist row's figures: the report's codes for the month (billPatientMonth) and the outlook. */
export function worklistRow(input: WorklistInput): PatientMonthResult & MonthOutlook {
  const result = billPatientMonth(input);
  return {
    ...result,
    ...monthOutlook({
      month: input.month,
      today: input.today,
      periodEnd: result.period_end,
      deviceDays: result.device_days,
      minutes: input.minutes,
      interactive: input.interactive,
      active: input.active,
      todayCounted: input.lastDay === input.today,
    }),
  };
}

/**
 * The worklist's order: what can still be earned, and is at risk, first.
 *  1. more codes still earnable this month (the base management code, the device code) first;
 *  2. then anything at all still earnable (one more 99458) before nothing;
 *  3. at risk (device days can no longer reach 16 in the running period) first: outreach;
 *  4. the least margin first (the spare days for the device data, or the days to the month's
 *     end for the minutes, whichever is less);
 *  5. then by name and id, as the report.
 */
export function compareOutlooks(
  a: Pick<MonthOutlook, 'rank' | 'needs' | 'at_risk'>,
  b: Pick<MonthOutlook, 'rank' | 'needs' | 'at_risk'>,
): number {
  return (
    b.rank.earnable - a.rank.earnable ||
    Number(b.needs.code !== null) - Number(a.needs.code !== null) ||
    Number(b.at_risk) - Number(a.at_risk) ||
    (a.rank.slack === b.rank.slack ? 0 : a.rank.slack < b.rank.slack ? -1 : 1)
  );
}

const codeRank = (code: string) => BILLING_CODE_ORDER.indexOf(code as (typeof BILLING_CODE_ORDER)[number]);

/** Units per code over the rows, in the codes' usual order; codes nobody earned are left out. */
export function totalsOf(rows: readonly { codes: readonly { code: string; units: number }[] }[]): BillingTotal[] {
  const sums = new Map<string, number>();
  for (const row of rows) for (const c of row.codes) sums.set(c.code, (sums.get(c.code) ?? 0) + c.units);
  return BILLING_CODE_ORDER.filter((code) => sums.has(code)).map((code) => ({ code, units: sums.get(code)! }));
}
