import { Type, type Static } from 'typebox';

/**
 * FHIR Bulk Data Access 2.0 (https://hl7.org/fhir/uv/bulkdata/): the portal's `$export` of a
 * group (an organization's RPM program, or a provider's panel) or of every patient of the
 * caller's organization, run as a job that writes NDJSON files the caller then downloads.
 */

/** The resource types an export writes, in the order the job writes them. */
export const BULK_EXPORT_TYPES = ['Patient', 'Observation', 'Device'] as const;
export type BulkExportType = (typeof BULK_EXPORT_TYPES)[number];

/** `_outputFormat` values the spec says a server must accept, all meaning NDJSON of FHIR resources. */
export const BULK_OUTPUT_FORMATS = ['application/fhir+ndjson', 'application/ndjson', 'ndjson'] as const;
/** What the files are served as. */
export const BULK_NDJSON_CONTENT_TYPE = 'application/fhir+ndjson';

/** The kick-off parameters the portal reads; any other is ignored, or refused under `Prefer: handling=strict`. */
export const BULK_KICKOFF_PARAMS = ['_outputFormat', '_type', '_since'] as const;

/** The paths of the asynchronous request pattern, under the FHIR base. */
export const BULK_STATUS_PATH = '/fhir/R4/bulk-status';
export const BULK_FILES_PATH = '/fhir/R4/bulk-files';

/** Group ids: an organization's RPM program, a provider's panel. */
export const BULK_GROUP_ORGANIZATION_PREFIX = 'org-';
export const BULK_GROUP_PROVIDER_PREFIX = 'provider-';

/** Rows read per query while exporting: bounded memory whatever the program's size. */
export const BULK_EXPORT_PAGE_ROWS = 1000;
/** A file holds at most this many resources; a larger type is split into several files. */
export const BULK_EXPORT_FILE_MAX_LINES = 100_000;
/** A file is stored in chunks of about this many bytes: the unit the download streams. */
export const BULK_EXPORT_CHUNK_BYTES = 1024 * 1024;
/** Completed exports (and their files) are deleted this long after completion. */
export const BULK_EXPORT_RETENTION_HOURS = 24;
/** When the retention job runs: every 15 minutes, off the hour marks other jobs use. */
export const BULK_EXPORT_RETENTION_CRON = '7,22,37,52 * * * *';
/** What a status answer asks the client to wait before polling again. */
export const BULK_EXPORT_RETRY_AFTER_SECONDS = 2;
/** Exports one requester may have queued or running at once (each is a full read of a program). */
export const BULK_EXPORT_MAX_ACTIVE_PER_REQUESTER = 5;

export const BULK_EXPORT_STATUSES = ['queued', 'running', 'complete', 'failed', 'cancelled'] as const;
export type BulkExportStatus = (typeof BULK_EXPORT_STATUSES)[number];

/** A group id as a path parameter. */
export const BulkGroupIdParam = Type.Object({
  id: Type.String({ pattern: '^(org|provider)-[1-9][0-9]{0,8}$', maxLength: 20 }),
});
export type BulkGroupIdParam = Static<typeof BulkGroupIdParam>;

export const BulkExportIdParam = Type.Object({ exportId: Type.String({ format: 'uuid' }) });
export type BulkExportIdParam = Static<typeof BulkExportIdParam>;

export const BulkFileParams = Type.Object({
  exportId: Type.String({ format: 'uuid' }),
  fileName: Type.String({ pattern: '^[A-Za-z]+-[0-9]{1,4}\\.ndjson$', maxLength: 40 }),
});
export type BulkFileParams = Static<typeof BulkFileParams>;

const OneOrMore = (max: number) =>
  Type.Union([Type.String({ maxLength: max }), Type.Array(Type.String({ maxLength: max }), { maxItems: 10 })]);

/**
 * The kick-off's query string: the parameters the portal reads, each checked later against the
 * spec (the values of `_type` and `_outputFormat`, `_since` as an instant). Other parameters pass
 * this schema and are refused or ignored by the service, as `Prefer: handling` asks.
 */
export const BulkKickoffQuery = Type.Object(
  {
    _outputFormat: Type.Optional(Type.String({ maxLength: 100 })),
    _type: Type.Optional(OneOrMore(200)),
    _since: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: true },
);
export type BulkKickoffQuery = Static<typeof BulkKickoffQuery>;

/**
 * The kick-off as a POST: a FHIR Parameters resource carrying the same parameters (`_type` and
 * `_outputFormat` as valueString, `_since` as valueInstant). Parameters the portal does not read
 * (`patient`, `_typeFilter`, …) pass this schema and are refused or ignored as for a GET.
 */
export const BulkKickoffParameters = Type.Object(
  {
    resourceType: Type.Literal('Parameters'),
    parameter: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 100 }),
            valueString: Type.Optional(Type.String({ maxLength: 200 })),
            valueInstant: Type.Optional(Type.String({ maxLength: 40 })),
          },
          { additionalProperties: true },
        ),
        { maxItems: 50 },
      ),
    ),
  },
  { additionalProperties: true },
);
export type BulkKickoffParameters = Static<typeof BulkKickoffParameters>;

/** The Group search's parameters (none is needed: the caller's visible groups are few). */
export const BulkGroupSearchQuery = Type.Object({}, { additionalProperties: true });

/** The completion manifest (Bulk Data 2.0 "Response - Complete Status"). */
export interface BulkExportManifest {
  transactionTime: string;
  request: string;
  requiresAccessToken: true;
  output: { type: BulkExportType; url: string; count: number }[];
  error: { type: 'OperationOutcome'; url: string }[];
}

/** 4xx messages of the bulk export; tests import them. */
export const BulkExportErrors = {
  preferAsync: 'This operation is asynchronous: send the header Prefer: respond-async',
  accept: 'Accept must be application/fhir+json',
  outputFormat: (value: string) =>
    `_outputFormat ${value.slice(0, 60)} is not supported: use ${BULK_OUTPUT_FORMATS.join(', ')}`,
  type: (value: string) =>
    `_type ${value.slice(0, 60)} is not exported by this server: use ${BULK_EXPORT_TYPES.join(', ')}`,
  since: (value: string) =>
    `_since ${value.slice(0, 40)} must be a FHIR instant (YYYY-MM-DDThh:mm:ss with a time zone)`,
  unknownParameter: (name: string) =>
    `${name.slice(0, 60)} is not a parameter this server supports (Prefer: handling=strict)`,
  typeNotGranted: (type: string) => `Your access does not include ${type}`,
  noScopeAtAll: 'Your access includes none of the exported resource types',
  patientExportNeedsOrganization: 'An administrator exports a program or panel: use Group/{id}/$export',
  tooManyActive: (max: number) => `At most ${max} exports may be queued or running at once: wait or cancel one`,
  failed: 'The export failed; start a new one',
} as const;

/** Informational texts of the answers (the kick-off's and cancel's OperationOutcomes). */
export const BulkExportTexts = {
  accepted: 'Export accepted; poll the Content-Location for its status',
  cancelled: 'Export cancelled; its files are deleted',
  progress: (done: number, total: number) => `${done} of ${total} patients exported`,
  queued: 'Queued',
  groupName: {
    organization: (name: string) => `${name}: remote patient monitoring program`,
    provider: (name: string) => `Panel of ${name}`,
  },
} as const;
