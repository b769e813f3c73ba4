import { FhirErrors } from '@rpm/contracts';
import { Type } from 'typebox';
import { FhirError } from './fhir.auth.ts';
import type { Token } from './fhir.repository.ts';

/**
 * What R4 search (http://hl7.org/fhir/R4/search.html) asks of every search this server answers:
 * `Prefer: handling=strict|lenient` for parameters it does not know, token values, the links of a
 * page, and an opaque paging cursor.
 */

/** The request as a search sees it: the raw query string (for parameter names and links) and its Prefer header. */
export interface SearchRequest {
  rawQuery: string;
  prefer: string | undefined;
}

/** The patient (`patient`, or `subject` naming a Patient) and `date` conditions of a search of one patient's resources. */
export const PatientDateParams = {
  patient: Type.Optional(Type.String({ maxLength: 100 })),
  subject: Type.Optional(Type.String({ maxLength: 100 })),
  date: Type.Optional(
    Type.Union([Type.String({ maxLength: 40 }), Type.Array(Type.String({ maxLength: 40 }), { maxItems: 2 })]),
  ),
};

/** General parameters a client may send to any search that change nothing here (R4 http.html `_format`). */
const HARMLESS = ['_format', '_pretty'];

/** `Prefer: handling=strict` (R4 search 3.1.1.3.4): refuse what is not understood; lenient is the default. */
export function isStrict(prefer: string | undefined): boolean {
  return (prefer ?? '')
    .split(/[,;]/)
    .map((p) => p.trim().toLowerCase().replace(/\s+/g, ''))
    .includes('handling=strict');
}

/**
 * The parameters of a search this server knows, in the order sent: with `handling=strict` an
 * unknown one (a name not supported, or with a modifier not supported such as `code:text`) is a
 * 400 OperationOutcome; leniently it is ignored, and left out of the Bundle's links so that
 * they say what the server actually did.
 */
export function knownParameters(request: SearchRequest, known: readonly string[]): URLSearchParams {
  const sent = new URLSearchParams(request.rawQuery);
  const used = new URLSearchParams();
  const strict = isStrict(request.prefer);
  for (const [name, value] of sent) {
    if (known.includes(name)) used.append(name, value);
    else if (strict && !HARMLESS.includes(name))
      throw new FhirError(400, 'not-supported', FhirErrors.unknownSearchParameter(name.slice(0, 64), known));
  }
  return used;
}

/**
 * A value the server does not support for a parameter it knows (`_sort=code`): refused under
 * `handling=strict`, else ignored (`false`: the caller goes on as if it were not sent).
 */
export function supportedValue(
  request: SearchRequest,
  name: string,
  value: string,
  supported: readonly string[],
): boolean {
  if (supported.includes(value)) return true;
  if (isStrict(request.prefer))
    throw new FhirError(400, 'not-supported', FhirErrors.unsupportedValue(name, value.slice(0, 64), supported));
  return false;
}

/** The comma-separated values of each occurrence of a parameter: occurrences AND, values OR (R4 3.1.1.2). */
export function orLists(values: string | string[] | undefined, name: string): string[][] {
  return [values ?? []].flat().map((v) => {
    const list = splitValues(v).filter((x) => x.length > 0);
    if (list.length === 0) throw new FhirError(400, 'invalid', FhirErrors.emptySearchValue(name));
    return list;
  });
}

/** Splits on commas not escaped with a backslash (R4 3.1.1.2: `\,` is a comma inside a value). */
function splitValues(v: string): string[] {
  const out: string[] = [];
  let current = '';
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (c === '\\' && i + 1 < v.length && [',', '$', '|', '\\'].includes(v[i + 1]!)) {
      current += v[++i];
    } else if (c === ',') {
      out.push(current.trim());
      current = '';
    } else current += c;
  }
  out.push(current.trim());
  return out;
}

/** A token value: `system|code`, `|code` (no system) or `code` (any system). */
export function parseToken(v: string): Token {
  const bar = v.indexOf('|');
  if (bar < 0) return { value: v };
  const system = v.slice(0, bar);
  return { system: system === '' ? null : system, value: v.slice(bar + 1) };
}

/**
 * A page position handed to clients inside `next` links: what they send back is opaque to them
 * and checked here (a position of another search, or made up, is a 400, never a wrong page).
 */
export function encodeCursor(position: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

export function decodeCursor<T>(cursor: string, shape: (v: Record<string, unknown>) => T | null): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const position =
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? shape(parsed as Record<string, unknown>)
      : null;
  if (position === null) throw new FhirError(400, 'invalid', FhirErrors.cursor);
  return position;
}

/** A search page's links: self (this page), first, and next when there is more. */
export function pageLinks(
  url: (params: URLSearchParams) => string,
  params: URLSearchParams,
  self: Record<string, string>,
  next: Record<string, string> | null,
): { self: string; first: string; next?: string } {
  const withParams = (extra: Record<string, string>) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(extra)) p.set(k, v);
    return url(p);
  };
  return { self: withParams(self), first: withParams({}), ...(next ? { next: withParams(next) } : {}) };
}
