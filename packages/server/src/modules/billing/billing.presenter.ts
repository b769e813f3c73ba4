import { BillingCsvColumns, type BillingRow, type BillingTimeEntry } from '@rpm/contracts';
import type { PatientMonthResult } from './billing-rules.ts';
import type { BillingInputRow, BillingPatientDetails, TimeEntryRow } from './billing.repository.ts';

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
