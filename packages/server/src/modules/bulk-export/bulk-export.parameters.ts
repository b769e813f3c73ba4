// A kick-off's request as the Bulk Data spec defines it: Prefer and Accept headers, parameters (GET or POST).
import {
  BULK_EXPORT_TYPES,
  BULK_KICKOFF_PARAMS,
  BULK_OUTPUT_FORMATS,
  BulkExportErrors,
  parseFhirDateTime,
  type BulkExportType,
  type BulkKickoffParameters,
  type BulkKickoffQuery,
} from '@rpm/contracts';
import { FhirError } from '../fhir/index.ts';
/** `Prefer` directives, however the client spread them over one or more headers. */
export const preferences = (prefer: string | undefined) =>
  new Set(
    (prefer ?? '')
      .split(/[,;]/)
      .map((p) =>
        p
          .trim()
          .toLowerCase()
          .replace(/\s*=\s*/, '='),
      )
      .filter(Boolean),
  );

const ACCEPTABLE = ['application/fhir+json', 'application/json', '*/*', 'application/*'];
export const acceptable = (accept: string | undefined) =>
  accept === undefined ||
  accept.trim() === '' ||
  accept.split(',').some((a) => ACCEPTABLE.includes(a.split(';')[0]!.trim().toLowerCase()));

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

export const isExportType = (t: string): t is BulkExportType => (BULK_EXPORT_TYPES as readonly string[]).includes(t);

/** The kick-off's parameters as the spec defines them; a 400 names the first one wrong. */
export function kickoffParameters(query: BulkKickoffQuery, prefer: Set<string>) {
  if (prefer.has('handling=strict')) {
    const unknown = Object.keys(query).find((k) => !(BULK_KICKOFF_PARAMS as readonly string[]).includes(k));
    if (unknown !== undefined) throw new FhirError(400, 'not-supported', BulkExportErrors.unknownParameter(unknown));
  }
  const format = query._outputFormat;
  if (format !== undefined && !(BULK_OUTPUT_FORMATS as readonly string[]).includes(format)) {
    throw new FhirError(400, 'not-supported', BulkExportErrors.outputFormat(format));
  }
  const requested = [query._type ?? []]
    .flat()
    .flatMap((v) => v.split(','))
    .map((t) => t.trim())
    .filter(Boolean);
  for (const t of requested) if (!isExportType(t)) throw new FhirError(400, 'not-supported', BulkExportErrors.type(t));
  let since: Date | null = null;
  if (query._since !== undefined) {
    const range = INSTANT.test(query._since) ? parseFhirDateTime(query._since, true) : null;
    if (!range) throw new FhirError(400, 'invalid', BulkExportErrors.since(query._since));
    since = range.start;
  }
  return { types: [...new Set(requested)] as BulkExportType[], since };
}

/**
 * A POST kick-off's Parameters as the GET's query: `_type` may repeat, the others are single
 * values (an instant for `_since`); any other parameter is kept by name for strict handling.
 */
export function queryOfParameters(body: BulkKickoffParameters): BulkKickoffQuery {
  const query: Record<string, string | string[]> = {};
  for (const p of body.parameter ?? []) {
    const value = p.valueString ?? p.valueInstant ?? '';
    if (p.name === '_type') query._type = [...[query._type ?? []].flat(), value];
    else query[p.name] = value;
  }
  return query as BulkKickoffQuery;
}
