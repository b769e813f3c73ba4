import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  BULK_EXPORT_MAX_ACTIVE_PER_REQUESTER,
  BULK_EXPORT_RETRY_AFTER_SECONDS,
  BULK_EXPORT_TYPES,
  BULK_FILES_PATH,
  BULK_KICKOFF_PARAMS,
  BULK_OUTPUT_FORMATS,
  BULK_STATUS_PATH,
  BulkExportErrors,
  BulkExportTexts,
  parseFhirDateTime,
  type AuditAction,
  type BulkExportManifest,
  type BulkExportType,
  type BulkKickoffParameters,
  type BulkKickoffQuery,
} from '@rpm/contracts';
import type { Bundle, OperationOutcome, Resource } from '@medplum/fhirtypes';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import type { Queryable } from '../../db/pool.ts';
import { audit } from '../../kernel/audit-writer.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import {
  mayExportGroupOf,
  mayFollowExport,
  patientExportOrganization,
  requesterOf,
} from '../../policies/bulk-export.ts';
import { readerHasScope, type FhirScopeNeed } from '../../policies/fhir-scopes.ts';
import { fhirOrganizationScope, type FhirReader } from '../../policies/ingestion.ts';
import { FhirError, notFound, operationOutcome, reader, sourceDetails } from '../fhir/index.ts';
import { presentGroup, providerName, resolveGroup, type ResolvedGroup } from './bulk-export.groups.ts';
import {
  cancelExport,
  countActiveExports,
  countScopePatients,
  exportFiles,
  fileChunk,
  findExport,
  findFile,
  insertExport,
  visibleGroups,
  type ExportRow,
  type ExportScope,
} from './bulk-export.repository.ts';

/** A FHIR answer with headers of its own (Content-Location, X-Progress, Retry-After, Expires). */
export interface BulkAnswer {
  status: number;
  headers?: Record<string, string>;
  /** FHIR JSON, plain JSON (the manifest), or nothing. */
  body?: Resource | BulkExportManifest;
  json?: 'fhir' | 'plain';
}

/** What the kick-off route hands over from the request. */
export interface KickoffRequest {
  authorization: string | undefined;
  prefer: string | undefined;
  accept: string | undefined;
  query: BulkKickoffQuery;
  /** The kick-off URL as the client sent it, for the manifest's `request`. */
  requestUrl: string;
  /** A group id (Group/{id}/$export), or null for Patient/$export. */
  groupId: string | null;
}

/** `Prefer` directives, however the client spread them over one or more headers. */
const preferences = (prefer: string | undefined) =>
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
const acceptable = (accept: string | undefined) =>
  accept === undefined ||
  accept.trim() === '' ||
  accept.split(',').some((a) => ACCEPTABLE.includes(a.split(';')[0]!.trim().toLowerCase()));

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

const isExportType = (t: string): t is BulkExportType => (BULK_EXPORT_TYPES as readonly string[]).includes(t);

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

/** Audits a refusal once the caller is known, and answers the error to throw. */
async function refused(
  db: Queryable,
  ctx: RequestContext,
  who: FhirReader,
  action: AuditAction,
  r: { outcome: 'denied' | 'failure'; reason: string; resourceId?: string; error: FhirError },
): Promise<FhirError> {
  await audit(db, ctx, {
    action,
    outcome: r.outcome,
    resourceType: 'bulk_export',
    resourceId: r.resourceId ?? null,
    reason: r.reason,
    details: sourceDetails(who),
  });
  return r.error;
}

/** A group the reader may see, or the 404 a group of another organization answers too. */
async function visibleGroup(db: Queryable, ctx: RequestContext, who: FhirReader, id: string, action: AuditAction) {
  const group = await resolveGroup(db, id);
  if (!group || !mayExportGroupOf(who, group.scope.organizationId)) {
    await audit(db, ctx, {
      action,
      outcome: group ? 'denied' : 'failure',
      resourceType: 'group',
      resourceId: id,
      reason: group ? 'group of another organization' : 'no such group',
      details: sourceDetails(who),
    });
    throw notFound();
  }
  return group;
}

/**
 * `Group/{id}/$export` and `Patient/$export`: checks the caller, the request's headers and
 * parameters, the group and the resource types the caller's grant covers, then records the
 * export and queues its job in one transaction. 202 with the status URL in Content-Location.
 */
export async function kickoff(
  db: pg.Pool,
  ctx: RequestContext,
  req: KickoffRequest,
  baseUrl: string,
): Promise<BulkAnswer & { exportId: string }> {
  const action = 'fhir.export.kickoff';
  const need: FhirScopeNeed = { resourceType: req.groupId ? 'Group' : 'Patient', interaction: 's' };
  const who = await reader(db, ctx, req.authorization, action, need);
  const prefer = preferences(req.prefer);
  let params: ReturnType<typeof kickoffParameters>;
  try {
    if (!prefer.has('respond-async')) throw new FhirError(400, 'invalid', BulkExportErrors.preferAsync);
    if (!acceptable(req.accept)) throw new FhirError(400, 'not-supported', BulkExportErrors.accept);
    params = kickoffParameters(req.query, prefer);
  } catch (err) {
    if (err instanceof FhirError) {
      throw await refused(db, ctx, who, action, { outcome: 'failure', reason: 'invalid request', error: err });
    }
    throw err;
  }

  let scope: ExportScope;
  if (req.groupId) {
    scope = (await visibleGroup(db, ctx, who, req.groupId, action)).scope;
  } else {
    const organizationId = patientExportOrganization(who);
    if (organizationId === null) {
      const error = new FhirError(403, 'security', BulkExportErrors.patientExportNeedsOrganization);
      throw await refused(db, ctx, who, action, { outcome: 'denied', reason: 'no organization to export', error });
    }
    scope = { kind: 'organization', organizationId };
  }

  const granted = (t: BulkExportType) => readerHasScope(who, { resourceType: t, interaction: 'r' });
  const notGranted = params.types.find((t) => !granted(t));
  if (notGranted) {
    const error = new FhirError(403, 'security', BulkExportErrors.typeNotGranted(notGranted));
    throw await refused(db, ctx, who, action, { outcome: 'denied', reason: `no scope for ${notGranted}`, error });
  }
  const types = params.types.length > 0 ? params.types : BULK_EXPORT_TYPES.filter(granted);
  if (types.length === 0) {
    const error = new FhirError(403, 'security', BulkExportErrors.noScopeAtAll);
    throw await refused(db, ctx, who, action, { outcome: 'denied', reason: 'no exportable type', error });
  }

  const requester = requesterOf(who);
  const exportId = randomUUID();
  await withTransaction(db, async (tx) => {
    if ((await countActiveExports(tx, requester)) >= BULK_EXPORT_MAX_ACTIVE_PER_REQUESTER) {
      const error = new FhirError(
        429,
        'throttled',
        BulkExportErrors.tooManyActive(BULK_EXPORT_MAX_ACTIVE_PER_REQUESTER),
      );
      throw await refused(db, ctx, who, action, { outcome: 'denied', reason: 'too many exports running', error });
    }
    await insertExport(tx, {
      id: exportId,
      organizationId: scope.organizationId,
      requester,
      groupId: req.groupId,
      types,
      since: params.since,
      requestUrl: req.requestUrl,
    });
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'bulk_export',
      resourceId: exportId,
      details: {
        ...sourceDetails(who),
        organization_id: scope.organizationId,
        group: req.groupId ?? 'Patient',
        types,
        since: params.since?.toISOString() ?? null,
      },
    });
  });
  return {
    exportId,
    status: 202,
    headers: { 'content-location': `${baseUrl}${BULK_STATUS_PATH}/${exportId}` },
    body: operationOutcome('information', 'informational', BulkExportTexts.accepted),
    json: 'fhir',
  };
}

/**
 * The export a caller follows: theirs (or any, for an administrator), not cancelled, not past its
 * expiry. Anything else, an unknown id included, answers the same 404 and is audited.
 */
async function followedExport(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  exportId: string,
  action: AuditAction,
  need: (e: ExportRow | null) => FhirScopeNeed,
) {
  const found = await findExport(db, exportId);
  const who = await reader(db, ctx, authorization, action, need(found));
  const gone = !found || found.status === 'cancelled' || (found.expires_at !== null && found.expires_at <= new Date());
  const theirs = found !== null && mayFollowExport(who, { kind: found.requester_kind, id: found.requester_id });
  if (gone || !theirs) {
    await audit(db, ctx, {
      action,
      outcome: found && !theirs ? 'denied' : 'failure',
      resourceType: 'bulk_export',
      resourceId: exportId,
      reason: !found ? 'no such export' : !theirs ? 'export of another requester' : 'export cancelled or expired',
      details: sourceDetails(who),
    });
    throw notFound();
  }
  return { who, found };
}

/** The status and the files a kick-off needed: its group or its patients. */
const followNeed = (e: ExportRow | null): FhirScopeNeed => ({
  resourceType: e?.group_id ? 'Group' : 'Patient',
  interaction: 's',
});

/** The status request: 202 with progress while it runs, the manifest when complete, 500 when it failed. */
export async function exportStatus(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  exportId: string,
  baseUrl: string,
): Promise<BulkAnswer> {
  const action = 'fhir.export.status';
  const { who, found } = await followedExport(db, ctx, authorization, exportId, action, followNeed);
  await audit(db, ctx, {
    action,
    outcome: 'success',
    resourceType: 'bulk_export',
    resourceId: exportId,
    details: { ...sourceDetails(who), status: found.status },
  });
  if (found.status === 'queued' || found.status === 'running') {
    return {
      status: 202,
      headers: {
        'x-progress': found.progress ?? BulkExportTexts.queued,
        'retry-after': String(BULK_EXPORT_RETRY_AFTER_SECONDS),
      },
    };
  }
  if (found.status === 'failed') {
    const outcome: OperationOutcome = operationOutcome('fatal', 'exception', BulkExportErrors.failed);
    return { status: 500, body: outcome, json: 'fhir' };
  }
  const files = await exportFiles(db, exportId);
  const manifest: BulkExportManifest = {
    transactionTime: (found.transaction_time ?? found.created_at).toISOString(),
    request: found.request_url,
    requiresAccessToken: true,
    output: files
      .filter((f) => isExportType(f.type))
      .map((f) => ({
        type: f.type as BulkExportType,
        url: `${baseUrl}${BULK_FILES_PATH}/${exportId}/${f.file_name}`,
        count: f.line_count,
      })),
    error: [],
  };
  return {
    status: 200,
    headers: found.expires_at ? { expires: found.expires_at.toUTCString() } : {},
    body: manifest,
    json: 'plain',
  };
}

/** DELETE on the status URL: stops the job and deletes the files; the export then answers 404. */
export async function cancel(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  exportId: string,
): Promise<BulkAnswer> {
  const action = 'fhir.export.cancel';
  const { who, found } = await followedExport(db, ctx, authorization, exportId, action, followNeed);
  await withTransaction(db, async (tx) => {
    await cancelExport(tx, exportId);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'bulk_export',
      resourceId: exportId,
      details: { ...sourceDetails(who), status_before: found.status },
    });
  });
  return {
    status: 202,
    body: operationOutcome('information', 'informational', BulkExportTexts.cancelled),
    json: 'fhir',
  };
}

/** The type a file holds, from its name (`Observation-2.ndjson`). */
const typeOfFile = (fileName: string) => fileName.split('-')[0] ?? '';

/**
 * One NDJSON file, streamed chunk by chunk from the database (one chunk in memory at a time), to
 * whoever asked for the export; audited with the file's size and the export's patient count.
 */
export async function downloadFile(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  exportId: string,
  fileName: string,
): Promise<Readable> {
  const action = 'fhir.export.download';
  const type = typeOfFile(fileName);
  const need = (): FhirScopeNeed => ({ resourceType: isExportType(type) ? type : 'Patient', interaction: 'r' });
  const { who, found } = await followedExport(db, ctx, authorization, exportId, action, need);
  const file = found.status === 'complete' ? await findFile(db, exportId, fileName) : null;
  if (!file) {
    await audit(db, ctx, {
      action,
      outcome: 'failure',
      resourceType: 'bulk_export',
      resourceId: exportId,
      reason: 'no such file',
      details: { ...sourceDetails(who), file: fileName },
    });
    throw notFound();
  }
  await audit(db, ctx, {
    action,
    outcome: 'success',
    resourceType: 'bulk_export',
    resourceId: exportId,
    details: {
      ...sourceDetails(who),
      organization_id: found.organization_id,
      group: found.group_id ?? 'Patient',
      file: fileName,
      type: file.type,
      resources: file.line_count,
      patient_count: found.patient_count,
    },
  });
  return Readable.from(chunks(db, exportId, fileName));
}

async function* chunks(db: pg.Pool, exportId: string, fileName: string) {
  for (let seq = 0; ; seq++) {
    const chunk = await fileChunk(db, exportId, fileName, seq);
    if (!chunk) return;
    yield chunk;
  }
}

/** Group read: the program or panel as an R4 Group with its number of patients. */
export async function readGroup(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  id: string,
): Promise<BulkAnswer> {
  const action = 'fhir.group.read';
  const who = await reader(db, ctx, authorization, action, { resourceType: 'Group', interaction: 'r' });
  const group: ResolvedGroup = await visibleGroup(db, ctx, who, id, action);
  const quantity = await countScopePatients(db, group.scope);
  await audit(db, ctx, {
    action,
    outcome: 'success',
    resourceType: 'group',
    resourceId: id,
    details: { ...sourceDetails(who), organization_id: group.scope.organizationId, quantity },
  });
  return { status: 200, body: presentGroup(group, quantity), json: 'fhir' };
}

/** Group search: the programs and panels of the organizations the caller may export. */
export async function searchGroups(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  query: Record<string, unknown>,
  prefer: string | undefined,
  baseUrl: string,
): Promise<BulkAnswer> {
  const action = 'fhir.group.search';
  const who = await reader(db, ctx, authorization, action, { resourceType: 'Group', interaction: 's' });
  const unknown = Object.keys(query)[0];
  if (unknown !== undefined && preferences(prefer).has('handling=strict')) {
    const error = new FhirError(400, 'not-supported', BulkExportErrors.unknownParameter(unknown));
    throw await refused(db, ctx, who, action, { outcome: 'failure', reason: 'unknown parameter', error });
  }
  const { organizations, providers } = await visibleGroups(db, fhirOrganizationScope(who));
  const groups = [
    ...organizations.map((o) =>
      presentGroup({ id: `org-${o.id}`, name: BulkExportTexts.groupName.organization(o.name) }),
    ),
    ...providers.map((p) =>
      presentGroup({ id: `provider-${p.id}`, name: BulkExportTexts.groupName.provider(providerName(p)) }),
    ),
  ];
  await audit(db, ctx, {
    action,
    outcome: 'success',
    resourceType: 'group',
    details: { ...sourceDetails(who), count: groups.length },
  });
  const bundle: Bundle = {
    resourceType: 'Bundle',
    type: 'searchset',
    total: groups.length,
    link: [{ relation: 'self', url: `${baseUrl}/fhir/R4/Group` }],
    entry: groups.map((resource) => ({
      fullUrl: `${baseUrl}/fhir/R4/Group/${resource.id}`,
      resource,
      search: { mode: 'match' },
    })),
  };
  return { status: 200, body: bundle, json: 'fhir' };
}
