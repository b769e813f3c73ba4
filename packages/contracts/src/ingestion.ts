import { Type, type Static } from 'typebox';
import { Timestamp } from './common.ts';

/** Limits a reading must respect, wherever it comes from (webhook, FHIR, manual entry). */
export const ReadingLimits = {
  systolic: { min: 40, max: 300 },
  diastolic: { min: 20, max: 200 },
  pulse: { min: 20, max: 300 },
  /** Device clocks drift; a reading further ahead than this is refused. */
  futureToleranceMinutes: 10,
  /** A reading measured longer ago than this is refused: a stale backlog, or a device clock reset. */
  maxAgeDays: 90,
  /** No remote monitoring device measured before this year: an earlier time is a clock reset. */
  earliestYear: 2000,
} as const;

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
    organization_id: Type.Integer({ minimum: 1 }),
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
});
export type IngestionSource = Static<typeof IngestionSource>;

/** The answer of create and rotate: the only time the secret is ever shown. */
export const IngestionSourceWithSecret = Type.Intersect([IngestionSource, Type.Object({ secret: Type.String() })]);
export type IngestionSourceWithSecret = Static<typeof IngestionSourceWithSecret>;

export const IngestionSourcesResponse = Type.Array(IngestionSource);
export type IngestionSourcesResponse = Static<typeof IngestionSourcesResponse>;

/** PUT /api/integrations/{id}/organization: for a source made before sources had one. */
export const AssignSourceOrganizationBody = Type.Object(
  { organization_id: Type.Integer({ minimum: 1 }) },
  { additionalProperties: false },
);
export type AssignSourceOrganizationBody = Static<typeof AssignSourceOrganizationBody>;

export const SourceIdParam = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
export const IngestSourceParam = Type.Object(
  { sourceId: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);

/**
 * One Tenovi HWI measurement, as the vendor posts it (one object, or an array of them with its
 * "post as array" option). Documented here for the simulator and OpenAPI; the ingestion service
 * checks each field itself so that a refusal names the field and the rule.
 */
export const TenoviMeasurement = Type.Object({
  metric: Type.String(),
  device_name: Type.Optional(Type.String()),
  hwi_device_id: Type.String(),
  sensor_code: Type.Optional(Type.String()),
  value_1: Type.Optional(Type.Union([Type.Number(), Type.String(), Type.Null()])),
  value_2: Type.Optional(Type.Union([Type.Number(), Type.String(), Type.Null()])),
  timestamp: Type.String(),
  created: Type.Optional(Type.String()),
  filter_params: Type.Optional(Type.Object({ measurement_index: Type.Optional(Type.Integer()) })),
});
export type TenoviMeasurement = Static<typeof TenoviMeasurement>;

export const IngestResult = Type.Object({
  received: Type.Integer(),
  stored: Type.Integer(),
  duplicates: Type.Integer(),
  unmatched: Type.Integer(),
  battery_updates: Type.Integer(),
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
  systolic: Type.Integer(),
  diastolic: Type.Integer(),
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
  metric: (field: string) => `${field} must be one of blood_pressure, pulse, irregular_heartbeat, battery_percentage`,
  battery: (field: string) => `${field} must be between 0 and 100 percent`,
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
  unmatchedCount: (n: number) => `${n} unmatched reading${n === 1 ? '' : 's'}`,
  noUnmatched: 'No unmatched readings.',
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
