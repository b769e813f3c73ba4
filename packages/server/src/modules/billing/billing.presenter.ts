import {
  BillingCsvColumns,
  type BillingEvidencePatient,
  type BillingRow,
  type BillingTimeEntry,
  type BillingWorklistRow,
} from '@rpm/contracts';
import type { MonthOutlook, PatientMonthResult } from './billing-rules.ts';
import type { BillingInputRow } from './billing.repository.ts';
import type {
  BillingPatientDetails,
  EvidencePatientRow,
  TimeEntryRow,
  WorklistDetailsRow,
} from './billing.details.repository.ts';

export const presentBillingRow = (input: BillingInputRow, result: PatientMonthResult): BillingRow => ({
  patient_id: input.patient_id,
  patient_name: input.patient_name,
  organization_id: input.organization_id,
  period_start: result.period_start,
  period_end: result.period_end,
  device_days: result.device_days,
  minutes: input.minutes,
  interactive: input.interactive,
  codes: result.codes,
  missing: result.missing,
});

export const presentTimeEntry = (e: TimeEntryRow): BillingTimeEntry => ({
  id: e.id,
  date: e.date,
  duration_minutes: e.duration_minutes,
  interactive: e.interactive,
  contact_type: e.contact_type,
  activity: e.activity,
  notes: e.notes,
  logged_by: e.logged_by,
});

export const presentEvidencePatient = (p: EvidencePatientRow): BillingEvidencePatient => ({
  name: p.name,
  date_of_birth: p.date_of_birth,
  insurances: p.insurances,
  devices: p.devices,
  ordering_provider: p.ordering_provider,
  consent_date: p.consent_date,
  diagnosis_codes: p.diagnosis_codes,
});

/** A worklist row: the report's figures of the month, what can still come of it, and the triage columns. */
export const presentWorklistRow = (
  row: BillingRow,
  outlook: Omit<MonthOutlook, 'rank'>,
  active: boolean,
  details: WorklistDetailsRow | undefined,
): BillingWorklistRow => ({
  patient_id: row.patient_id,
  patient_name: row.patient_name,
  organization_id: row.organization_id,
  primary_provider_id: details?.primary_provider_id ?? null,
  primary_provider: details?.primary_provider ?? null,
  programs: details?.programs ?? [],
  active,
  period_start: row.period_start,
  period_end: row.period_end,
  device_days: row.device_days,
  days_left: outlook.days_left,
  device_outlook: outlook.device_outlook,
  minutes: row.minutes,
  next_minutes: outlook.next_minutes,
  interactive: row.interactive,
  codes: row.codes,
  needs: outlook.needs,
  at_risk: outlook.at_risk,
  last_reading_at: details?.last_reading_at ? new Date(details.last_reading_at).toISOString() : null,
  last_outreach_at: details?.last_outreach_at ? new Date(details.last_outreach_at).toISOString() : null,
});

/**
 * A spreadsheet runs a cell starting with =, +, - or @ (and tab or carriage return, which some
 * read past) as a formula: such a cell is prefixed with an apostrophe so it stays text (OWASP).
 * Spreadsheets also skip leading spaces before a formula and read the full-width forms
 * (＝ ＋ － ＠, which East Asian input methods type) as the ASCII ones, so those start a formula too.
 */
const FORMULA_START = /^[\s\u3000]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
export const escapeCsvCell = (value: string): string => (FORMULA_START.test(value) ? `'${value}` : value);

/** The export's records: a header, then one line per patient and code earned. */
export function billingCsvRecords(rows: readonly BillingRow[], details: readonly BillingPatientDetails[]): string[][] {
  const byPatient = new Map(details.map((d) => [d.patient_id, d]));
  const records: string[][] = [[...BillingCsvColumns]];
  for (const row of rows) {
    const d = byPatient.get(row.patient_id);
    for (const c of row.codes) {
      records.push([
        row.patient_name,
        d?.date_of_birth ?? '',
        d?.insurance_type ?? '',
        d?.policy_number ?? '',
        d?.primary_provider ?? '',
        d?.organization ?? '',
        c.code,
        String(c.units),
        c.period_start,
        c.period_end,
      ]);
    }
  }
  return records;
}
