import { BillingHints, BillingTexts, type BillingNeeds } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import {
  billPatientMonth,
  compareOutlooks,
  deviceCode,
  managementHints,
  nextManagementStep,
  nextMinutesThreshold,
  worklistRow,
  type WorklistInput,
  managementCodes,
  monthBounds,
  periodOf,
  periodsOverlapping,
  totalsOf,
  type PatientMonthInput,
} from './billing-rules.ts';

// A past month with 31 days, the patient's first day on its 1st: period 0 is Oct 1–30 and ends in it.
const base: PatientMonthInput = {
  month: '2026-10',
  today: '2026-11-22',
  firstDay: '2026-10-01',
  setupPeriod: null,
  periodDays: {},
  minutes: 0,
  interactive: false,
};
const codesOf = (input: Partial<PatientMonthInput>) =>
  billPatientMonth({ ...base, ...input }).codes.map((c) => (c.units === 1 ? c.code : `${c.code}x${c.units}`));

describe('billing rules, from a table', () => {
  it.each<[string, Partial<PatientMonthInput>, string[]]>([
    // Device supply per 30-day period (setupPeriod set apart from these rows so 99453 does not mix in).
    ['1 day of device data: nothing', { periodDays: { 0: 1 } }, []],
    ['2 days: 99445', { periodDays: { 0: 2 } }, ['99445']],
    ['15 days: 99445', { periodDays: { 0: 15 } }, ['99445']],
    ['16 days: 99454, not 99445', { periodDays: { 0: 16 } }, ['99454']],
    ['30 days: 99454', { periodDays: { 0: 30 } }, ['99454']],
    ['no device data at all', { firstDay: null }, []],
    // Treatment management per calendar month, with an interactive contact.
    ['9 minutes: nothing', { minutes: 9, interactive: true }, []],
    ['10 minutes: 99470', { minutes: 10, interactive: true }, ['99470']],
    ['19 minutes: 99470', { minutes: 19, interactive: true }, ['99470']],
    ['20 minutes: 99457, not 99470', { minutes: 20, interactive: true }, ['99457']],
    ['39 minutes: 99457 only', { minutes: 39, interactive: true }, ['99457']],
    ['40 minutes: 99457 + 1 x 99458', { minutes: 40, interactive: true }, ['99457', '99458']],
    ['59 minutes: 99457 + 1 x 99458', { minutes: 59, interactive: true }, ['99457', '99458']],
    ['60 minutes: 99457 + 2 x 99458', { minutes: 60, interactive: true }, ['99457', '99458x2']],
    ['60 minutes without an interactive contact: nothing', { minutes: 60, interactive: false }, []],
    ['15 minutes without an interactive contact: nothing', { minutes: 15, interactive: false }, []],
    // Both kinds together.
    [
      '18 days and 25 minutes with a call',
      { periodDays: { 0: 18 }, minutes: 25, interactive: true },
      ['99454', '99457'],
    ],
    // 99453: in the first period that reaches 2 days, once.
    ['99453 in the period that first reached 2 days', { periodDays: { 0: 2 }, setupPeriod: 0 }, ['99453', '99445']],
    [
      '99453 not again in a later period',
      { month: '2026-11', today: '2026-12-15', periodDays: { 1: 20 }, setupPeriod: 0 },
      ['99454'],
    ],
    [
      '99453 in the second period when the first had 1 day',
      { month: '2026-11', today: '2026-12-15', periodDays: { 0: 1, 1: 3 }, setupPeriod: 1 },
      ['99453', '99445'],
    ],
    // Two periods end in one calendar month: first day Jan 1, periods end Jan 30 and Mar 1, Mar 31.
    [
      'a 30-day period rolling over inside a month: both periods billed',
      { month: '2026-03', today: '2026-04-10', firstDay: '2026-01-01', periodDays: { 1: 16, 2: 5 }, setupPeriod: 0 },
      ['99445', '99454'],
    ],
    [
      'a month in which no period ends (February) bills no device code',
      { month: '2026-02', today: '2026-04-10', firstDay: '2026-01-01', periodDays: { 0: 20, 1: 20 }, setupPeriod: 0 },
      [],
    ],
    [
      'a period that began mid-month is billed in the next month',
      { month: '2026-10', firstDay: '2026-10-15', periodDays: { 0: 17 }, setupPeriod: 0 },
      [],
    ],
  ])('%s', (_label, input, expected) => {
    expect(codesOf(input)).toEqual(expected);
  });
});

describe('each code carries its service period', () => {
  it('device codes the 30-day period, management codes the calendar month', () => {
    const result = billPatientMonth({ ...base, periodDays: { 0: 18 }, setupPeriod: 0, minutes: 25, interactive: true });
    expect(result.codes).toEqual([
      { code: '99453', units: 1, period_start: '2026-10-01', period_end: '2026-10-30' },
      { code: '99454', units: 1, period_start: '2026-10-01', period_end: '2026-10-30' },
      { code: '99457', units: 1, period_start: '2026-10-01', period_end: '2026-10-31' },
    ]);
    expect(result).toMatchObject({
      period_start: '2026-10-01',
      period_end: '2026-10-30',
      device_days: 18,
      missing: [],
    });
  });

  it('the rollover month lists both periods, and shows the last one', () => {
    const result = billPatientMonth({
      ...base,
      month: '2026-03',
      today: '2026-04-10',
      firstDay: '2026-01-01',
      periodDays: { 1: 16, 2: 5 },
    });
    expect(result.codes.map((c) => [c.code, c.period_start, c.period_end])).toEqual([
      ['99445', '2026-03-02', '2026-03-31'],
      ['99454', '2026-01-31', '2026-03-01'],
    ]);
    expect(result).toMatchObject({ period_start: '2026-03-02', period_end: '2026-03-31', device_days: 5 });
  });
});

describe('what is missing, in words', () => {
  it('names the days still needed in an open period, and the contact that earns 99470 at 12 minutes', () => {
    const result = billPatientMonth({
      ...base,
      month: '2026-11',
      firstDay: '2026-11-10',
      periodDays: { 0: 13 },
      minutes: 12,
    });
    expect(result.missing).toEqual([BillingTexts.missingDeviceDays(3, '99454'), BillingHints.contactFor('99470')]);
    expect(result.missing[0]).toBe('3 more days of readings for 99454');
    expect(result.missing[1]).toBe('an interactive contact for 99470');
  });

  it('says when there are no readings yet, and counts minutes up to 99470', () => {
    expect(billPatientMonth({ ...base, firstDay: null, minutes: 4, interactive: true }).missing).toEqual([
      BillingTexts.missingNoReadings,
      '6 more minutes for 99470',
    ]);
  });

  it('asks for no more days once a period is over', () => {
    expect(billPatientMonth({ ...base, periodDays: { 0: 5 }, minutes: 20, interactive: true }).missing).toEqual([]);
  });
});

describe('calendar helpers', () => {
  it('bounds months, leap years included', () => {
    expect(monthBounds('2028-02')).toEqual({ start: '2028-02-01', end: '2028-02-29' });
    expect(monthBounds('2026-12')).toEqual({ start: '2026-12-01', end: '2026-12-31' });
  });

  it('places days in 30-day periods from the first day', () => {
    expect(periodOf('2026-01-01', '2026-01-30')).toMatchObject({ index: 0, end: '2026-01-30' });
    expect(periodOf('2026-01-01', '2026-01-31')).toMatchObject({ index: 1, start: '2026-01-31', end: '2026-03-01' });
    expect(periodOf('2026-01-02', '2026-01-01')).toBeNull();
    expect(periodsOverlapping('2026-01-01', '2026-03-01', '2026-03-31').map((p) => p.index)).toEqual([1, 2]);
    expect(periodsOverlapping('2026-05-01', '2026-03-01', '2026-03-31')).toEqual([]);
  });

  it('keeps device and management codes apart and totals units per code', () => {
    expect(deviceCode(0)).toBeNull();
    expect(managementCodes(80, true)).toEqual([
      { code: '99457', units: 1 },
      { code: '99458', units: 3 },
    ]);
    expect(
      totalsOf([
        {
          codes: [
            { code: '99457', units: 1 },
            { code: '99458', units: 2 },
          ],
        },
        {
          codes: [
            { code: '99454', units: 1 },
            { code: '99457', units: 1 },
          ],
        },
      ]),
    ).toEqual([
      { code: '99454', units: 1 },
      { code: '99457', units: 2 },
      { code: '99458', units: 2 },
    ]);
  });
});

describe('hints name the cheapest next management code', () => {
  const minutesFor = BillingTexts.missingMinutes;
  const contactFor = BillingHints.contactFor;
  it.each<[number, boolean, string[]]>([
    [0, false, [minutesFor(10, '99470'), contactFor('99470')]],
    [0, true, [minutesFor(10, '99470')]],
    [9, false, [minutesFor(1, '99470'), contactFor('99470')]],
    [9, true, [minutesFor(1, '99470')]],
    // From 10 minutes the contact alone earns 99470: no "more minutes for 99457".
    [10, false, [contactFor('99470')]],
    [10, true, [minutesFor(10, '99457')]],
    [19, false, [contactFor('99470')]],
    [19, true, [minutesFor(1, '99457')]],
    [20, false, [contactFor('99457')]],
    [20, true, []],
    [39, false, [contactFor('99457')]],
    [39, true, []],
    [40, false, [contactFor('99457')]],
    [40, true, []],
  ])('%i minutes, contact %s', (minutes, interactive, hints) => {
    expect(managementHints(minutes, interactive)).toEqual(hints);
    // The report's row says the same.
    const missing = billPatientMonth({ ...base, minutes, interactive, periodDays: { 0: 20 } }).missing;
    expect(missing).toEqual(hints);
  });

  it('reads as a care manager would', () => {
    expect(managementHints(4, true)).toEqual(['6 more minutes for 99470']);
    expect(managementHints(12, false)).toEqual(['an interactive contact for 99470']);
    expect(managementHints(12, true)).toEqual(['8 more minutes for 99457']);
  });

  it.each<[number, boolean, { code: string; minutes: number; contact: boolean }]>([
    [0, false, { code: '99470', minutes: 10, contact: true }],
    [9, true, { code: '99470', minutes: 1, contact: false }],
    [10, false, { code: '99470', minutes: 0, contact: true }],
    [10, true, { code: '99457', minutes: 10, contact: false }],
    [19, true, { code: '99457', minutes: 1, contact: false }],
    [19, false, { code: '99470', minutes: 0, contact: true }],
    [20, false, { code: '99457', minutes: 0, contact: true }],
    [20, true, { code: '99458', minutes: 20, contact: false }],
    [39, true, { code: '99458', minutes: 1, contact: false }],
    [40, true, { code: '99458', minutes: 20, contact: false }],
    [40, false, { code: '99457', minutes: 0, contact: true }],
  ])('next step at %i minutes, contact %s', (minutes, interactive, step) => {
    expect(nextManagementStep(minutes, interactive)).toEqual(step);
  });

  it.each([
    [0, 10],
    [9, 10],
    [10, 20],
    [19, 20],
    [20, 40],
    [39, 40],
    [40, 60],
    [59, 60],
    [60, 80],
  ])('the threshold after %i minutes is %i', (minutes, next) => {
    expect(nextMinutesThreshold(minutes)).toBe(next);
  });
});

describe('the worklist outlook', () => {
  // Today Nov 20 in the patient's first period (Nov 1–30): 10 days of it after today.
  const now: WorklistInput = {
    month: '2026-11',
    today: '2026-11-20',
    firstDay: '2026-11-01',
    setupPeriod: 0,
    periodDays: {},
    minutes: 20,
    interactive: true,
    active: true,
    lastDay: '2026-11-19',
  };
  const nothing: BillingNeeds = { code: null, minutes: 0, contact: false, days: 0, within_days: 0 };
  const row = (input: Partial<WorklistInput>) => {
    const full = { ...now, ...input };
    const result = worklistRow(full);
    // Its codes are the report's, always.
    expect(result.codes).toEqual(billPatientMonth(full).codes);
    return result;
  };
  const summary = (input: Partial<WorklistInput>) => {
    const r = row(input);
    return { days_left: r.days_left, device_outlook: r.device_outlook, at_risk: r.at_risk, needs: r.needs };
  };

  it.each<[string, Partial<WorklistInput>, ReturnType<typeof summary>]>([
    [
      '16 days reached: the device code is earned, the next is one more 99458',
      { periodDays: { 0: 16 } },
      {
        days_left: 10,
        device_outlook: 'full_earned',
        at_risk: false,
        needs: { ...nothing, code: '99458', minutes: 20 },
      },
    ],
    [
      'reachable exactly: 5 days, a reading today and on each of the 10 days left make 16',
      { periodDays: { 0: 5 } },
      {
        days_left: 10,
        device_outlook: 'full_reachable',
        at_risk: false,
        needs: { ...nothing, code: '99454', days: 11, within_days: 11 },
      },
    ],
    [
      'today already counted: 6 days and the 10 left make 16',
      { periodDays: { 0: 6 }, lastDay: '2026-11-20' },
      {
        days_left: 10,
        device_outlook: 'full_reachable',
        at_risk: false,
        needs: { ...nothing, code: '99454', days: 10, within_days: 10 },
      },
    ],
    [
      'not reachable by one day: at risk, the short code earned',
      { periodDays: { 0: 5 }, lastDay: '2026-11-20' },
      {
        days_left: 10,
        device_outlook: 'short_earned',
        at_risk: true,
        needs: { ...nothing, code: '99458', minutes: 20 },
      },
    ],
    [
      'short code only: 1 day, 3 days that can still count',
      { today: '2026-11-28', periodDays: { 0: 1 }, lastDay: '2026-11-02' },
      {
        days_left: 2,
        device_outlook: 'short_reachable',
        at_risk: true,
        needs: { ...nothing, code: '99445', days: 1, within_days: 3 },
      },
    ],
    [
      'nothing reachable on the period last day, already counted',
      { today: '2026-11-30', periodDays: { 0: 1 }, lastDay: '2026-11-30' },
      { days_left: 0, device_outlook: 'none', at_risk: true, needs: { ...nothing, code: '99458', minutes: 20 } },
    ],
    [
      'the base management code comes first: 6 more minutes and a call for 99470',
      { periodDays: { 0: 5 }, minutes: 4, interactive: false },
      {
        days_left: 10,
        device_outlook: 'full_reachable',
        at_risk: false,
        needs: { ...nothing, code: '99470', minutes: 6, contact: true },
      },
    ],
    [
      'at 12 minutes without a contact the call alone earns 99470',
      { periodDays: { 0: 16 }, minutes: 12, interactive: false },
      {
        days_left: 10,
        device_outlook: 'full_earned',
        at_risk: false,
        needs: { ...nothing, code: '99470', contact: true },
      },
    ],
    [
      'no reading yet: the first one opens a 30-day period',
      { firstDay: null, setupPeriod: null, lastDay: null },
      {
        days_left: 0,
        device_outlook: 'full_reachable',
        at_risk: false,
        needs: { ...nothing, code: '99454', days: 16, within_days: 30 },
      },
    ],
    [
      'paused: nothing more counts, nothing is asked, not flagged',
      { periodDays: { 0: 5 }, minutes: 4, active: false },
      { days_left: 10, device_outlook: 'short_earned', at_risk: false, needs: nothing },
    ],
    [
      'period ended with the month: no days left, nothing more to earn',
      { month: '2026-10', firstDay: '2026-10-01', periodDays: { 0: 12 }, minutes: 4, lastDay: '2026-10-30' },
      { days_left: 0, device_outlook: 'short_earned', at_risk: false, needs: nothing },
    ],
    [
      'period ended with the month, 16 days reached',
      { month: '2026-10', firstDay: '2026-10-01', periodDays: { 0: 16 }, lastDay: '2026-10-30' },
      { days_left: 0, device_outlook: 'full_earned', at_risk: false, needs: nothing },
    ],
  ])('%s', (_label, input, expected) => {
    expect(summary(input)).toEqual(expected);
  });

  it('a past month bills what the report bills, with no days left', () => {
    const past = {
      month: '2026-10',
      firstDay: '2026-10-01',
      periodDays: { 0: 18 },
      minutes: 25,
      lastDay: '2026-10-30',
    };
    const r = row(past);
    expect(r.codes.map((c) => c.code)).toEqual(['99453', '99454', '99457']);
    expect(r).toMatchObject({ days_left: 0, next_minutes: 40, device_days: 18 });
  });

  it('orders what can still be earned and is at risk first', () => {
    const rows = {
      earnedAll: row({ periodDays: { 0: 16 }, minutes: 45 }),
      paused: row({ periodDays: { 0: 5 }, active: false }),
      lostDevice: row({ periodDays: { 0: 3 }, lastDay: '2026-11-20' }),
      tightDevice: row({ periodDays: { 0: 5 } }),
      easyDevice: row({ periodDays: { 0: 12 } }),
      minutesAndDevice: row({ periodDays: { 0: 12 }, minutes: 4 }),
      minutesAndTightDevice: row({ periodDays: { 0: 5 }, minutes: 4 }),
    };
    const order = Object.entries(rows)
      .sort(([, a], [, b]) => compareOutlooks(a, b))
      .map(([key]) => key);
    expect(order).toEqual([
      'minutesAndTightDevice',
      'minutesAndDevice',
      'tightDevice',
      'easyDevice',
      'lostDevice',
      'earnedAll',
      'paused',
    ]);
  });
});
