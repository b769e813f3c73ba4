import {
  DEFAULT_ORGANIZATION_TIME_ZONE,
  type BillingRow,
  type BillingWorklist,
  type BillingWorklistQuery,
} from '@rpm/contracts';
import { audit } from '../../kernel/audit-writer.ts';
import { auditedTransaction } from '../../kernel/audited-transaction.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { addDays, monthBounds, monthOutlook } from './billing-rules.ts';
import { presentWorklistRow } from './billing.presenter.ts';
import { organizationTimeZone } from './billing.repository.ts';
import { openMonthPage, type KeptOutlook } from './billing-lines.service.ts';
import { findClosedMonth, monthSnapshotPage } from './billing.months.repository.ts';
import { worklistDetails, type WorklistDetailsRow } from './billing.details.repository.ts';
import { currentMonth, pageOf, requireBillingScope, type Deps } from './billing.service.ts';

/** Today in a time zone, 'YYYY-MM-DD'. */
const todayIn = (timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

/**
 * GET /api/billing/worklist: who can still earn what this month, a page of the enrolled patients
 * in scope (the report's scope rule) matching the provider and program filters, from the report's
 * own inputs query and rules, so each row's codes are the report's. A closed month is read from
 * its snapshot like the report. Sorted by compareOutlooks: what can still be earned and is at
 * risk first.
 *
 * The order needs every matching row's outlook: an open month's lines are kept with their rank
 * (computed again first where stale, billing-lines.service.ts), and the database orders and cuts
 * the page. The triage columns (provider, programs, last reading and outreach) are read for the
 * page's rows only. In a closed month nothing more can be earned: every outlook ranks alike, so
 * the order is the report's, from its snapshot.
 *
 * The month defaults to the current one in the organization's time zone (with every
 * organization in scope, the default organization time zone's); each row still counts its own
 * organization's days.
 */
export async function getBillingWorklist(
  deps: Deps,
  ctx: SignedInContext,
  query: BillingWorklistQuery,
): Promise<BillingWorklist> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const action = 'billing.worklist';
    const scope = requireBillingScope(ctx, action, query.month ?? null, query.organization_id ?? null);
    const timeZone = (scope !== null && (await organizationTimeZone(tx, scope))) || DEFAULT_ORGANIZATION_TIME_ZONE;
    const month = query.month ?? currentMonth(timeZone);
    const { start, end } = monthBounds(month);
    const today = todayIn(timeZone);
    const { limit, offset } = pageOf(query);
    const filters = { providerId: query.provider_id, program: query.program };
    const sort = query.sort ? { column: query.sort, order: query.order ?? 'asc' } : undefined;

    const closed = await findClosedMonth(tx, start);
    let page: { line: BillingRow; outlook: KeptOutlook; active: boolean | null }[];
    let total: number;
    if (closed) {
      const kept = await monthSnapshotPage<BillingRow>(
        tx,
        start,
        { organizationId: scope, ...filters },
        { limit, offset, sort },
      );
      total = kept.total;
      // A closed month is over: its lines are final, nothing more can be earned.
      page = kept.lines.map(({ line }) => ({
        line,
        outlook: monthOutlook({
          month,
          today: addDays(end, 1),
          periodEnd: line.period_end,
          deviceDays: line.device_days,
          minutes: line.minutes,
          interactive: line.interactive,
          active: false,
          todayCounted: false,
        }),
        active: null,
      }));
    } else {
      const kept = await openMonthPage(
        tx,
        month,
        { organizationId: scope, ...filters },
        { limit, offset, order: 'worklist', sort },
      );
      total = kept.total;
      page = kept.lines.map(({ line, outlook, active }) => ({ line, outlook, active }));
    }
    const details = await detailsOf(
      tx,
      start,
      end,
      page.map((p) => p.line.patient_id),
    );
    const rows = page.map(({ line, outlook, active }) => {
      const d = details.get(line.patient_id);
      return presentWorklistRow(line, outlook, active ?? d?.active ?? false, d);
    });

    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'billing',
      resourceId: month,
      details: {
        organization_id: query.organization_id ?? null,
        provider_id: query.provider_id ?? null,
        program: query.program ?? null,
        sort: sort ? `${sort.column} ${sort.order}` : null,
        patients: total,
        offset,
        shown: rows.length,
      },
    });
    return { month, today: today > end ? end : today, rows, total, limit, offset };
  });
}

async function detailsOf(
  tx: Parameters<typeof worklistDetails>[0],
  monthStart: string,
  monthEnd: string,
  patientIds: number[],
): Promise<Map<number, WorklistDetailsRow>> {
  return new Map((await worklistDetails(tx, monthStart, monthEnd, patientIds)).map((d) => [d.patient_id, d]));
}
