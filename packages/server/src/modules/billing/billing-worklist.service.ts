import {
  DEFAULT_ORGANIZATION_TIME_ZONE,
  type BillingRow,
  type BillingWorklist,
  type BillingWorklistQuery,
} from '@rpm/contracts';
import { audit } from '../../kernel/audit-writer.ts';
import { auditedTransaction } from '../../kernel/audited-transaction.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import {
  addDays,
  compareOutlooks,
  monthBounds,
  monthOutlook,
  worklistRow,
  type MonthOutlook,
} from './billing-rules.ts';
import { presentBillingRow, presentWorklistRow } from './billing.presenter.ts';
import { billingInputs, organizationTimeZone } from './billing.repository.ts';
import { findClosedMonth, monthSnapshot } from './billing.months.repository.ts';
import { worklistDetails, type BillingPatientDetails, type WorklistDetailsRow } from './billing.details.repository.ts';
import { currentMonth, monthInputOf, requireBillingScope, type Deps, type Evidence } from './billing.service.ts';

/** Today in a time zone, 'YYYY-MM-DD'. */
const todayIn = (timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

interface Item {
  line: BillingRow;
  outlook: MonthOutlook;
}

/**
 * GET /api/billing/worklist: who can still earn what this month, one row per enrolled patient in
 * scope (the report's scope rule), from the report's own inputs query and rules, so each row's
 * codes are the report's. A closed month is read from its snapshot like the report. Sorted by
 * compareOutlooks: what can still be earned and is at risk first.
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

    const closed = await findClosedMonth(tx, start);
    let items: Item[];
    let details: Map<number, WorklistDetailsRow>;
    if (closed) {
      // A closed month is over: its lines are final, nothing more can be earned.
      const snapshot = await monthSnapshot<BillingRow, BillingPatientDetails, Evidence>(tx, start, {
        organizationId: scope,
      });
      details = await detailsOf(
        tx,
        start,
        end,
        snapshot.map((s) => s.patient_id),
      );
      items = snapshot.map(({ line }) => ({
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
      }));
    } else {
      const inputs = await billingInputs(tx, { monthStart: start, monthEnd: end, organizationId: scope });
      details = await detailsOf(
        tx,
        start,
        end,
        inputs.map((i) => i.patient_id),
      );
      items = inputs.map((input) => {
        const result = worklistRow({
          ...monthInputOf(month, input),
          active: details.get(input.patient_id)?.active ?? false,
          lastDay: input.last_day,
        });
        return { line: presentBillingRow(input, result), outlook: result };
      });
    }
    const wanted = (d: WorklistDetailsRow | undefined) =>
      (query.provider_id === undefined || d?.primary_provider_id === query.provider_id) &&
      (query.program === undefined || (d?.programs ?? []).includes(query.program));
    const rows = items
      .filter((i) => wanted(details.get(i.line.patient_id)))
      // Stable: rows the order ranks alike keep the report's order (by name).
      .sort((a, b) => compareOutlooks(a.outlook, b.outlook))
      .map(({ line, outlook }) => {
        const d = details.get(line.patient_id);
        return presentWorklistRow(line, outlook, d?.active ?? false, d);
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
        patients: rows.length,
      },
    });
    return { month, today: today > end ? end : today, rows };
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
