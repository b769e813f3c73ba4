import {
  BillingErrors,
  type BillingClosing,
  type BillingQuery,
  type BillingReport,
  type BillingRow,
  type PatientBilling,
} from '@rpm/contracts';
import { stringify } from 'csv-stringify/sync';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import { authorize, requirePatientAccess } from '../../kernel/access.ts';
import { AuditedRefusal, auditedTransaction } from '../../kernel/audited-transaction.ts';
import type { SignedInContext } from '../../plugins/context.ts';
import { notFound } from '../../plugins/errors.ts';
import { billingReportScope, mayCloseBillingMonth } from '../../policies/billing.ts';
import { billingCsvRecords, escapeCsvCell, presentBillingRow } from '../../presenters/billing.ts';
import { audit } from '../audit/audit.service.ts';
import { billPatientMonth, monthBounds, totalsOf } from './billing-rules.ts';
import {
  billingInputs,
  billingPatientDetails,
  findClosedMonth,
  insertClosedMonth,
  isDateInClosedMonth,
  monthTimeEntries,
  patientTimeZone,
  readingDays,
  type BillingInputRow,
} from './billing.repository.ts';

type Deps = { db: pg.Pool };

const billRow = (month: string, input: BillingInputRow): BillingRow =>
  presentBillingRow(
    input,
    billPatientMonth({
      month,
      today: input.today,
      firstDay: input.first_day,
      setupPeriod: input.setup_period,
      periodDays: input.period_days ?? {},
      minutes: input.minutes,
      interactive: input.interactive,
    }),
  );

/** The rows the actor may see, after the access call (a refusal is audited by the caller's transaction). */
async function reportRows(tx: Queryable, ctx: SignedInContext, action: string, query: BillingQuery): Promise<BillingRow[]> {
  const scope = billingReportScope(ctx.actor, query.organization_id ?? null);
  authorize(scope !== false, {
    action,
    resourceType: 'billing',
    resourceId: query.month,
    reason: 'organization of another provider',
    details: { organization_id: query.organization_id ?? null },
  });
  const { start, end } = monthBounds(query.month);
  const inputs = await billingInputs(tx, { monthStart: start, monthEnd: end, organizationId: scope });
  return inputs.map((input) => billRow(query.month, input));
}

/** GET /api/billing: every enrolled patient's month, the codes earned and what is missing. */
export async function getBillingReport(deps: Deps, ctx: SignedInContext, query: BillingQuery): Promise<BillingReport> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const action = 'billing.report';
    const rows = await reportRows(tx, ctx, action, query);
    const closedAt = await findClosedMonth(tx, monthBounds(query.month).start);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'billing',
      resourceId: query.month,
      details: { organization_id: query.organization_id ?? null, patients: rows.length },
    });
    return { month: query.month, closed: closedAt !== null, closed_at: closedAt?.toISOString() ?? null, rows, totals: totalsOf(rows) };
  });
}

/** GET /api/billing/export.csv: one line per patient and code, cells safe to open in a spreadsheet. */
export async function exportBillingCsv(deps: Deps, ctx: SignedInContext, query: BillingQuery): Promise<string> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const action = 'billing.export';
    const rows = (await reportRows(tx, ctx, action, query)).filter((r) => r.codes.length > 0);
    const details = await billingPatientDetails(
      tx,
      rows.map((r) => r.patient_id),
    );
    const records = billingCsvRecords(rows, details);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'billing',
      resourceId: query.month,
      details: { organization_id: query.organization_id ?? null, patients: rows.length, lines: records.length - 1 },
    });
    return stringify(records, { cast: { string: escapeCsvCell } });
  });
}

/** POST /api/billing/{month}/close: the month is submitted; its tracking time is frozen. */
export async function closeBillingMonth(deps: Deps, ctx: SignedInContext, month: string): Promise<BillingClosing> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const action = 'billing.close';
    authorize(mayCloseBillingMonth(ctx.actor), { action, resourceType: 'billing', resourceId: month, reason: 'not an admin' });
    const refuse = (status: number, message: string, reason: string) =>
      new AuditedRefusal(status, message, { action, outcome: 'failure', resourceType: 'billing', resourceId: month, reason });
    const { start, end } = monthBounds(month);
    // Each organization's today differs by hours at most; UTC's is the one every month ends by.
    if (end >= new Date().toISOString().slice(0, 10)) throw refuse(400, BillingErrors.futureMonth, 'month not over');
    const closedAt = await insertClosedMonth(tx, start, ctx.actor.id);
    if (!closedAt) throw refuse(409, BillingErrors.alreadyClosed, 'already closed');
    await audit(tx, ctx, { action, outcome: 'success', resourceType: 'billing', resourceId: month });
    return { month, closed: true, closed_at: closedAt.toISOString() };
  });
}

/** Whether tracking time dated `date` falls in a month submitted for billing (the tracking service refuses it). */
export const isBillingMonthClosed = (tx: Queryable, date: string): Promise<boolean> => isDateInClosedMonth(tx, date);

/** The current calendar month in a time zone, 'YYYY-MM'. */
function currentMonth(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).format(new Date());
}

/** GET /api/patients/{id}/billing: the patient's month (progress) and its evidence. */
export async function getPatientBilling(
  deps: Deps,
  ctx: SignedInContext,
  patientId: number,
  requestedMonth: string | undefined,
): Promise<PatientBilling> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const action = 'billing.patient';
    const patient = await requirePatientAccess(tx, ctx, patientId, action);
    const timeZone = await patientTimeZone(tx, patientId);
    const month = requestedMonth ?? currentMonth(timeZone);
    const { start, end } = monthBounds(month);
    const [input] = await billingInputs(tx, { monthStart: start, monthEnd: end, organizationId: patient.organization_id, patientId });
    if (!input) throw notFound();
    const row = billRow(month, input);
    const days = await readingDays(tx, patientId, timeZone, start, end);
    const entries = await monthTimeEntries(tx, patientId, start, end);
    const closedAt = await findClosedMonth(tx, start);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'patient',
      resourceId: patientId,
      details: { month, reading_days: days.length, entries: entries.length },
    });
    return { month, closed: closedAt !== null, time_zone: timeZone, row, reading_days: days, entries };
  });
}
