import { BillingTexts } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import {
  billPatientMonth,
  deviceCode,
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
    ['18 days and 25 minutes with a call', { periodDays: { 0: 18 }, minutes: 25, interactive: true }, ['99454', '99457']],
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
    expect(result).toMatchObject({ period_start: '2026-10-01', period_end: '2026-10-30', device_days: 18, missing: [] });
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
  it('names the days, the minutes and the interactive contact still needed in an open period', () => {
    const result = billPatientMonth({ ...base, month: '2026-11', firstDay: '2026-11-10', periodDays: { 0: 13 }, minutes: 12 });
    expect(result.missing).toEqual([
      BillingTexts.missingDeviceDays(3, '99454'),
      BillingTexts.missingMinutes(8, '99457'),
      BillingTexts.missingInteractive,
    ]);
    expect(result.missing[0]).toBe('3 more days of readings for 99454');
    expect(result.missing[2]).toBe('an interactive contact is needed');
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
        { codes: [{ code: '99457', units: 1 }, { code: '99458', units: 2 }] },
        { codes: [{ code: '99454', units: 1 }, { code: '99457', units: 1 }] },
      ]),
    ).toEqual([
      { code: '99454', units: 1 },
      { code: '99457', units: 2 },
      { code: '99458', units: 2 },
    ]);
  });
});
