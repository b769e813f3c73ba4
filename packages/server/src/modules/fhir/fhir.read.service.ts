import {
  FhirErrors,
  MEASUREMENT_KINDS,
  parseFhirDateTime,
  type AuditAction,
  type MeasurementKind,
} from '@rpm/contracts';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import { fhirOrganizationScope, mayReadPatientViaFhir, type FhirReader } from '../../policies/ingestion.ts';
import {
  capabilityStatement,
  CATEGORY_SYSTEM,
  kindCodes,
  LOINC,
  presentDevice,
  presentObservation,
  presentPatient,
  searchBundle,
} from './fhir.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { FhirError, notFound, reader, sourceDetails, type FhirAnswer } from './fhir.auth.ts';
import {
  devicesByIdentifier,
  findObservation,
  findPatient,
  searchObservationRows,
  type DateCondition,
} from './fhir.repository.ts';

const registryKinds: readonly MeasurementKind[] = MEASUREMENT_KINDS;
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
 * A token search value (`system|code`, `|code` or `code`) against a code of `system`: a bare code
 * matches in any system, `|code` only a code without one (none of the portal's).
 */
function tokenMatches(value: string, system: string, code: string): boolean {
  const bar = value.indexOf('|');
  if (bar < 0) return value === code;
  return value.slice(0, bar) === system && value.slice(bar + 1) === code;
}

/**
 * The kinds a search's `code` and `category` parameters select: each parameter given narrows
 * (AND), the comma-separated values of one widen (OR). `code` matches a kind's LOINC or one of
 * its alternates, `category` its FHIR category. A code no kind has selects nothing.
 */
export function kindsSearched(q: { code?: string | string[]; category?: string | string[] }): string[] {
  const selects = (values: string[], matches: (k: MeasurementKind, v: string) => boolean) => (k: MeasurementKind) =>
    values.every((param) => param.split(',').some((v) => matches(k, v.trim())));
  const byCode = selects([q.code ?? []].flat(), (k, v) => kindCodes(k).some((c) => tokenMatches(v, LOINC, c)));
  const byCategory = selects([q.category ?? []].flat(), (k, v) => tokenMatches(v, CATEGORY_SYSTEM, k.category));
  return registryKinds.filter((k) => byCode(k) && byCategory(k)).map((k) => k.kind);
}

/** A search's `patient` (required: `Patient/{id}` or `{id}`) and its `date` conditions. */
export function patientSearch(q: { patient?: string; date?: string | string[] }): { patientId: number; dates: DateCondition[] } {
  const m = /^(?:Patient\/)?(\d{1,9})$/.exec(q.patient ?? '');
  if (!m) throw new FhirError(400, 'required', 'patient is required: Patient/{id} or {id}');
  return { patientId: Number(m[1]), dates: [q.date ?? []].flat().map(dateCondition) };
}

export interface ObservationQuery {
  patient?: string;
  date?: string | string[];
  code?: string | string[];
  category?: string | string[];
  _count?: number;
  _offset?: number;
}

export async function searchObservations(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  q: ObservationQuery,
  baseUrl: string,
): Promise<FhirAnswer> {
  const action = 'fhir.observation.search';
  const who = await reader(db, ctx, authorization, action, { resourceType: 'Observation', interaction: 's' });
  const { patientId, dates } = patientSearch(q);
  const count = q._count ?? 50;
  const offset = q._offset ?? 0;
  await readablePatient(db, ctx, who, patientId, action);
  const kinds = kindsSearched(q);
  const rows = await searchObservationRows(db, { patientId, kinds, dates, limit: count + 1, offset });
  const params = new URLSearchParams({ patient: String(patientId) });
  for (const d of [q.date ?? []].flat()) params.append('date', d);
  for (const c of [q.code ?? []].flat()) params.append('code', c);
  for (const c of [q.category ?? []].flat()) params.append('category', c);
  params.set('_count', String(count));
  const url = (o: number) => `${baseUrl}/fhir/R4/Observation?${params.toString()}${o ? `&_offset=${o}` : ''}`;
  await audit(db, ctx, {
    action,
    outcome: 'success',
    resourceType: 'patient',
    resourceId: patientId,
    details: { ...sourceDetails(who), count: Math.min(rows.length, count), offset },
  });
  return {
    status: 200,
    body: searchBundle(
      rows.slice(0, count).flatMap((r) => presentObservation(r) ?? []),
      {
        self: url(offset),
        ...(rows.length > count ? { next: url(offset + count) } : {}),
      },
    ),
  };
}

export async function searchDevices(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  identifier: string | undefined,
  baseUrl: string,
): Promise<FhirAnswer> {
  const action = 'fhir.device.search';
  const who = await reader(db, ctx, authorization, action, { resourceType: 'Device', interaction: 's' });
  // identifier=value or identifier=system|value
  const value = identifier?.includes('|') ? identifier.split('|').slice(1).join('|') : identifier;
  if (!value?.trim()) throw new FhirError(400, 'required', 'identifier is required');
  const rows = await devicesByIdentifier(db, value, fhirOrganizationScope(who));
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
    body: searchBundle(rows.map(presentDevice), {
      self: `${baseUrl}/fhir/R4/Device?identifier=${encodeURIComponent(identifier ?? '')}`,
    }),
  };
}
