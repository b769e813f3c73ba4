import { createHash } from 'node:crypto';
import type { Bundle, DiagnosticReport } from '@medplum/fhirtypes';
import { FHIR_BUNDLE_MAX_ENTRIES, SummaryTexts, summaryConclusion, summaryMonthLabel } from '@rpm/contracts';
import type pg from 'pg';
import { Type } from 'typebox';
import { audit } from '../../kernel/audit-writer.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import { summaryData, summaryMonths, type SummaryData } from '../summaries/index.ts';
import { notFound, reader, sourceDetails, type FhirAnswer } from './fhir.auth.ts';
import { readablePatient } from './fhir.read.service.ts';
import { patientSearch } from './fhir-search-criteria.ts';
import { knownParameters, PatientDateParams, type SearchRequest } from './fhir-search.ts';
import type { DateCondition } from './fhir.repository.ts';

/*
 * The monthly summary for the physician as an R4 DiagnosticReport, so that an EHR can pull it.
 * Its id names the patient and the calendar month (`{patient}-{YYYY-MM}`, e.g. `12-2026-03`): the
 * report is computed from the month's data when read, not stored. No LOINC code names a remote
 * monitoring month summary, so the code is a text code (CodeableConcept.text only).
 */

const REPORT_ID = /^(\d{1,9})-(\d{4}-(?:0[1-9]|1[0-2]))$/;
export const DiagnosticReportSearch = Type.Object({
  ...PatientDateParams,
  _count: Type.Optional(Type.Integer({ minimum: 1, maximum: FHIR_BUNDLE_MAX_ENTRIES })),
});
export const DiagnosticReportIdParam = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const reportId = (patientId: number, month: string) => `${patientId}-${month}`;

export function presentDiagnosticReport({ summary: s, observationIds }: SummaryData): DiagnosticReport {
  // Period.end is inclusive in FHIR: the month's last millisecond.
  const lastInstant = new Date(new Date(s.period_end).getTime() - 1).toISOString();
  const report: DiagnosticReport = {
    resourceType: 'DiagnosticReport',
    id: reportId(s.patient.id, s.month),
    // A month still running can change; once over in the organization's time zone, it is final.
    status: s.complete ? 'final' : 'partial',
    code: { text: SummaryTexts.reportCodeText },
    subject: { reference: `Patient/${s.patient.id}`, display: s.patient.name },
    effectivePeriod: { start: s.period_start, end: lastInstant },
    performer: [{ display: s.organization.name }],
    result: observationIds.map((id) => ({ reference: `Observation/${id}` })),
    conclusion: summaryConclusion({
      monthLabel: summaryMonthLabel(s.month),
      kinds: s.kinds,
      alerts: s.alerts.raised,
      minutes: s.tracking.minutes,
    }),
  };
  // The report is computed when read, not stored: its version is its content (the same figures,
  // the same versionId and ETag), and it was last updated now, when it was made.
  const versionId = createHash('sha256').update(JSON.stringify(report)).digest('hex').slice(0, 32);
  return { ...report, meta: { versionId, lastUpdated: new Date().toISOString() } };
}

/** GET /fhir/R4/DiagnosticReport/{patient}-{YYYY-MM} */
export async function readDiagnosticReport(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  id: string,
): Promise<FhirAnswer> {
  const action = 'fhir.diagnostic_report.read';
  const who = await reader(db, ctx, authorization, action, { resourceType: 'DiagnosticReport', interaction: 'r' });
  const m = REPORT_ID.exec(id);
  if (!m) {
    await audit(db, ctx, {
      action,
      outcome: 'failure',
      resourceType: 'diagnostic_report',
      reason: 'no such report',
      details: { ...sourceDetails(who), id: id.slice(0, 64) },
    });
    throw notFound();
  }
  const patientId = Number(m[1]);
  const month = m[2]!;
  await readablePatient(db, ctx, who, patientId, action);
  const data = await summaryData(db, patientId, month, []);
  if (!data) throw notFound();
  await audit(db, ctx, {
    action,
    outcome: 'success',
    resourceType: 'patient',
    resourceId: patientId,
    details: { ...sourceDetails(who), month, results: data.observationIds.length },
  });
  return { status: 200, body: presentDiagnosticReport(data) };
}

/**
 * A month as calendar dates: searches name months and days as the clinic reads them (in the
 * organization's time zone), so `date=2026-03` is March, not the hours of February that are
 * March 1 in UTC. The dates are compared on the UTC calendar, which is how the search value is read.
 */
function calendarMonth(month: string): [Date, Date] {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return [new Date(Date.UTC(year, mon - 1, 1)), new Date(Date.UTC(year, mon, 1))];
}

/** Whether [start, end) of a month meets a date condition (R4 date search on a Period: overlap). */
function monthMeets(c: DateCondition, start: Date, end: Date): boolean {
  const inside = (c.start === null || end > c.start) && (c.end === null || start < c.end);
  if (!c.outside) return inside;
  // ne: the month is not wholly inside the range.
  return !((c.start === null || start >= c.start) && (c.end === null || end <= c.end));
}

/**
 * GET /fhir/R4/DiagnosticReport?patient={id}[&date=…]: the patient's monthly reports, one per
 * month with readings, newest first, those whose period meets every date condition
 * (`date=2026-03` is March's report).
 */
export async function searchDiagnosticReports(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  q: { patient?: string; subject?: string; date?: string | string[]; _count?: number },
  baseUrl: string,
  request: SearchRequest = { rawQuery: '', prefer: undefined },
): Promise<FhirAnswer> {
  const action = 'fhir.diagnostic_report.search';
  const who = await reader(db, ctx, authorization, action, { resourceType: 'DiagnosticReport', interaction: 's' });
  knownParameters(request, ['patient', 'subject', 'date', '_count']);
  const { patientId, dates } = patientSearch(q);
  const count = q._count ?? 12;
  await readablePatient(db, ctx, who, patientId, action);
  const reports: DiagnosticReport[] = [];
  for (const month of await summaryMonths(db, patientId)) {
    if (reports.length >= count) break;
    if (!dates.every((c) => monthMeets(c, ...calendarMonth(month)))) continue;
    const data = await summaryData(db, patientId, month, []);
    if (!data) continue;
    reports.push(presentDiagnosticReport(data));
  }
  const params = new URLSearchParams({ patient: String(patientId) });
  for (const d of [q.date ?? []].flat()) params.append('date', d);
  params.set('_count', String(count));
  await audit(db, ctx, {
    action,
    outcome: 'success',
    resourceType: 'patient',
    resourceId: patientId,
    details: { ...sourceDetails(who), count: reports.length, months: reports.map((r) => r.id) },
  });
  const bundle: Bundle = {
    resourceType: 'Bundle',
    type: 'searchset',
    total: reports.length,
    link: [{ relation: 'self', url: `${baseUrl}/fhir/R4/DiagnosticReport?${params.toString()}` }],
    entry: reports.map((resource) => ({
      fullUrl: `${baseUrl}/fhir/R4/DiagnosticReport/${resource.id}`,
      resource,
      search: { mode: 'match' },
    })),
  };
  return { status: 200, body: bundle };
}
