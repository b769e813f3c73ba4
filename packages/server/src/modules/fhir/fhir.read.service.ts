import {
  FHIR_OBSERVATION_INCLUDES,
  FHIR_OBSERVATION_SORTS,
  FHIR_SEARCH_DEFAULT_COUNT,
  type FHIR_TOTAL_MODES,
  FhirErrors,
  parseFhirDateTime,
  type AuditAction,
} from '@rpm/contracts';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import { fhirOrganizationScope, mayReadPatientViaFhir, type FhirReader } from '../../policies/ingestion.ts';
import { DEVICE_ID_SYSTEM, presentDevice, presentObservation, presentPatient, searchBundle } from './fhir.presenter.ts';
import { capabilityStatement } from './fhir.capability.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { FhirError, notFound, reader, sourceDetails, type FhirAnswer } from './fhir.auth.ts';
import {
  countObservationRows,
  countPatientRows,
  devicesByIdentifier,
  findObservation,
  findPatient,
  identifiersOf,
  searchObservationRows,
  searchPatientRows,
  type ObservationPosition,
  type PatientFilter,
} from './fhir.repository.ts';
import { readerHasScope } from '../../policies/fhir-scopes.ts';
import {
  decodeCursor,
  encodeCursor,
  knownParameters,
  orLists,
  pageLinks,
  parseToken,
  supportedValue,
  type SearchRequest,
} from './fhir-search.ts';
import { kindsSearched, patientSearch, registryKinds } from './fhir-search-criteria.ts';

const ALL_KINDS = registryKinds.map((k) => k.kind);

/**
 * A read refused or of something that does not exist: both answer the same 404, so ids of other
 * organizations cannot be probed; the audit record tells the two apart.
 */
async function unreadable(
  db: Queryable,
  ctx: RequestContext,
  who: FhirReader,
  r: { action: AuditAction; resourceType: 'patient' | 'observation'; resourceId: number; exists: boolean },
): Promise<FhirError> {
  await audit(db, ctx, {
    action: r.action,
    outcome: r.exists ? 'denied' : 'failure',
    resourceType: r.resourceType,
    resourceId: r.resourceId,
    reason: r.exists ? 'patient of another organization' : `no such ${r.resourceType}`,
    details: sourceDetails(who),
  });
  return notFound();
}

/** The patient-level check of every FHIR read: unknown and not-allowed answer the same 404. */
export async function readablePatient(
  db: Queryable,
  ctx: RequestContext,
  who: FhirReader,
  patientId: number,
  action: AuditAction,
) {
  const patient = await findPatient(db, patientId);
  if (!patient || !mayReadPatientViaFhir(who, patient.organization_id)) {
    throw await unreadable(db, ctx, who, { action, resourceType: 'patient', resourceId: patientId, exists: !!patient });
  }
  return patient;
}

/**
 * The senders' identifiers of these observations, for presenting them outside a FHIR request
 * (the bulk export): `presentObservation({ ...row, identifiers: map.get(row.id) ?? [] })`.
 */
export const observationIdentifiers = (db: Queryable, ids: readonly number[]) => identifiersOf(db, ids);

export const metadata = (publicUrl: string): FhirAnswer => ({
  status: 200,
  body: capabilityStatement(publicUrl, '2026-01-01'),
});

export async function readPatient(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  id: number,
): Promise<FhirAnswer> {
  const action = 'fhir.patient.read';
  const who = await reader(db, ctx, authorization, action, { resourceType: 'Patient', interaction: 'r' });
  const patient = await readablePatient(db, ctx, who, id, action);
  await audit(db, ctx, {
    action,
    outcome: 'success',
    resourceType: 'patient',
    resourceId: id,
    details: sourceDetails(who),
  });
  return { status: 200, body: presentPatient(patient) };
}

export async function readObservation(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  id: number,
): Promise<FhirAnswer> {
  const action = 'fhir.observation.read';
  const who = await reader(db, ctx, authorization, action, { resourceType: 'Observation', interaction: 'r' });
  const vital = await findObservation(db, id, ALL_KINDS);
  const observation = vital ? presentObservation(vital) : undefined;
  if (!vital || !observation || !mayReadPatientViaFhir(who, vital.organization_id)) {
    throw await unreadable(db, ctx, who, { action, resourceType: 'observation', resourceId: id, exists: !!vital });
  }
  await audit(db, ctx, {
    action,
    outcome: 'success',
    resourceType: 'patient',
    resourceId: vital.patient_id,
    details: { ...sourceDetails(who), observation_id: id },
  });
  return { status: 200, body: observation };
}

export interface ObservationQuery {
  patient?: string;
  subject?: string;
  date?: string | string[];
  code?: string | string[];
  category?: string | string[];
  _count?: number;
  _offset?: number;
  _sort?: string;
  _total?: (typeof FHIR_TOTAL_MODES)[number];
  _include?: string | string[];
  _cursor?: string;
}

/** The Observation search parameters this server honours (CapabilityStatement says the same). */
export const OBSERVATION_SEARCH_PARAMETERS = [
  'patient',
  'subject',
  'date',
  'code',
  'category',
  '_count',
  '_offset',
  '_sort',
  '_total',
  '_include',
  '_cursor',
] as const;

/** An Observation page position: the last row's stored time and id, and the order it was read in. */
const observationCursor = (v: Record<string, unknown>): (ObservationPosition & { order: 'asc' | 'desc' }) | null =>
  typeof v.at === 'string' &&
  parseFhirDateTime(v.at, true) !== null &&
  typeof v.id === 'number' &&
  Number.isSafeInteger(v.id) &&
  (v.order === 'asc' || v.order === 'desc')
    ? { at: v.at, id: v.id, order: v.order }
    : null;

/**
 * GET /fhir/R4/Observation?patient=…: the patient's Observations of the kinds `code` and
 * `category` select and within every `date` condition, by measurement time (`_sort=date` oldest
 * first, `-date` newest first, the default), with the total (unless `_total=none`) and, for
 * `_include=Observation:patient`, the Patient. Pages follow a keyset cursor so that readings
 * arriving meanwhile neither repeat nor skip rows of later pages.
 */
export async function searchObservations(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  q: ObservationQuery,
  request: SearchRequest,
  baseUrl: string,
): Promise<FhirAnswer> {
  const action = 'fhir.observation.search';
  const who = await reader(db, ctx, authorization, action, { resourceType: 'Observation', interaction: 's' });
  const params = knownParameters(request, OBSERVATION_SEARCH_PARAMETERS);
  const { patientId, dates } = patientSearch(q);
  const count = q._count ?? FHIR_SEARCH_DEFAULT_COUNT;
  const sort =
    q._sort !== undefined && supportedValue(request, '_sort', q._sort, FHIR_OBSERVATION_SORTS) ? q._sort : '-date';
  if (sort !== q._sort) params.delete('_sort');
  const order = sort === 'date' ? 'asc' : 'desc';
  const includes = [q._include ?? []]
    .flat()
    .filter((v) => supportedValue(request, '_include', v, FHIR_OBSERVATION_INCLUDES));
  params.delete('_include');
  for (const v of includes) params.append('_include', v);
  const after = q._cursor !== undefined ? decodeCursor(q._cursor, observationCursor) : null;
  if (after && after.order !== order) throw new FhirError(400, 'invalid', FhirErrors.cursor);
  const offset = after ? 0 : (q._offset ?? 0);
  await readablePatient(db, ctx, who, patientId, action);
  const filter = { patientId, kinds: kindsSearched(q), dates };
  const rows = await searchObservationRows(db, filter, { order, after, offset, limit: count + 1 });
  const page = rows.slice(0, count);
  const total = q._total === 'none' ? undefined : await countObservationRows(db, filter);
  // The Patient only for a reader who may read Patients too: an include never widens a grant.
  const patient =
    includes.length > 0 && page.length > 0 && readerHasScope(who, { resourceType: 'Patient', interaction: 'r' })
      ? await findPatient(db, patientId)
      : null;
  params.delete('_cursor');
  params.delete('_offset');
  params.set('_count', String(count));
  const last = page.at(-1);
  const links = pageLinks(
    (p) => `${baseUrl}/fhir/R4/Observation?${p.toString()}`,
    params,
    q._cursor !== undefined ? { _cursor: q._cursor } : offset > 0 ? { _offset: String(offset) } : {},
    rows.length > count && last ? { _cursor: encodeCursor({ at: last.position_at, id: last.id, order }) } : null,
  );
  await audit(db, ctx, {
    action,
    outcome: 'success',
    resourceType: 'patient',
    resourceId: patientId,
    details: {
      ...sourceDetails(who),
      count: page.length,
      ...(total !== undefined ? { total } : {}),
      ...(patient ? { included: [`Patient/${patientId}`] } : {}),
    },
  });
  return {
    status: 200,
    body: searchBundle(
      page.flatMap((r) => presentObservation(r) ?? []),
      links,
      { ...(total !== undefined ? { total } : {}), ...(patient ? { included: [presentPatient(patient)] } : {}) },
    ),
  };
}

export interface PatientQuery {
  _id?: string | string[];
  identifier?: string | string[];
  name?: string | string[];
  'name:contains'?: string | string[];
  'name:exact'?: string | string[];
  _count?: number;
  _total?: (typeof FHIR_TOTAL_MODES)[number];
  _cursor?: string;
}

/** The Patient search parameters this server honours (CapabilityStatement says the same). */
export const PATIENT_SEARCH_PARAMETERS = [
  '_id',
  'identifier',
  'name',
  'name:contains',
  'name:exact',
  '_count',
  '_total',
  '_cursor',
] as const;

const patientCursor = (v: Record<string, unknown>): { after: number } | null =>
  typeof v.after === 'number' && Number.isSafeInteger(v.after) && v.after > 0 ? { after: v.after } : null;

/**
 * GET /fhir/R4/Patient?identifier=…&name=…&_id=…: the Patients the reader may see (their
 * organization's; every organization for an admin) that match every parameter. `identifier`
 * is a token against the MRN in the organization's identifier system; `name` matches the
 * start of the first, middle or last name whatever the case and accents. In id order, paged
 * by cursor.
 */
export async function searchPatients(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  q: PatientQuery,
  request: SearchRequest,
  baseUrl: string,
): Promise<FhirAnswer> {
  const action = 'fhir.patient.search';
  const who = await reader(db, ctx, authorization, action, { resourceType: 'Patient', interaction: 's' });
  const params = knownParameters(request, PATIENT_SEARCH_PARAMETERS);
  const count = q._count ?? FHIR_SEARCH_DEFAULT_COUNT;
  const after = q._cursor !== undefined ? decodeCursor(q._cursor, patientCursor).after : null;
  const filter: PatientFilter = {
    organizationId: fhirOrganizationScope(who),
    // An id that is not the portal's (digits) names no Patient here.
    ids: orLists(q._id, '_id').map((ids) => ids.flatMap((id) => (/^[1-9]\d{0,8}$/.test(id) ? [Number(id)] : []))),
    identifiers: orLists(q.identifier, 'identifier').map((values) => values.map(parseToken)),
    names: [
      ...orLists(q.name, 'name').map((values) => ({ match: 'start' as const, values })),
      ...orLists(q['name:contains'], 'name:contains').map((values) => ({ match: 'contains' as const, values })),
      ...orLists(q['name:exact'], 'name:exact').map((values) => ({ match: 'exact' as const, values })),
    ],
  };
  const rows = await searchPatientRows(db, filter, { after, limit: count + 1 });
  const page = rows.slice(0, count);
  const total = q._total === 'none' ? undefined : await countPatientRows(db, filter);
  params.delete('_cursor');
  params.set('_count', String(count));
  const last = page.at(-1);
  const links = pageLinks(
    (p) => `${baseUrl}/fhir/R4/Patient?${p.toString()}`,
    params,
    q._cursor !== undefined ? { _cursor: q._cursor } : {},
    rows.length > count && last ? { _cursor: encodeCursor({ after: last.id }) } : null,
  );
  await audit(db, ctx, {
    action,
    outcome: 'success',
    resourceType: 'patient',
    details: {
      ...sourceDetails(who),
      count: page.length,
      ...(total !== undefined ? { total } : {}),
      patient_ids: page.map((p) => p.id),
    },
  });
  return {
    status: 200,
    body: searchBundle(page.map(presentPatient), links, total !== undefined ? { total } : {}),
  };
}

export async function searchDevices(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  identifier: string | undefined,
  baseUrl: string,
  request: SearchRequest = { rawQuery: '', prefer: undefined },
): Promise<FhirAnswer> {
  const action = 'fhir.device.search';
  const who = await reader(db, ctx, authorization, action, { resourceType: 'Device', interaction: 's' });
  knownParameters(request, ['identifier']);
  // identifier=value (any system) or identifier=system|value: the portal's device ids are of one
  // system, so another system (or none, `|value`) names no device here.
  const token = parseToken(identifier ?? '');
  if (!token.value.trim()) throw new FhirError(400, 'required', 'identifier is required');
  const rows =
    token.system === undefined || token.system === DEVICE_ID_SYSTEM
      ? await devicesByIdentifier(db, token.value, fhirOrganizationScope(who))
      : [];
  await audit(db, ctx, {
    action,
    outcome: 'success',
    resourceType: 'device',
    details: {
      ...sourceDetails(who),
      count: rows.length,
      patient_ids: rows.flatMap((r) => (r.patient_id ? [r.patient_id] : [])),
    },
  });
  return {
    status: 200,
    body: searchBundle(
      rows.map(presentDevice),
      { self: `${baseUrl}/fhir/R4/Device?identifier=${encodeURIComponent(identifier ?? '')}` },
      // Not paged: every match is in this Bundle.
      { total: rows.length },
    ),
  };
}
