import { randomUUID } from 'node:crypto';
import {
  BULK_EXPORT_MAX_ACTIVE_PER_REQUESTER,
  BULK_EXPORT_TYPES,
  BULK_STATUS_PATH,
  BulkExportErrors,
  BulkExportTexts,
  type AuditAction,
  type BulkExportManifest,
  type BulkExportType,
  type BulkKickoffQuery,
} from '@rpm/contracts';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import type { Queryable } from '../../db/pool.ts';
import { audit } from '../../kernel/audit-writer.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import { mayExportGroupOf, patientExportOrganization, requesterOf } from '../../policies/bulk-export.ts';
import { readerHasScope, type FhirScopeNeed } from '../../policies/fhir-scopes.ts';
import { fhirOrganizationScope, type FhirReader } from '../../policies/ingestion.ts';
import { FhirError, notFound, operationOutcome, reader, sourceDetails } from '../fhir/index.ts';
import { acceptable, kickoffParameters, preferences } from './bulk-export.parameters.ts';
import { presentGroup, providerName, resolveGroup, type ResolvedGroup } from './bulk-export.groups.ts';
import { countActiveExports, insertExport, type ExportScope } from './bulk-export.repository.ts';
import { countScopePatients, visibleGroups } from './bulk-export.resources.repository.ts';

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
