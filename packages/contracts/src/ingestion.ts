import { Type, type Static } from 'typebox';
import { Timestamp, valuesByName, RowId, PG_INTEGER_MAX } from './common.ts';

/** Limits a reading must respect, wherever it comes from (webhook, FHIR, manual entry). */
export const ReadingLimits = {
  systolic: { min: 40, max: 300 },
  diastolic: { min: 20, max: 200 },
  pulse: { min: 20, max: 300 },
  /** Device clocks drift; a reading further ahead than this is refused. */
  futureToleranceMinutes: 10,
  /** A device cloud's backlog older than this is refused (configurable: READING_MAX_AGE_DAYS). */
  maxAgeDays: 90,
  /** No home device measured before this year: an earlier date is a clock or sender error. */
  earliestYear: 2000,
} as const;

/**
 * Measurements in one webhook call: Tenovi posts one, or a few with "post as array"; more is not
 * a device's backlog but a flood held in one transaction. Above it the call is answered 413.
 */
export const INGEST_MAX_MEASUREMENTS = 500;
/**
 * Unmatched readings (unknown or unassigned devices) kept per source: beyond it new ones are
 * refused, counted as `rejected` in the answer and recorded as a rejection; readings for known
 * patients are still stored. Configurable: UNMATCHED_QUOTA_PER_SOURCE.
 */
export const UNMATCHED_QUOTA_PER_SOURCE = 10_000;
/** Days an unmatched reading is kept after it was received (configurable: UNMATCHED_RETENTION_DAYS). */
export const UNMATCHED_RETENTION_DAYS = 30;
/** When the retention job runs: daily at 03:17 UTC, away from the hour marks other jobs use. */
export const UNMATCHED_RETENTION_CRON = '17 3 * * *';
/**
 * A reading measured longer ago than this still opens or counts on its alert, but sends no
 * critical e-mail: a backlog is reviewed on the worklist, not paged as if it were happening now.
 */
export const LATE_READING_HOURS = 24;

export const INGESTION_BODY_LIMIT_BYTES = 1024 * 1024;
/** Measurements one FHIR request may carry (413 above): a day of a large clinic's readings in a few calls. */
export const FHIR_BUNDLE_MAX_ENTRIES = 500;
/**
 * Webhook calls per minute, counted per source and sending address (per address when the call
 * names no source): 200 a second, room for a vendor cloud's bursts, each call one measurement
 * or more.
 */
export const INGEST_RATE_LIMIT_PER_MINUTE = 12_000;
/** FHIR reads per minute and route, per read key and address (per address for staff sessions). */
export const FHIR_READ_RATE_LIMIT_PER_MINUTE = 3_000;
/** FHIR writes per minute and route, per source and address: a Bundle carries up to 500 readings. */
export const FHIR_WRITE_RATE_LIMIT_PER_MINUTE = 3_000;
/** Rejections kept per source for the admin page. */
export const INGESTION_REJECTIONS_KEPT = 20;
/** Where a Tenovi source sends its secret unless the admin names another header. */
export const DEFAULT_INGEST_AUTH_HEADER = 'x-rpm-ingest-secret';
/**
 * A source's secret header is a custom `x-` header: a standard one (cookie, authorization, host,
 * forwarding headers) is read by proxies and the portal itself, and would carry or leak the secret
 * elsewhere. The database holds new sources to the same rule (migration 0951).
 */
export const INGEST_AUTH_HEADER_PATTERN = '^[Xx]-[A-Za-z0-9-]{1,62}$';
/**
 * x- headers that proxies set or rewrite (forwarding, client address), that the portal logs or
 * reads itself (request id, CSRF flag) or that cloud front ends use: never a secret's header.
 * Matched against the lower-cased name.
 */
export const RESERVED_AUTH_HEADER_PATTERN =
  '^x-(forwarded|real-ip|client-ip|request-id|requested-with|correlation-id|amz|amzn|csrf|xsrf|http-method|original)';
/**
 * Static FHIR read keys expire (until SMART Backend Services replaces them): they hand out patient
 * data, so a forgotten key stops working by itself. Rotating a read key renews it for as long again.
 */
export const FHIR_READ_KEY_DEFAULT_DAYS = 90;
export const FHIR_READ_KEY_MAX_DAYS = 365;
/** A header a source may send its secret in: a custom x- header that no proxy or log touches. */
export const isAllowedSecretHeader = (header: string): boolean =>
  new RegExp(INGEST_AUTH_HEADER_PATTERN).test(header) &&
  !new RegExp(RESERVED_AUTH_HEADER_PATTERN).test(header.toLowerCase());
/** The vitals `source` of a reading typed in by staff. */
export const MANUAL_SOURCE = 'manual';

export const IngestionSourceKind = Type.Union([Type.Literal('tenovi'), Type.Literal('fhir')]);
export type IngestionSourceKind = Static<typeof IngestionSourceKind>;

/** POST /api/integrations */
export const CreateIngestionSourceBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    kind: IngestionSourceKind,
    /** The one organization whose devices and patients the source writes and reads for. */
    organization_id: RowId(),
    auth_header: Type.Optional(Type.String({ pattern: INGEST_AUTH_HEADER_PATTERN })),
    can_read: Type.Optional(Type.Boolean()),
    /** Days a FHIR read key works; only for read keys, FHIR_READ_KEY_DEFAULT_DAYS when left out. */
    expires_in_days: Type.Optional(Type.Integer({ minimum: 1, maximum: FHIR_READ_KEY_MAX_DAYS })),
  },
  { additionalProperties: false },
);
export type CreateIngestionSourceBody = Static<typeof CreateIngestionSourceBody>;

export const IngestionRejection = Type.Object({
  reason: Type.String(),
  device_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
});
export type IngestionRejection = Static<typeof IngestionRejection>;

export const IngestionSource = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  kind: IngestionSourceKind,
  auth_header: Type.Union([Type.String(), Type.Null()]),
  can_read: Type.Boolean(),
  /** Null only for a source made before sources had one: refused until an admin assigns one. */
  organization_id: Type.Union([Type.Integer(), Type.Null()]),
  /** When the key stops working (FHIR read keys); null: no expiry. */
  expires_at: Type.Union([Timestamp, Type.Null()]),
  created_at: Timestamp,
  rotated_at: Type.Union([Timestamp, Type.Null()]),
  revoked_at: Type.Union([Timestamp, Type.Null()]),
  recent_rejections: Type.Array(IngestionRejection),
  /** Unmatched readings this source has waiting, against its quota; kept `unmatched_retention_days`. */
  unmatched_count: Type.Integer(),
  unmatched_quota: Type.Integer(),
  unmatched_retention_days: Type.Integer(),
});
export type IngestionSource = Static<typeof IngestionSource>;

/** The answer of create and rotate: the only time the secret is ever shown. */
export const IngestionSourceWithSecret = Type.Intersect([IngestionSource, Type.Object({ secret: Type.String() })]);
export type IngestionSourceWithSecret = Static<typeof IngestionSourceWithSecret>;

export const IngestionSourcesResponse = Type.Array(IngestionSource);
export type IngestionSourcesResponse = Static<typeof IngestionSourcesResponse>;

/** PUT /api/integrations/{id}/organization: for a source made before sources had one. */
export const AssignSourceOrganizationBody = Type.Object({ organization_id: RowId() }, { additionalProperties: false });
export type AssignSourceOrganizationBody = Static<typeof AssignSourceOrganizationBody>;

export const SourceIdParam = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
export const IngestSourceParam = Type.Object(
  { sourceId: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);

/** A number as JSON sends it, or as a strictly decimal string (no hex, exponent or spaces). */
export const DECIMAL_STRING_PATTERN = '^-?\\d+(\\.\\d+)?$';
/**
 * Tenovi's measurement records type their values as strings; a value a metric does not use may
 * come empty (a pulse's value_2). Empty passes the schema; the metric's rule says if it is missing.
 */
const VendorNumber = Type.Union([
  Type.Number(),
  Type.String({ pattern: DECIMAL_STRING_PATTERN, maxLength: 32 }),
  Type.Literal(''),
]);
/** ISO-8601 with seconds optional and a zone; whether it is a real calendar date is checked after. */
export const ZONED_DATE_TIME_PATTERN =
  '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|z|[+-]\\d{2}:?\\d{2})$';
export const TENOVI_DEVICE_ID_MAX_LENGTH = 100;
/**
 * A Tenovi metric name: any the vendor may add, not only those the measurement registry knows (a
 * metric the portal does not know is kept as unmatched, never dropped), but a name, not free text.
 */
export const TENOVI_METRIC_PATTERN = '^[A-Za-z][A-Za-z0-9_]{0,63}$';
export const TENOVI_METRIC_MAX_LENGTH = 64;

/**
 * One Tenovi HWI measurement, as the vendor posts it (one object, or an array of them with its
 * "post as array" option). Every field is checked against this schema before any rule runs;
 * other fields Tenovi adds are ignored, never read. `value_1` may be a boolean only for
 * irregular_heartbeat (checked with the rules, which also name the field).
 */
export const TenoviMeasurement = Type.Object({
  metric: Type.String({ pattern: TENOVI_METRIC_PATTERN, maxLength: TENOVI_METRIC_MAX_LENGTH }),
  device_name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  hwi_device_id: Type.String({ minLength: 1, maxLength: TENOVI_DEVICE_ID_MAX_LENGTH, pattern: '\\S' }),
  sensor_code: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
  value_1: Type.Optional(Type.Union([VendorNumber, Type.Boolean(), Type.Null()])),
  value_2: Type.Optional(Type.Union([VendorNumber, Type.Null()])),
  timestamp: Type.String({ pattern: ZONED_DATE_TIME_PATTERN, maxLength: 40 }),
  created: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
  filter_params: Type.Optional(
    Type.Union([
      Type.Object({
        measurement_index: Type.Optional(
          Type.Union([Type.Integer({ minimum: 0, maximum: PG_INTEGER_MAX }), Type.Null()]),
        ),
      }),
      Type.Null(),
    ]),
  ),
});
export type TenoviMeasurement = Static<typeof TenoviMeasurement>;

export const IngestResult = Type.Object({
  received: Type.Integer(),
  stored: Type.Integer(),
  duplicates: Type.Integer(),
  unmatched: Type.Integer(),
  battery_updates: Type.Integer(),
  /** Unmatched readings refused because the source's unmatched quota is full. */
  rejected: Type.Integer(),
});
export type IngestResult = Static<typeof IngestResult>;

/** POST /api/patients/{id}/vitals: a reading typed in by staff (marked manual). */
export const ManualVitalBody = Type.Object(
  {
    measured_at: Timestamp,
    systolic: Type.Integer({ minimum: ReadingLimits.systolic.min, maximum: ReadingLimits.systolic.max }),
    diastolic: Type.Integer({ minimum: ReadingLimits.diastolic.min, maximum: ReadingLimits.diastolic.max }),
    pulse: Type.Optional(
      Type.Union([Type.Integer({ minimum: ReadingLimits.pulse.min, maximum: ReadingLimits.pulse.max }), Type.Null()]),
    ),
  },
  { additionalProperties: false },
);
export type ManualVitalBody = Static<typeof ManualVitalBody>;

export const UnmatchedReading = Type.Object({
  id: Type.Integer(),
  device_id: Type.String(),
  measured_at: Timestamp,
  /** A kind of the measurement registry, or UNKNOWN_METRIC_KIND for a metric the portal does not know. */
  kind: Type.String(),
  /** The vendor's metric name of an unknown metric; null for a kind of the registry. */
  metric: Type.Union([Type.String(), Type.Null()]),
  /**
   * The values by component code in the kind's canonical units; for an unknown metric the
   * vendor's own `value_1` (and `value_2`), as sent.
   */
  components: valuesByName(Type.Number()),
  /** UCUM unit of the kind's primary component (UNKNOWN_METRIC_UNIT for an unknown metric). */
  unit: Type.String(),
  /** Blood pressure's values, as before; null for other kinds (and for a heart rate measured alone). */
  systolic: Type.Union([Type.Integer(), Type.Null()]),
  diastolic: Type.Union([Type.Integer(), Type.Null()]),
  pulse: Type.Union([Type.Integer(), Type.Null()]),
  received_at: Timestamp,
});
export type UnmatchedReading = Static<typeof UnmatchedReading>;
export const UnmatchedReadingsResponse = Type.Object({ items: Type.Array(UnmatchedReading), total: Type.Integer() });
export type UnmatchedReadingsResponse = Static<typeof UnmatchedReadingsResponse>;

/** 4xx messages of ingestion: each names the field and the rule it broke. */
export const IngestionErrors = {
  credentials: 'Invalid or missing ingestion credentials',
  bodyShape: 'body must be a measurement object or an array of them',
  emptyBatch: 'body must hold at least one measurement',
  required: (field: string) => `${field} is required`,
  notNumber: (field: string) => `${field} must be a number`,
  notInteger: (field: string) => `${field} must be a whole number`,
  range: (field: string, min: number, max: number, unit: string) =>
    `${field} must be between ${min} and ${max} ${unit}`,
  systolicAboveDiastolic: (systolic: string, diastolic: string) =>
    `${systolic} (systolic) must be above ${diastolic} (diastolic)`,
  timestamp: (field: string) => `${field} must be an ISO-8601 date-time with a time zone`,
  future: (field: string) =>
    `${field} must not be more than ${ReadingLimits.futureToleranceMinutes} minutes in the future`,
  metric: (field: string) =>
    `${field} must be a metric name: a letter, then letters, digits or underscores, at most ${TENOVI_METRIC_MAX_LENGTH} characters`,
  /** A value the measurement registry refuses (e.g. outside the plausible range): its field, then the registry's words. */
  measurement: (field: string, message: string) => `${field}: ${message}`,
  battery: (field: string) => `${field} must be between 0 and 100 percent`,
  /** A date-time that does not exist (31 September, hour 24) is refused, never rolled over. */
  calendar: (field: string) => `${field} must be a real calendar date and time`,
  tooOld: (field: string, days: number) => `${field} must not be more than ${days} days ago`,
  beforeEarliest: (field: string) => `${field} must not be before ${ReadingLimits.earliestYear}`,
  tooLong: (field: string, max: number) => `${field} must be at most ${max} characters`,
  notText: (field: string) => `${field} must be text`,
  notObject: (field: string) => `${field} must be an object`,
  irregular: (field: string) => `${field} must be 0, 1, true or false`,
  tooMany: `body must hold at most ${INGEST_MAX_MEASUREMENTS} measurements`,
  unmatchedQuota: (quota: number) =>
    `unmatched quota of ${quota} readings is full: readings of unknown or unassigned devices are refused until they are assigned or expire`,
  sourceKind: 'this source may not send to this endpoint',
  sourceExists: 'Ingestion source not found',
  sourceOrganizationUnknown: 'organization_id must name an existing organization',
  /** Assigning is for sources made before sources had one; moving a source is a new source. */
  sourceOrganizationSet: 'this source already belongs to an organization; create a new source for another one',
  sourceHeaderRetired:
    'this source sends its secret in a header that is no longer allowed; create a new source instead',
  authHeaderReserved:
    'auth_header must not be a header that proxies or the portal set or log (x-forwarded-*, x-request-id and the like)',
  readKeyExpiry: `expires_in_days is only for FHIR read keys, between 1 and ${FHIR_READ_KEY_MAX_DAYS}`,
  /** A FHIR entry about a patient of another organization than the source's. */
  otherOrganization: "the device's or subject's patient is not of this source's organization",
  /** A /fhir path this server does not serve (FHIR version, resource type or operation). */
  fhirUnknownPath: (path: string) => `${path} is not served by this FHIR R4 server; see /fhir/R4/metadata`,
  fhirMethod: (method: string, allowed: string) => `${method} is not allowed here; allowed: ${allowed}`,
} as const;

/** Texts of the Integrations and Unmatched Readings pages and the Add Reading dialog. */
export const IngestionTexts = {
  integrationsTitle: 'Integrations',
  createSource: 'Create Source',
  sourceName: 'Name',
  sourceKind: 'Kind',
  authHeader: 'Auth header',
  canRead: 'May read FHIR data',
  rotate: 'Rotate Secret',
  revoke: 'Revoke',
  revoked: 'Revoked',
  active: 'Active',
  secretOnce: 'Copy this secret now: it is shown only once.',
  recentRejections: 'Recent rejections',
  noRejections: 'No rejections.',
  noSources: 'No ingestion sources yet.',
  unmatchedTitle: 'Unmatched Readings',
  unmatchedKind: 'Kind',
  unmatchedValues: 'Values',
  /** An unmatched reading of a metric the portal does not know, by the vendor's name. */
  unknownMetric: (metric: string) => `${metric} (unknown metric)`,
  unmatchedCount: (n: number) => `${n} unmatched reading${n === 1 ? '' : 's'}`,
  noUnmatched: 'No unmatched readings.',
  unmatchedQuotaHeader: 'Unmatched',
  unmatchedQuotaUse: (count: number, quota: number) =>
    `${count.toLocaleString('en-US')} of ${quota.toLocaleString('en-US')}`,
  unmatchedRetention: (days: number) => `kept ${days} days`,
  unmatchedQuotaFull: 'Quota full: new unmatched readings are refused',
  battery: 'Battery',
  addReading: 'Add Reading',
  measuredAt: 'Measured at',
  systolic: 'Systolic (mmHg)',
  diastolic: 'Diastolic (mmHg)',
  pulse: 'Pulse (bpm)',
  source: 'Source',
  save: 'Save',
  cancel: 'Cancel',
  readingAdded: 'Reading added',
  sourceCreated: 'Source created',
  secretRotated: 'Secret rotated',
  sourceRevoked: 'Source revoked',
  organization: 'Organization',
  expiresInDays: 'Expires in (days)',
  expires: 'Expires',
  noExpiry: 'Never',
  expired: 'Expired',
  noOrganization: 'No organization: this source is refused until you assign one.',
  assignOrganization: 'Assign Organization',
  assign: 'Assign',
  assignConfirmTitle: 'Assign this source to an organization?',
  assignConfirm: (source: string, organization: string) =>
    `${source} will write and read the devices and patients of ${organization} only. This cannot be changed later.`,
  organizationAssigned: 'Organization assigned',
  headerNotAllowed: 'Its secret header is not a custom x- header: this source is refused. Create a new source.',
} as const;
