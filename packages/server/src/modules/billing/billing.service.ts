import {
  BILLING_PAGE_SIZE,
  type BillingEvidencePatient,
  type BillingQuery,
  type BillingReportQuery,
  type BillingReport,
  type BillingRow,
  type BillingTotal,
  type PatientBilling,
  type AuditAction,
} from '@rpm/contracts';
import { stringify } from 'csv-stringify/sync';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import { authorize, requirePatientAccess } from '../../kernel/access.ts';
import { auditedTransaction } from '../../kernel/audited-transaction.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { notFound } from '../../kernel/errors.ts';
import { monthIn } from '../../kernel/time.ts';
import { billingReportScope } from '../../policies/billing.ts';
import {
  billingCsvRecords,
  escapeCsvCell,
  presentBillingRow,
  presentEvidencePatient,
  presentTimeEntry,
} from './billing.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { billPatientMonth, monthBounds, totalsOf } from './billing-rules.ts';
import { monthInputOf, openMonthPage } from './billing-lines.service.ts';
import { billingInputs, patientTimeZone, readingDays, type BillingInputRow } from './billing.repository.ts';
import {
  billingPatientDetails,
  evidencePatients,
  monthTimeEntries,
  type BillingPatientDetails,
} from './billing.details.repository.ts';
import {
  findClosedMonth,
  inClosedMonths,
  isDateInClosedMonth,
  monthSnapshot,
  monthSnapshotPage,
  type SnapshotRow,
} from './billing.months.repository.ts';

export type Deps = { db: pg.Pool };

/**
 * What one patient's page shows besides the row: the evidence, as it was when the month closed.
 * `patient` is absent from the snapshots of months closed before it was kept (then read live).
 */
export type Evidence = Pick<PatientBilling, 'time_zone' | 'reading_days' | 'entries'> & {
  patient?: BillingEvidencePatient;
};
export type MonthSnapshotRow = SnapshotRow<BillingRow, BillingPatientDetails, Evidence>;

/** The report's row of a patient's month: the rules applied to the database's counts. */
export const billRow = (month: string, input: BillingInputRow): BillingRow =>
  presentBillingRow(input, billPatientMonth(monthInputOf(month, input)));

/** The organization the actor may read billing for (null: all), or an audited refusal. */
export function requireBillingScope(
  ctx: SignedInContext,
  action: AuditAction,
  month: string | null,
  organizationId: number | null,
): number | null {
  const scope = billingReportScope(ctx.actor, organizationId);
  authorize(scope !== false, {
    action,
    resourceType: 'billing',
    resourceId: month,
    reason: 'organization of another provider',
    details: { organization_id: organizationId },
  });
  return scope;
}

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
): Promise<{
  rows: BillingRow[];
  closed: Awaited<ReturnType<typeof findClosedMonth>>;
  claims: () => Promise<BillingPatientDetails[]>;
}> {
  const scope = requireBillingScope(ctx, action, query.month, query.organization_id ?? null);
  const { start, end } = monthBounds(query.month);
  const closed = await findClosedMonth(tx, start);
  if (closed) {
    const snapshot = await monthSnapshot<BillingRow, BillingPatientDetails, Evidence>(tx, start, {
      organizationId: scope,
    });
    return { rows: snapshot.map((s) => s.line), closed, claims: async () => snapshot.map((s) => s.claim) };
  }
  const inputs = await billingInputs(tx, { monthStart: start, monthEnd: end, organizationId: scope });
  const rows = inputs.map((input) => billRow(query.month, input));
  return {
    rows,
    closed,
    claims: () =>
      billingPatientDetails(
        tx,
        rows.filter((r) => r.codes.length > 0).map((r) => r.patient_id),
      ),
  };
}

/** The page a paged billing answer asks for (defaults as the contracts' schema gives them). */
export const pageOf = (query: { limit?: number; offset?: number }) => ({
  limit: query.limit ?? BILLING_PAGE_SIZE,
  offset: query.offset ?? 0,
});

/**
 * GET /api/billing: a page of every enrolled patient's month, the codes earned and what is
 * missing, with the count and the totals of all rows in scope. An open month's page and totals
 * are read from its kept lines (computed again first where stale, billing-lines.service.ts); a
 * closed month's from its snapshot; both in the database.
 */
export async function getBillingReport(
  deps: Deps,
  ctx: SignedInContext,
  query: BillingReportQuery,
): Promise<BillingReport> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const action = 'billing.report';
    const scope = requireBillingScope(ctx, action, query.month, query.organization_id ?? null);
    const { limit, offset } = pageOf(query);
    const { start } = monthBounds(query.month);
    const closed = await findClosedMonth(tx, start);
    let page: { rows: BillingRow[]; total: number; totals: BillingTotal[] };
    if (closed) {
      const kept = await monthSnapshotPage<BillingRow>(tx, start, { organizationId: scope }, { limit, offset });
      page = { rows: kept.lines.map((l) => l.line), total: kept.total, totals: totalsOf([{ codes: kept.units }]) };
    } else {
      const kept = await openMonthPage(tx, query.month, { organizationId: scope }, { limit, offset, order: 'report' });
      page = { rows: kept.lines.map((l) => l.line), total: kept.total, totals: totalsOf([{ codes: kept.units }]) };
    }
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'billing',
      resourceId: query.month,
      details: {
        organization_id: query.organization_id ?? null,
        patients: page.total,
        offset,
        shown: page.rows.length,
      },
    });
    return {
      month: query.month,
      closed: closed !== null,
      closed_at: closed?.closedAt.toISOString() ?? null,
      claims_sent_at: closed?.claimsSentAt?.toISOString() ?? null,
      rows: page.rows,
      total: page.total,
      limit,
      offset,
      totals: page.totals,
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
export const currentMonth = (timeZone: string): string => monthIn(timeZone);

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
    const { start, end } = monthBounds(month);
    const closedAt = await findClosedMonth(tx, start);
    const [closed] = closedAt
      ? await monthSnapshot<BillingRow, BillingPatientDetails, Evidence>(tx, start, { organizationId: null, patientId })
      : [];
    // A patient added after the close has no line in it; their (empty) month is computed as usual.
    const evidence = closed
      ? { row: closed.line, ...closed.evidence }
      : await liveMonth(tx, month, patientId, patient.organization_id);
    // A snapshot from before the claim's patient fields were kept: those are read as they are now.
    const who = evidence.patient ?? (await evidencePatientOf(tx, start, end, patientId));
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'patient',
      resourceId: patientId,
      details: { month, reading_days: evidence.reading_days.length, entries: evidence.entries.length },
    });
    return {
      month,
      closed: closedAt !== null,
      time_zone: evidence.time_zone,
      patient: who,
      row: evidence.row,
      reading_days: evidence.reading_days,
      // Entries kept before the contact type and activity were: neither was recorded.
      entries: evidence.entries.map((e) => ({
        ...e,
        contact_type: e.contact_type ?? null,
        activity: e.activity ?? null,
      })),
    };
  });
}

async function evidencePatientOf(
  tx: Queryable,
  start: string,
  end: string,
  patientId: number,
): Promise<BillingEvidencePatient> {
  const [row] = await evidencePatients(tx, start, end, [patientId]);
  if (!row) throw notFound();
  return presentEvidencePatient(row);
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
