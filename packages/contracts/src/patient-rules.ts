import { Type } from 'typebox';
import { PatientErrors } from './errors.ts';
import { isDateFrom1900ToToday } from './validation.ts';

/*
 * The rules of a patient's evidence fields (diagnosis codes, consent date), shared by the patient
 * form and the server. A module of their own: the patient list's first load carries none of it.
 */

/**
 * An ICD-10-CM code as the database accepts it (migration 0980, rpm_icd10_codes_valid): a letter
 * other than U, a digit, a digit or A/B, then optionally a dot and 1 to 4 more characters.
 */
export const ICD10_CM_PATTERN = /^[A-TV-Z][0-9][0-9AB](\.[0-9A-TV-Z]{1,4})?$/;
export const MAX_DIAGNOSIS_CODES = 12;

/** A code as typed, in the stored form: blanks removed, upper case ("e11.9 " -> "E11.9"). */
export function normalizeDiagnosisCode(code: string): string {
  return code.replace(/\s+/g, '').toUpperCase();
}

/** The codes of a form or request, normalized, blanks and repeats left out, in the order given. */
export function normalizeDiagnosisCodes(codes: readonly string[]): string[] {
  return [...new Set(codes.map(normalizeDiagnosisCode).filter(Boolean))];
}

export const isDiagnosisCode = (code: string): boolean => ICD10_CM_PATTERN.test(code);

/** The codes typed into one field, separated by commas, semicolons or lines. */
export const splitDiagnosisCodes = (text: string): string[] => normalizeDiagnosisCodes(text.split(/[,;\n]+/));

/** What is wrong with a list of codes: one text per bad code, or the count; empty when fine. */
export function diagnosisCodeProblems(codes: readonly string[]): string[] {
  const problems = codes.filter((c) => !isDiagnosisCode(c)).map(PatientErrors.diagnosisCodeInvalid);
  if (codes.length > MAX_DIAGNOSIS_CODES) problems.push(PatientErrors.tooManyDiagnosisCodes);
  return problems;
}

/** The form's diagnosis field: its codes checked as the server checks them, each bad one named. */
export const diagnosisCodesText = () =>
  Type.Refine(
    Type.String(),
    (text: string) => diagnosisCodeProblems(splitDiagnosisCodes(text)).length === 0,
    (text: string) => diagnosisCodeProblems(splitDiagnosisCodes(text)).join(' '),
  );

/** The form's consent date: empty, or a day from 1900-01-01 to today. */
export const consentDateText = () =>
  Type.Refine(
    Type.String(),
    (text: string) => text.trim() === '' || isDateFrom1900ToToday(text.trim()),
    () => PatientErrors.consentDateOutOfRange,
  );
