// What a search's criteria select: its date conditions, its kinds (by code and category), its patient.
import { FhirErrors, MEASUREMENT_KINDS, parseFhirDateTime, type MeasurementKind } from '@rpm/contracts';
import { FhirError } from './fhir.auth.ts';
import { CATEGORY_SYSTEM, emittedCodes, LOINC } from './fhir.presenter.ts';
import type { DateCondition } from './fhir.repository.ts';
import { orLists, parseToken } from './fhir-search.ts';
export const registryKinds: readonly MeasurementKind[] = MEASUREMENT_KINDS;

const SEARCH_DATE = /^(eq|ne|lt|le|gt|ge|sa|eb)?(.*)$/;

/**
 * A FHIR date search value as R4 reads it: the value stands for the whole range of its precision
 * (`2026-10-05` is that day, `2026-10` that month, `…T10:00:00Z` that second), and the prefix
 * compares the reading's instant with that range: eq inside it, ne outside it, lt / eb before
 * its start, le before its end, gt / sa after its end, ge from its start. No prefix is eq.
 */
export function dateCondition(value: string): DateCondition {
  const [, prefix = 'eq', rest = ''] = SEARCH_DATE.exec(value) ?? [];
  const range = parseFhirDateTime(rest, false);
  if (!range) throw new FhirError(400, 'invalid', FhirErrors.searchDate(value.slice(0, 40)));
  const { start, end } = range;
  switch (prefix) {
    case 'ne':
      return { start, end, outside: true };
    case 'lt':
    case 'eb':
      return { start: null, end: start, outside: false };
    case 'le':
      return { start: null, end, outside: false };
    case 'gt':
    case 'sa':
      return { start: end, end: null, outside: false };
    case 'ge':
      return { start, end: null, outside: false };
    default:
      return { start, end, outside: false };
  }
}

/**
 * A token search value against a code of `system` (R4 search 3.1.1.4.10): `code` matches in any
 * system, `system|code` only in that system, `system|` any code of that system, and `|code` only
 * a code without a system (none of the portal's).
 */
function tokenMatches(value: string, system: string, code: string): boolean {
  const t = parseToken(value);
  if (t.system === undefined) return t.value === code;
  if (t.system === null) return false;
  return t.system === system && (t.value === '' || t.value === code);
}

/**
 * The kinds a search's `code` and `category` parameters select: each parameter given narrows
 * (AND), the comma-separated values of one widen (OR). `code` matches the codes a kind's
 * Observations carry in `code` (what a client reads back), `category` its FHIR category. A code
 * no kind has selects nothing.
 */
export function kindsSearched(q: { code?: string | string[]; category?: string | string[] }): string[] {
  const selects = (lists: string[][], matches: (k: MeasurementKind, v: string) => boolean) => (k: MeasurementKind) =>
    lists.every((values) => values.some((v) => matches(k, v)));
  const byCode = selects(orLists(q.code, 'code'), (k, v) => emittedCodes(k).some((c) => tokenMatches(v, LOINC, c)));
  const byCategory = selects(orLists(q.category, 'category'), (k, v) => tokenMatches(v, CATEGORY_SYSTEM, k.category));
  return registryKinds.filter((k) => byCode(k) && byCategory(k)).map((k) => k.kind);
}

/** A search's `patient` (required: `Patient/{id}` or `{id}`) and its `date` conditions. */
export function patientSearch(q: { patient?: string; subject?: string; date?: string | string[] }): {
  patientId: number;
  dates: DateCondition[];
} {
  // `subject` is R4's other name for the same reference when it is a Patient (`Patient/{id}`).
  const named = [q.patient, q.subject].flatMap((v) => (v === undefined ? [] : [/^(?:Patient\/)?(\d{1,9})$/.exec(v)]));
  const ids = new Set(named.map((m) => (m ? Number(m[1]) : NaN)));
  const [id] = [...ids];
  if (ids.size !== 1 || id === undefined || Number.isNaN(id))
    throw new FhirError(400, 'required', FhirErrors.patientSearch);
  return { patientId: id, dates: [q.date ?? []].flat().map(dateCondition) };
}
