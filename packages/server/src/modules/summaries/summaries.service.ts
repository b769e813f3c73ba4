import { PassThrough, type Readable } from 'node:stream';
import {
  DEFAULT_SUMMARY_PAPER,
  effectiveThresholds,
  measurementKind,
  summaryPdfFileName,
  type AuditAction,
  type BillingCodeUnits,
  type MonthlySummary,
  type SummaryArchiveQuery,
  type SummaryPaper,
} from '@rpm/contracts';
import type pg from 'pg';
import yazl from 'yazl';
import type { Queryable } from '../../db/pool.ts';
import { authorize, requirePatientAccess } from '../../kernel/access.ts';
import { auditedTransaction } from '../../kernel/audited-transaction.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { HttpError, notFound } from '../../kernel/errors.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { summaryArchiveScope } from '../../policies/summaries.ts';
import { getPatientBilling } from '../billing/index.ts';
import { renderSummaryPdf } from './summaries.pdf.ts';
import { presentSummary, summarizeAlerts, summarizeReadings } from './summaries.presenter.ts';
import {
  monthAlerts,
  monthNotes,
  monthReadings,
  monthTracking,
  monthsWithReadings,
  providerPatientIds,
  summaryHead,
  thresholdOverrides,
} from './summaries.repository.ts';

type Deps = { db: pg.Pool };

/** A month's summary with the ids of the readings it was computed from (the FHIR report references them). */
export interface SummaryData {
  summary: MonthlySummary;
  observationIds: number[];
}

/**
 * The figures of one patient's month, with no access check: callers check first (the summary
 * routes with the patient rule, FHIR with its reader rule). `codes` are what billing says the
 * patient earned (FHIR, which has no staff member to ask billing for, passes none).
 */
export async function summaryData(
  db: Queryable,
  patientId: number,
  month: string,
  codes: BillingCodeUnits[],
): Promise<SummaryData | undefined> {
  const head = await summaryHead(db, patientId, month);
  if (!head) return undefined;
  const period = { start: head.period_start, end: head.period_end, timeZone: head.time_zone };
  // One after the other: a transaction's client runs one query at a time.
  const { programs } = head;
  const overrides = await thresholdOverrides(db, patientId, head.organization_id);
  const readings = await monthReadings(db, patientId, period);
  const alerts = await monthAlerts(db, patientId, period);
  const notes = await monthNotes(db, patientId, period);
  const tracking = await monthTracking(db, patientId, month);
  const context = { programs, thresholds: effectiveThresholds(overrides.organization, overrides.patient, programs) };
  return {
    summary: presentSummary({
      month,
      head,
      programs,
      kinds: summarizeReadings(readings, context),
      alerts: summarizeAlerts(alerts),
      notes,
      tracking,
      codes,
    }),
    // The ones FHIR serves as Observations: of a registered kind.
    observationIds: readings.filter((r) => measurementKind(r.kind)).map((r) => r.id),
  };
}

/**
 * The codes the billing module says the patient earned in the month (its one implementation; a
 * closed month from its snapshot). A patient billing has no line for (not enrolled) earned none.
 */
async function codesEarned(deps: Deps, ctx: SignedInContext, patientId: number, month: string) {
  try {
    return (await getPatientBilling(deps, ctx, patientId, month)).row.codes;
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 404) return [];
    throw err;
  }
}

/** One patient's month, after the patient rule, audited as `action`. */
async function readSummary(
  deps: Deps,
  ctx: SignedInContext,
  patientId: number,
  month: string,
  action: AuditAction,
  details: Record<string, unknown> = {},
): Promise<MonthlySummary> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    await requirePatientAccess(tx, ctx, patientId, action);
    const codes = await codesEarned(deps, ctx, patientId, month);
    const data = await summaryData(tx, patientId, month, codes);
    if (!data) throw notFound();
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'patient',
      resourceId: patientId,
      details: { month, kinds: data.summary.kinds.length, readings: data.observationIds.length, ...details },
    });
    return data.summary;
  });
}

/** GET /api/patients/{id}/summary */
export const getMonthlySummary = (deps: Deps, ctx: SignedInContext, patientId: number, month: string) =>
  readSummary(deps, ctx, patientId, month, 'summary.read');

/** GET /api/patients/{id}/summary.pdf: the PHI export, audited before its bytes leave. */
export async function monthlySummaryPdf(
  deps: Deps,
  ctx: SignedInContext,
  patientId: number,
  month: string,
  paper: SummaryPaper = DEFAULT_SUMMARY_PAPER,
): Promise<Buffer> {
  const summary = await readSummary(deps, ctx, patientId, month, 'summary.pdf', { paper });
  return renderSummaryPdf(summary, paper);
}

/**
 * GET /api/summaries.zip: one PDF per enrolled patient of the provider, as one zip archive. The
 * access decision and the audit record (with the patient count and ids) commit before the first
 * byte is sent; the PDFs are then made one after the other while the archive streams out, so
 * memory holds one patient's document at a time.
 */
export async function summaryArchive(
  deps: Deps,
  ctx: SignedInContext,
  query: SummaryArchiveQuery,
): Promise<Readable> {
  const action = 'summary.archive';
  const paper = query.paper ?? DEFAULT_SUMMARY_PAPER;
  const patientIds = await auditedTransaction(deps.db, ctx, async (tx) => {
    const scope = summaryArchiveScope(ctx.actor, query.provider_id ?? null);
    authorize(scope !== false, {
      action,
      resourceType: 'summary',
      resourceId: query.month,
      reason: 'patients of another provider',
      details: { provider_id: query.provider_id ?? null },
    });
    const ids = await providerPatientIds(tx, scope.providerId, scope.organizationId);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'summary',
      resourceId: query.month,
      details: { provider_id: scope.providerId, patients: ids.length, patient_ids: ids, paper },
    });
    return ids;
  });
  const zip = new yazl.ZipFile();
  const out = new PassThrough();
  zip.outputStream.pipe(out);
  void (async () => {
    try {
      for (const id of patientIds) {
        const codes = await codesEarned(deps, ctx, id, query.month);
        const data = await summaryData(deps.db, id, query.month, codes);
        if (!data) continue;
        zip.addBuffer(await renderSummaryPdf(data.summary, paper), summaryPdfFileName(id, query.month));
      }
      zip.end();
    } catch (err) {
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  })();
  return out;
}

/** The months ('YYYY-MM', organization's time zone) in which the patient has readings, newest first; no access check. */
export const summaryMonths = (db: Queryable, patientId: number): Promise<string[]> => monthsWithReadings(db, patientId);
