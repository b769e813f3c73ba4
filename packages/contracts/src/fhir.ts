import { Type, type Static, type TSchema } from 'typebox';

/**
 * FHIR R4 input, as the portal accepts it: the shape of an Observation (and of a Bundle's
 * envelope) checked field by field before any logic reads it, so that a number where a string
 * belongs, a null in a list or an unknown element is a 400 naming the field, never a crash.
 * The elements the portal reads are typed exactly; the other elements R4 defines for the
 * resource are allowed (senders such as PHD gateways send them) but not read.
 */

/** R4 Observation.status (required binding, http://hl7.org/fhir/observation-status). */
export const FHIR_OBSERVATION_STATUSES = [
  'registered',
  'preliminary',
  'final',
  'amended',
  'corrected',
  'cancelled',
  'entered-in-error',
  'unknown',
] as const;
export type FhirObservationStatus = (typeof FHIR_OBSERVATION_STATUSES)[number];
/**
 * The statuses stored as a reading: a complete, verified result. `preliminary` may still change
 * and `registered`/`unknown` carry no result; a reading that alerts and bills must be final, so
 * those (and `cancelled`, `entered-in-error`) are refused rather than stored as final.
 */
export const FHIR_STORED_STATUSES: readonly FhirObservationStatus[] = ['final', 'amended', 'corrected'];

/** Bounds that keep a hostile body cheap to check: ids, codes and texts of real senders are far shorter. */
const Str = (maxLength = 1000) => Type.String({ maxLength });
/** An element the portal does not read: any JSON value (its shape is the sender's business). */
const Anything = Type.Unknown();
/** id and extension are allowed on every FHIR element. */
const elementBase = {
  id: Type.Optional(Str(64)),
  extension: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 50 })),
};
const strict = <T extends Record<string, TSchema>>(properties: T) =>
  Type.Object({ ...elementBase, ...properties }, { additionalProperties: false });

export const FhirCoding = strict({
  system: Type.Optional(Str()),
  version: Type.Optional(Str(100)),
  code: Type.Optional(Str(200)),
  display: Type.Optional(Str()),
  userSelected: Type.Optional(Type.Boolean()),
});
export const FhirCodeableConcept = strict({
  coding: Type.Optional(Type.Array(FhirCoding, { maxItems: 20 })),
  text: Type.Optional(Str()),
});
/** A measured value: a JSON number (FHIR decimals are never strings), no comparator (a reading is exact). */
export const FhirQuantity = strict({
  value: Type.Optional(Type.Number()),
  unit: Type.Optional(Str(100)),
  system: Type.Optional(Str()),
  code: Type.Optional(Str(100)),
});
export const FhirIdentifier = strict({
  use: Type.Optional(Str(20)),
  type: Type.Optional(FhirCodeableConcept),
  system: Type.Optional(Str()),
  value: Type.Optional(Str()),
  period: Type.Optional(Anything),
  assigner: Type.Optional(Anything),
});
export const FhirReference = strict({
  reference: Type.Optional(Str()),
  type: Type.Optional(Str(100)),
  identifier: Type.Optional(FhirIdentifier),
  display: Type.Optional(Str()),
});
export const FhirObservationComponent = strict({
  modifierExtension: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 0 })),
  code: FhirCodeableConcept,
  valueQuantity: Type.Optional(FhirQuantity),
  valueCodeableConcept: Type.Optional(Anything),
  valueString: Type.Optional(Anything),
  valueBoolean: Type.Optional(Anything),
  valueInteger: Type.Optional(Anything),
  valueRange: Type.Optional(Anything),
  valueRatio: Type.Optional(Anything),
  valueSampledData: Type.Optional(Anything),
  valueTime: Type.Optional(Anything),
  valueDateTime: Type.Optional(Anything),
  valuePeriod: Type.Optional(Anything),
  dataAbsentReason: Type.Optional(Anything),
  interpretation: Type.Optional(Anything),
  referenceRange: Type.Optional(Anything),
});

/** R4 Observation elements the portal allows without reading them. */
const OBSERVATION_UNREAD = [
  'meta',
  'implicitRules',
  'language',
  'text',
  'contained',
  'basedOn',
  'partOf',
  'category',
  'focus',
  'encounter',
  'issued',
  'performer',
  'interpretation',
  'note',
  'bodySite',
  'method',
  'specimen',
  'referenceRange',
  'hasMember',
  'derivedFrom',
  // FHIR JSON's primitive extensions (`_status` and the like) carry no value of their own.
  '_status',
  '_effectiveDateTime',
  '_issued',
  '_implicitRules',
  '_language',
] as const;

/**
 * An Observation as POSTed. A value other than a Quantity (valueString, valueCodeableConcept, …)
 * and an effective time other than a dateTime are R4 but not a measurement the portal can store:
 * they are refused as unknown elements here, naming them, rather than ignored.
 */
export const FhirObservationInput = Type.Object(
  {
    resourceType: Type.Literal('Observation'),
    id: Type.Optional(Str(64)),
    extension: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 50 })),
    // A modifier extension the portal does not know may change the meaning: R4 says refuse.
    modifierExtension: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 0 })),
    status: Type.Union(FHIR_OBSERVATION_STATUSES.map((s) => Type.Literal(s))),
    code: FhirCodeableConcept,
    subject: Type.Optional(FhirReference),
    effectiveDateTime: Type.String({ maxLength: 40 }),
    device: Type.Optional(FhirReference),
    valueQuantity: Type.Optional(FhirQuantity),
    dataAbsentReason: Type.Optional(FhirCodeableConcept),
    component: Type.Optional(Type.Array(FhirObservationComponent, { maxItems: 20 })),
    // The sender's business identifiers: kept, shown on read, and what a conditional create looks for.
    identifier: Type.Optional(Type.Array(FhirIdentifier, { maxItems: 10 })),
    ...Object.fromEntries(OBSERVATION_UNREAD.map((k) => [k, Type.Optional(Anything)])),
  },
  { additionalProperties: false },
);
/** The elements of a checked Observation the portal reads. */
export interface FhirObservationInput {
  resourceType: 'Observation';
  status: FhirObservationStatus;
  code: Static<typeof FhirCodeableConcept>;
  subject?: Static<typeof FhirReference>;
  effectiveDateTime: string;
  device?: Static<typeof FhirReference>;
  valueQuantity?: Static<typeof FhirQuantity>;
  component?: Static<typeof FhirObservationComponent>[];
  identifier?: Static<typeof FhirIdentifier>[];
}

/** A Bundle's envelope: its entries are checked one by one, so that one bad entry refuses only itself. */
export const FhirBundleInput = Type.Object(
  {
    resourceType: Type.Literal('Bundle'),
    id: Type.Optional(Str(64)),
    meta: Type.Optional(Anything),
    implicitRules: Type.Optional(Anything),
    language: Type.Optional(Anything),
    identifier: Type.Optional(Anything),
    type: Type.Union([Type.Literal('batch'), Type.Literal('transaction')]),
    timestamp: Type.Optional(Anything),
    total: Type.Optional(Anything),
    link: Type.Optional(Anything),
    signature: Type.Optional(Anything),
    entry: Type.Optional(Type.Array(Type.Unknown())),
  },
  { additionalProperties: false },
);
export type FhirBundleInput = Static<typeof FhirBundleInput>;

export const FhirBundleEntryInput = strict({
  modifierExtension: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 0 })),
  link: Type.Optional(Anything),
  fullUrl: Type.Optional(Str()),
  resource: Type.Unknown(),
  search: Type.Optional(Anything),
  request: strict({
    modifierExtension: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 0 })),
    method: Type.Literal('POST'),
    url: Type.String({ pattern: '^Observation/?$' }),
    ifNoneMatch: Type.Optional(Anything),
    ifModifiedSince: Type.Optional(Anything),
    ifMatch: Type.Optional(Anything),
    ifNoneExist: Type.Optional(Anything),
  }),
  response: Type.Optional(Anything),
});
export type FhirBundleEntryInput = Static<typeof FhirBundleEntryInput>;

/** 4xx messages of the FHIR endpoint; each names the field. */
export const FhirErrors = {
  invalid: (field: string, rule: string) => `${field}: ${rule}`,
  unknownElement: (field: string) => `${field} is not an element this server accepts`,
  statusNotStored: (field: string, status: string) =>
    `${field} ${status} is not stored: only ${FHIR_STORED_STATUSES.join(', ')} readings are`,
  dateTime: (field: string) =>
    `${field} must be a FHIR dateTime with seconds and a time zone, on a real calendar day (YYYY-MM-DDThh:mm:ss+zz:zz)`,
  tooOld: (field: string, days: number, earliestYear: number) =>
    `${field} must not be before ${earliestYear}-01-01 nor more than ${days} days ago`,
  subjectNotLocal: (field: string) => `${field} must be Patient/{id} or this server's own Patient URL`,
  subjectUnverifiable: (field: string) =>
    `${field} cannot be confirmed: no patient had this device at effectiveDateTime (assign the device, or send the reading without subject to keep it as unmatched)`,
  subjectMismatch: (field: string) => `${field} must be the patient who had the device at effectiveDateTime`,
  searchDate: (value: string) =>
    `date must be an optional prefix (eq, ne, lt, le, gt, ge, sa, eb) and a FHIR date or dateTime on a real calendar day (got "${value}")`,
  bundleSize: (max: number) => `entry must hold at most ${max} entries`,
  /** A Quantity in a unit the measurement does not accept; `units` lists the UCUM codes it does. */
  unit: (field: string, units: readonly string[]) => `${field} must be in UCUM ${units.join(' or ')}`,
  /** An Observation whose code names no measurement this server stores; `codes` e.g. "29463-7 (weight)". */
  unknownCode: (field: string, codes: readonly string[]) =>
    `${field} must be LOINC ${codes.slice(0, -1).join(', ')}${codes.length > 1 ? ' or ' : ''}${codes.at(-1) ?? ''}`,
  /** `Prefer: handling=strict` and a parameter this server does not support for the resource. */
  unknownSearchParameter: (name: string, supported: readonly string[]) =>
    `${name} is not a search parameter this server supports here (Prefer: handling=strict); supported: ${supported.join(', ')}`,
  unsupportedValue: (name: string, value: string, supported: readonly string[]) =>
    `${name}=${value} is not supported (Prefer: handling=strict); supported: ${supported.join(', ')}`,
  patientSearch: 'patient (or subject) is required, naming one patient: Patient/{id} or {id}',
  cursor: '_cursor is not a paging position this server gave for this search: follow the Bundle links',
  emptySearchValue: (name: string) => `${name} must not be empty`,
  identifierValue: (field: string) => `${field}: each identifier needs a value`,
  ifNoneExist: (field: string) =>
    `${field} must be identifier=system|value (or identifier=value, several values separated by commas)`,
  ifNoneExistMatches: (count: number) =>
    `If-None-Exist matches ${count} Observations: the criteria must name one (412 Precondition Failed)`,
  identifierTaken: (field: string, observationId: number) =>
    `${field} already names Observation/${observationId}, another measurement`,
} as const;

/** A search page's size when the client names none (`_count`). */
export const FHIR_SEARCH_DEFAULT_COUNT = 50;
/** `_total` values (R4 search 3.1.1.5.6): `none` lets the server skip counting. */
export const FHIR_TOTAL_MODES = ['none', 'estimate', 'accurate'] as const;
/** `_sort` values the Observation search honours: by measurement time, newest first by default. */
export const FHIR_OBSERVATION_SORTS = ['-date', 'date'] as const;
export const FHIR_OBSERVATION_INCLUDES = ['Observation:patient'] as const;

/** A date-time instant and its precision, as FHIR search reads it: [start, end) covers the value. */
export interface FhirDateRange {
  start: Date;
  end: Date;
}

const DATE_TIME =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * Reads a FHIR date or dateTime, checking the calendar (no 31 September, no hour 24, offsets up
 * to ±14:00), as the range of instants it stands for at its precision: a year, a month, a day, a
 * minute, a second or a millisecond. `requireFull`: an Observation's effective time must be a
 * dateTime with seconds and a time zone (R4's dateTime with a time); a search value may stop at
 * any precision and, without a zone, is read in UTC (the server's time zone).
 */
export function parseFhirDateTime(value: string, requireFull: boolean): FhirDateRange | null {
  const m = DATE_TIME.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  if (requireFull && (s === undefined || zone === undefined)) return null;
  const year = Number(y);
  const month = mo === undefined ? 1 : Number(mo);
  const day = d === undefined ? 1 : Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (zone && zone !== 'Z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (om > 59 || oh * 60 + om > 14 * 60) return null;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  const ms = frac ? Math.floor(Number(`0${frac}`) * 1000) : 0;
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, second, ms);
  const start = new Date(local.getTime() - offsetMinutes * 60_000);
  const end = new Date(start);
  if (mo === undefined) end.setUTCFullYear(end.getUTCFullYear() + 1);
  else if (d === undefined) end.setUTCMonth(end.getUTCMonth() + 1);
  else if (h === undefined) end.setUTCDate(end.getUTCDate() + 1);
  else if (s === undefined) end.setUTCMinutes(end.getUTCMinutes() + 1);
  else if (frac === undefined) end.setUTCSeconds(end.getUTCSeconds() + 1);
  else end.setUTCMilliseconds(end.getUTCMilliseconds() + 1);
  return { start, end };
}
