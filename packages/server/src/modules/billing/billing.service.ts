import {
  BillingErrors,
  type BillingClosing,
  type BillingQuery,
  type BillingReport,
  type BillingRow,
  type PatientBilling,
  type AuditAction,
} from '@rpm/contracts';
import { stringify } from 'csv-stringify/sync';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import { authorize, requirePatientAccess } from '../../kernel/access.ts';
import { AuditedRefusal, auditedTransaction } from '../../kernel/audited-transaction.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { notFound } from '../../kernel/errors.ts';
import { billingReportScope, mayCloseBillingMonth } from '../../policies/billing.ts';
import { billingCsvRecords, escapeCsvCell, presentBillingRow, presentTimeEntry } from './billing.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { billPatientMonth, monthBounds, totalsOf } from './billing-rules.ts';
import {
  billingInputs,
  billingPatientDetails,
  findClosedMonth,
  inClosedMonths,
  insertClosedMonth,
  insertMonthSnapshot,
  isDateInClosedMonth,
  monthSnapshot,
  monthTimeEntries,
  patientTimeZone,
  readingDays,
  type BillingInputRow,
  type BillingPatientDetails,
  type SnapshotRow,
} from './billing.repository.ts';

type Deps = { db: pg.Pool };

/** What one patient's page shows besides the row: the evidence, as it was when the month closed. */
type Evidence = Pick<PatientBilling, 'time_zone' | 'reading_days' | 'entries'>;
type MonthSnapshotRow = SnapshotRow<BillingRow, BillingPatientDetails, Evidence>;

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

/**
 * The rows the actor may see, after the access call (a refusal is audited by the caller's
 * transaction), with the patients' claim fields. A closed month is read from its snapshot: what
 * was submitted stays what the portal shows, whatever changed since.
 */
async function reportRows(
  tx: Queryable,
  ctx: SignedInContext,
  action: AuditAction,
  query: BillingQuery,
): Promise<{ rows: BillingRow[]; closedAt: Date | null; claims: () => Promise<BillingPatientDetails[]> }> {
  const scope = billingReportScope(ctx.actor, query.organization_id ?? null);
  authorize(scope !== false, {
    action,
    resourceType: 'billing',
    resourceId: query.month,
    reason: 'organization of another provider',
    details: { organization_id: query.organization_id ?? null },
  });
  const { start, end } = monthBounds(query.month);
  const closedAt = await findClosedMonth(tx, start);
  if (closedAt) {
    const snapshot = await monthSnapshot<BillingRow, BillingPatientDetails, Evidence>(tx, start, {
      organizationId: scope,
    });
    return { rows: snapshot.map((s) => s.line), closedAt, claims: async () => snapshot.map((s) => s.claim) };
  }
  const inputs = await billingInputs(tx, { monthStart: start, monthEnd: end, organizationId: scope });
  const rows = inputs.map((input) => billRow(query.month, input));
  return {
    rows,
    closedAt,
    claims: () =>
      billingPatientDetails(
        tx,
        rows.filter((r) => r.codes.length > 0).map((r) => r.patient_id),
      ),
  };
}

/** GET /api/billing: every enrolled patient's month, the codes earned and what is missing. */
export async function getBillingReport(deps: Deps, ctx: SignedInContext, query: BillingQuery): Promise<BillingReport> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const action = 'billing.report';
    const { rows, closedAt } = await reportRows(tx, ctx, action, query);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'billing',
      resourceId: query.month,
      details: { organization_id: query.organization_id ?? null, patients: rows.length },
    });
    return {
      month: query.month,
      closed: closedAt !== null,
      closed_at: closedAt?.toISOString() ?? null,
      rows,
      totals: totalsOf(rows),
    };
  });
}

/** GET /api/billing/export.csv: one line per patient and code, cells safe to open in a spreadsheet. */
export async function exportBillingCsv(deps: Deps, ctx: SignedInContext, query: BillingQuery): Promise<string> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const action = 'billing.export';
    const report = await reportRows(tx, ctx, action, query);
    const rows = report.rows.filter((r) => r.codes.length > 0);
    const records = billingCsvRecords(rows, await report.claims());
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
    authorize(mayCloseBillingMonth(ctx.actor), {
      action,
      resourceType: 'billing',
      resourceId: month,
      reason: 'not an admin',
    });
    const refuse = (status: number, message: string, reason: string) =>
      new AuditedRefusal(status, message, {
        action,
        outcome: 'failure',
        resourceType: 'billing',
        resourceId: month,
        reason,
      });
    const { start, end } = monthBounds(month);
    // Each organization's today differs by hours at most; UTC's is the one every month ends by.
    if (end >= new Date().toISOString().slice(0, 10)) throw refuse(400, BillingErrors.futureMonth, 'month not over');
    const closedAt = await insertClosedMonth(tx, start, ctx.actor.id);
    if (!closedAt) throw refuse(409, BillingErrors.alreadyClosed, 'already closed');
    const snapshot = await snapshotOf(tx, month);
    await insertMonthSnapshot(tx, start, snapshot);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'billing',
      resourceId: month,
      details: { patients: snapshot.filter((r) => r.enrolled).length },
    });
    return { month, closed: true, closed_at: closedAt.toISOString() };
  });
}

/**
 * Every patient's month as it stands at closing, computed set-based (one query per part, not per
 * patient): the report's line, the CSV's claim fields and the evidence of the patient's page.
 */
async function snapshotOf(tx: Queryable, month: string): Promise<MonthSnapshotRow[]> {
  const { start, end } = monthBounds(month);
  const inputs = await billingInputs(tx, {
    monthStart: start,
    monthEnd: end,
    organizationId: null,
    everyPatient: true,
  });
  const ids = inputs.map((i) => i.patient_id);
  const claims = new Map((await billingPatientDetails(tx, ids)).map((d) => [d.patient_id, d]));
  const days = groupByPatient(await readingDays(tx, start, end, null));
  const entries = groupByPatient(await monthTimeEntries(tx, start, end, null));
  return inputs.map((input, position) => ({
    patient_id: input.patient_id,
    organization_id: input.organization_id,
    enrolled: input.enrolled,
    position,
    line: billRow(month, input),
    claim: claims.get(input.patient_id) ?? emptyClaim(input),
    evidence: {
      time_zone: input.time_zone,
      reading_days: (days.get(input.patient_id) ?? []).map(({ day, readings }) => ({ day, readings })),
      entries: (entries.get(input.patient_id) ?? []).map(presentTimeEntry),
    },
  }));
}

const emptyClaim = (input: BillingInputRow): BillingPatientDetails => ({
  patient_id: input.patient_id,
  date_of_birth: null,
  insurance_type: null,
  policy_number: null,
  primary_provider: null,
  organization: '',
});

function groupByPatient<T extends { patient_id: number }>(rows: T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) groups.set(row.patient_id, [...(groups.get(row.patient_id) ?? []), row]);
  return groups;
}

/** Whether tracking time dated `date` falls in a month submitted for billing (the tracking service refuses it). */
export const isBillingMonthClosed = (tx: Queryable, date: string): Promise<boolean> => isDateInClosedMonth(tx, date);

/**
 * Which of these readings (patient, measured time) fall in a closed month, in the patient's
 * organization's time zone: ingestion rejects those (BillingErrors.monthClosed) rather than let the
 * database refuse the whole batch with CLOSED_MONTH_SQLSTATE.
 */
export const readingsInClosedMonths = (
  tx: Queryable,
  readings: readonly { patientId: number; at: string }[],
): Promise<boolean[]> => inClosedMonths(tx, readings);

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
    const month = requestedMonth ?? currentMonth(await patientTimeZone(tx, patientId));
    const { start } = monthBounds(month);
    const closedAt = await findClosedMonth(tx, start);
    const [closed] = closedAt
      ? await monthSnapshot<BillingRow, BillingPatientDetails, Evidence>(tx, start, { organizationId: null, patientId })
      : [];
    // A patient added after the close has no line in it; their (empty) month is computed as usual.
    const {
      row,
      time_zone: timeZone,
      reading_days: days,
      entries,
    } = closed
      ? { row: closed.line, ...closed.evidence }
      : await liveMonth(tx, month, patientId, patient.organization_id);
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

/** One patient's open month, as the data stands now. */
async function liveMonth(
  tx: Queryable,
  month: string,
  patientId: number,
  organizationId: number,
): Promise<Evidence & { row: BillingRow }> {
  const { start, end } = monthBounds(month);
  const [input] = await billingInputs(tx, { monthStart: start, monthEnd: end, organizationId, patientId });
  if (!input) throw notFound();
  return {
    row: billRow(month, input),
    time_zone: input.time_zone,
    reading_days: (await readingDays(tx, start, end, patientId)).map(({ day, readings }) => ({ day, readings })),
    entries: (await monthTimeEntries(tx, start, end, patientId)).map(presentTimeEntry),
  };
}
