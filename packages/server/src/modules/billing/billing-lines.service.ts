import { createHash } from 'node:crypto';
import type { BillingRow } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';
import { monthBounds, worklistRow, type MonthOutlook, type PatientMonthInput } from './billing-rules.ts';
import { presentBillingRow } from './billing.presenter.ts';
import { billingInputs, type BillingInputRow } from './billing.repository.ts';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { monthIn } from '../../kernel/time.ts';
import {
  dropUnreadLines,
  keepLines,
  keptLinesPage,
  organizationCalendars,
  staleLines,
  type ColumnSort,
  type LinesScope,
} from './billing.lines.repository.ts';
import { findClosedMonth } from './billing.months.repository.ts';

/** The rules' input of a patient's month, from what the database counted (report and worklist alike). */
export const monthInputOf = (month: string, input: BillingInputRow): PatientMonthInput => ({
  month,
  today: input.today,
  firstDay: input.first_day,
  setupPeriod: input.setup_period,
  periodDays: input.period_days ?? {},
  minutes: input.minutes,
  interactive: input.interactive,
});

/**
 * A fingerprint of the rules: their answers to a fixed set of months (every count around each
 * threshold, with and without contact, active or not, a period running or ended), hashed. Kept
 * lines carry it, so lines computed by an earlier version of the rules, codes or texts are
 * computed again after an upgrade, with no list of files to keep in step; an instance of another
 * version beside this one (a rolling upgrade) computes its own again, and neither reads the other's.
 */
export const RULES_FINGERPRINT = ((): string => {
  const hash = createHash('sha256');
  const month = '2026-03';
  for (const firstDay of [null, '2026-01-20', '2026-02-25', '2026-03-01', '2026-03-10'])
    for (const today of ['2026-03-05', '2026-03-31', '2026-04-15'])
      for (const days of [0, 1, 2, 15, 16, 30])
        for (const minutes of [0, 9, 10, 19, 20, 39, 40, 60])
          for (const interactive of [false, true])
            for (const active of [false, true]) {
              const input = {
                month,
                today,
                firstDay,
                setupPeriod: firstDay ? 0 : null,
                periodDays: { 0: days, 1: days, 2: Math.max(0, days - 1) },
                minutes,
                interactive,
                active,
                lastDay: firstDay ? today : null,
              };
              hash.update(JSON.stringify(worklistRow(input)));
            }
  return hash.digest('hex').slice(0, 32);
})();

/** What the worklist shows of a line's outlook (the rank is in the kept line's columns). */
export type KeptOutlook = Omit<MonthOutlook, 'rank'>;

/**
 * Brings the open month's kept lines of the patients in scope up to date (migration 1060): the
 * lines missing, older than their patient's inputs or past their freshness are computed again by
 * the report's own inputs query and rules, for those patients only, and kept. Runs in the caller's
 * transaction, before its page is read, so the page is as fresh as computing everything would be.
 */
export async function refreshKeptLines(tx: Queryable, month: string, organizationId: number | null): Promise<number> {
  const { start, end } = monthBounds(month);
  const stale = await staleLines(tx, start, organizationId, RULES_FINGERPRINT);
  if (stale.length === 0) return 0;
  const versions = new Map(stale.map((s) => [s.patient_id, s.version]));
  const inputs = await billingInputs(tx, {
    monthStart: start,
    monthEnd: end,
    organizationId,
    patientIds: stale.map((s) => s.patient_id),
  });
  await keepLines<BillingRow, KeptOutlook>(
    tx,
    start,
    RULES_FINGERPRINT,
    stale.map((s) => s.patient_id),
    inputs.map((input) => {
      const result = worklistRow({ ...monthInputOf(month, input), active: input.active, lastDay: input.last_day });
      return {
        patient_id: input.patient_id,
        version: versions.get(input.patient_id) ?? 0,
        fresh_until: input.fresh_until,
        line: presentBillingRow(input, result),
        outlook: {
          days_left: result.days_left,
          device_outlook: result.device_outlook,
          next_minutes: result.next_minutes,
          needs: result.needs,
          at_risk: result.at_risk,
        },
        active: input.active,
        earnable: result.rank.earnable,
        needs_code: result.needs.code !== null,
        at_risk: result.at_risk,
        slack: result.rank.slack,
        codes: result.codes.map((c) => c.code),
        units: result.codes.map((c) => c.units),
      };
    }),
  );
  return stale.length;
}

/** A page of the open month's lines in scope, fresh (refreshKeptLines first). */
export async function openMonthPage(
  tx: Queryable,
  month: string,
  scope: LinesScope,
  page: { limit: number; offset: number; order: 'report' | 'worklist'; sort?: ColumnSort },
) {
  await refreshKeptLines(tx, month, scope.organizationId);
  return keptLinesPage<BillingRow, KeptOutlook>(tx, monthBounds(month).start, scope, page);
}

/** The calendar month before `month` ('YYYY-MM'). */
export function monthBefore(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 7);
}

/**
 * The background refresh (billing.jobs.ts): for each organization, the kept lines of its current
 * month and of the month before (read until it is closed) brought up to date, one organization
 * and month per transaction, so a request seldom finds many stale lines; then the lines no page
 * reads are dropped. No one reads anything here, so nothing is audited: the lines are kept
 * answers, and each request that shows them is audited as before.
 */
export async function refreshOpenMonths(pool: pg.Pool, now = new Date()): Promise<{ lines: number; dropped: number }> {
  let lines = 0;
  let oldest: string | null = null;
  for (const org of await organizationCalendars(pool)) {
    const current = monthIn(org.time_zone, now);
    for (const month of [current, monthBefore(current)]) {
      if (oldest === null || month < oldest) oldest = month;
      if (await findClosedMonth(pool, monthBounds(month).start)) continue;
      lines += await withTransaction(pool, (tx) => refreshKeptLines(tx, month, org.id));
    }
  }
  const dropped = oldest === null ? 0 : await dropUnreadLines(pool, monthBounds(oldest).start);
  return { lines, dropped };
}
