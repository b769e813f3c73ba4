import type { Bundle, BundleEntry, Resource } from '@medplum/fhirtypes';
import { FHIR_BUNDLE_MAX_ENTRIES, IngestionErrors } from '@rpm/contracts';
import type pg from 'pg';
import { withTransaction, type Queryable } from '../../db/pool.ts';
import type { RequestContext } from '../../plugins/context.ts';
import { HttpError } from '../../plugins/errors.ts';
import {
  fhirOrganizationScope,
  mayReadPatientViaFhir,
  mayReadViaFhir,
  maySendForOrganization,
  maySendReadings,
  type FhirReader,
} from '../../policies/ingestion.ts';
import {
  capabilityStatement,
  operationOutcome,
  presentDevice,
  presentObservation,
  presentPatient,
  responseBundle,
  searchBundle,
  type IssueCode,
} from '../../presenters/fhir.ts';
import { audit } from '../audit/audit.service.ts';
import {
  authenticateSource,
  refuseSource,
  rejectReading,
  storeAudited,
  type AuthenticatedSource,
} from '../ingestion/ingest.service.ts';
import { deviceOrganizations } from '../ingestion/device-organizations.repository.ts';
import { insertRejection } from '../ingestion/ingestion-sources.repository.ts';
import { storeLonePulse, type IncomingReading, type ReadingOutcome } from '../ingestion/readings.repository.ts';
import { measurementKey, ReadingRejected } from '../ingestion/reading-rules.ts';
import { sourceIdOfSecret } from '../ingestion/source-secret.ts';
import { parseObservation, type ParsedObservation } from './fhir-observation.ts';
import {
  attributedPatients,
  devicesByIdentifier,
  findPatient,
  findVital,
  patientOrganizations,
  searchVitals,
} from './fhir.repository.ts';

/** An error a FHIR route answers as an OperationOutcome. */
export class FhirError extends HttpError {
  constructor(
    statusCode: number,
    public readonly issueCode: IssueCode,
    message: string,
  ) {
    super(statusCode, message);
  }
}

export interface FhirAnswer {
  status: number;
  location?: string;
  body: Resource;
}

const bearer = (authorization: string | undefined) => /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
/** The source a request's Bearer key names (not yet checked), for counting it against the source's rate limit. */
export function sourceNamedBy(authorization: string | undefined): string | null {
  const key = bearer(authorization);
  return key ? sourceIdOfSecret(key) : null;
}
const notFound = () => new FhirError(404, 'not-found', 'Resource not found');
const kindRefused = () => new FhirError(403, 'security', IngestionErrors.sourceKind);

/** The caller of a FHIR read: a signed-in staff member, or a FHIR source presenting its read key. */
async function reader(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  action: string,
): Promise<FhirReader> {
  if (ctx.actor) return { kind: 'staff', actor: ctx.actor };
  const source = await authenticateSource(db, ctx, null, bearer(authorization), action);
  if (!source) throw new FhirError(401, 'login', IngestionErrors.credentials);
  const who: FhirReader = { kind: 'source', source };
  // A read with a write-only key is refused like a patient of another organization: nothing to learn.
  if (!mayReadViaFhir(who)) {
    throw await refuseSource(db, ctx, source, action, 'no read scope', kindRefused());
  }
  return who;
}

async function writer(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  action: string,
): Promise<AuthenticatedSource> {
  const source = await authenticateSource(db, ctx, null, bearer(authorization), action);
  if (!source) throw new FhirError(401, 'login', IngestionErrors.credentials);
  if (!maySendReadings(source, 'fhir')) {
    throw await refuseSource(db, ctx, source, action, 'not a fhir source', kindRefused());
  }
  return source;
}

const sourceDetails = (r: FhirReader) =>
  r.kind === 'source'
    ? { via: 'fhir', source_id: r.source.id, organization_id: r.source.organizationId }
    : { via: 'fhir' };

/**
 * A read refused or of something that does not exist: both answer the same 404, so ids of other
 * organizations cannot be probed; the audit record tells the two apart.
 */
async function unreadable(
  db: Queryable,
  ctx: RequestContext,
  who: FhirReader,
  r: { action: string; resourceType: 'patient' | 'observation'; resourceId: number; exists: boolean },
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
async function readablePatient(db: Queryable, ctx: RequestContext, who: FhirReader, patientId: number, action: string) {
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
  const who = await reader(db, ctx, authorization, action);
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
  const who = await reader(db, ctx, authorization, action);
  const vital = await findVital(db, id);
  if (!vital || !mayReadPatientViaFhir(who, vital.organization_id)) {
    throw await unreadable(db, ctx, who, { action, resourceType: 'observation', resourceId: id, exists: !!vital });
  }
  await audit(db, ctx, {
    action,
    outcome: 'success',
    resourceType: 'patient',
    resourceId: vital.patient_id,
    details: { ...sourceDetails(who), observation_id: id },
  });
  return { status: 200, body: presentObservation(vital) };
}

/** A FHIR date or dateTime search value; a date alone means midnight UTC. */
function searchInstant(value: string): Date {
  const m = /^(ge|gt|le|lt|eq)?(\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)$/.exec(value);
  const t = m ? new Date(m[3] ? m[2]! : `${m[2]}T00:00:00Z`) : null;
  if (!t || Number.isNaN(t.getTime()))
    throw new FhirError(
      400,
      'invalid',
      `date must be ge, gt, le or lt followed by a FHIR date or dateTime (got "${value.slice(0, 40)}")`,
    );
  return t;
}

export interface ObservationQuery {
  patient?: string;
  date?: string | string[];
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
  const who = await reader(db, ctx, authorization, action);
  const m = /^(?:Patient\/)?(\d{1,9})$/.exec(q.patient ?? '');
  if (!m) throw new FhirError(400, 'required', 'patient is required: Patient/{id} or {id}');
  const patientId = Number(m[1]);
  let from: Date | null = null;
  let to: Date | null = null;
  for (const d of [q.date ?? []].flat()) {
    const t = searchInstant(d);
    if (d.startsWith('ge') || d.startsWith('eq')) from = t;
    else if (d.startsWith('gt')) from = new Date(t.getTime() + 1);
    else if (d.startsWith('lt')) to = t;
    else if (d.startsWith('le')) to = new Date(t.getTime() + 1);
    else throw new FhirError(400, 'invalid', 'date needs a prefix: ge, gt, le or lt');
  }
  const count = q._count ?? 50;
  const offset = q._offset ?? 0;
  await readablePatient(db, ctx, who, patientId, action);
  const rows = await searchVitals(db, { patientId, from, to, limit: count + 1, offset });
  const params = new URLSearchParams({ patient: String(patientId) });
  for (const d of [q.date ?? []].flat()) params.append('date', d);
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
    body: searchBundle(rows.slice(0, count).map(presentObservation), {
      self: url(offset),
      ...(rows.length > count ? { next: url(offset + count) } : {}),
    }),
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
  const who = await reader(db, ctx, authorization, action);
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

/** A parsed entry, or why it was refused. */
type Checked = { ok: true; parsed: ParsedObservation } | { ok: false; error: ReadingRejected };

/** Parses entries and checks each `subject` against the patient who had the device at that time. */
async function check(db: Queryable, resources: { resource: unknown; at: string }[]): Promise<Checked[]> {
  const checked: Checked[] = resources.map(({ resource, at }) => {
    try {
      return { ok: true, parsed: parseObservation(resource, at) };
    } catch (err) {
      if (err instanceof ReadingRejected) return { ok: false, error: err };
      throw err;
    }
  });
  const withSubject = checked.flatMap((c, i) => (c.ok && c.parsed.subjectPatientId !== null ? [i] : []));
  const owners = await attributedPatients(
    db,
    withSubject.map((i) => {
      const p = (checked[i] as { parsed: ParsedObservation }).parsed;
      const r = p.kind === 'reading' ? p.reading : p.pulse;
      return { device: r.deviceIdentifier, at: r.measuredAt };
    }),
  );
  withSubject.forEach((i, k) => {
    const c = checked[i] as { ok: true; parsed: ParsedObservation };
    const owner = owners[k];
    if (owner !== null && owner !== undefined && owner !== c.parsed.subjectPatientId) {
      const r = c.parsed.kind === 'reading' ? c.parsed.reading : c.parsed.pulse;
      checked[i] = {
        ok: false,
        error: new ReadingRejected(
          `${resources[i]!.at}subject must be the patient who had the device at effectiveDateTime`,
          r.deviceIdentifier,
        ),
      };
    }
  });
  return checked;
}

/** An entry about a patient of another organization than the writing source's: refused, 403. */
class OtherOrganization extends ReadingRejected {}

const refusalStatus = (error: ReadingRejected) => (error instanceof OtherOrganization ? 403 : 400);

/**
 * Refuses, in place, each accepted entry whose device (at its time) or subject belongs to a patient
 * of another organization than the source's: nothing is stored for it, not even as a lone pulse,
 * and the call gets one `denied` record naming the source and the entries.
 */
async function keepToOrganization(
  db: Queryable,
  ctx: RequestContext,
  source: AuthenticatedSource,
  action: string,
  checked: Checked[],
  at: (i: number) => string,
): Promise<void> {
  const accepted = checked.flatMap((c, i) => (c.ok ? [{ i, parsed: c.parsed }] : []));
  const reading = (p: ParsedObservation) => (p.kind === 'reading' ? p.reading : p.pulse);
  const deviceOrgs = await deviceOrganizations(
    db,
    accepted.map(({ parsed }) => ({ device: reading(parsed).deviceIdentifier, at: reading(parsed).measuredAt })),
  );
  const subjectOrgs = await patientOrganizations(
    db,
    accepted.flatMap(({ parsed }) => (parsed.subjectPatientId !== null ? [parsed.subjectPatientId] : [])),
  );
  const refused: number[] = [];
  accepted.forEach(({ i, parsed }, k) => {
    const subjectOrg = parsed.subjectPatientId !== null ? subjectOrgs.get(parsed.subjectPatientId) : undefined;
    const outside = [deviceOrgs[k] ?? null, subjectOrg ?? null].some(
      (org) => org !== null && !maySendForOrganization(source, org),
    );
    if (!outside) return;
    checked[i] = {
      ok: false,
      error: new OtherOrganization(`${at(i)}${IngestionErrors.otherOrganization}`, reading(parsed).deviceIdentifier),
    };
    refused.push(i);
  });
  if (refused.length === 0) return;
  await audit(db, ctx, {
    action,
    outcome: 'denied',
    resourceType: 'ingestion_source',
    resourceId: source.id,
    reason: 'patient of another organization',
    details: { organization_id: source.organizationId, entries: refused },
  });
}

interface Stored {
  outcomes: (ReadingOutcome | { status: 'pulse'; merged: boolean } | null)[];
}

/** Stores the accepted entries in one transaction with the call's audit record; duplicates within the request count once. */
async function store(
  tx: Queryable,
  ctx: RequestContext,
  source: AuthenticatedSource,
  action: string,
  checked: Checked[],
): Promise<Stored> {
  const readings: IncomingReading[] = [];
  const readingOf = new Map<number, number>();
  const firstByKey = new Map<string, number>();
  const outcomes: Stored['outcomes'] = checked.map(() => null);
  for (const [i, c] of checked.entries()) {
    if (!c.ok) continue;
    if (c.parsed.kind === 'pulse') {
      outcomes[i] = { status: 'pulse', merged: await storeLonePulse(tx, source.id, c.parsed.pulse) };
      continue;
    }
    const r = c.parsed.reading;
    const key = measurementKey(r.deviceIdentifier, r.measuredAt, r.kind);
    const first = firstByKey.get(key);
    if (first !== undefined) {
      readingOf.set(i, first);
      continue;
    }
    firstByKey.set(key, readings.length);
    readingOf.set(i, readings.length);
    readings.push(r);
  }
  const entryCount = checked.length;
  const results = await storeAudited(
    tx,
    ctx,
    source,
    action,
    readings,
    { entries: entryCount, refused: checked.filter((c) => !c.ok).length },
    entryCount - readings.length,
  );
  const claimed = new Set<number>();
  for (const [i, k] of readingOf) {
    const o = results[k]!;
    // The second copy of a measurement in one request is a duplicate of the first.
    outcomes[i] =
      claimed.has(k) && o.status === 'stored' ? { status: 'duplicate', vitalId: o.vitalId, patientId: o.patientId } : o;
    claimed.add(k);
  }
  return { outcomes };
}

function entryResponse(o: Stored['outcomes'][number]): BundleEntry {
  if (!o) return {};
  if (o.status === 'stored') return { response: { status: '201 Created', location: `Observation/${o.vitalId}` } };
  if (o.status === 'duplicate')
    return { response: { status: '200 OK', ...(o.vitalId ? { location: `Observation/${o.vitalId}` } : {}) } };
  if (o.status === 'unmatched') {
    return {
      response: {
        status: '202 Accepted',
        outcome: operationOutcome(
          'information',
          'informational',
          'No patient had this device at effectiveDateTime: kept as an unmatched reading until the device is assigned',
        ),
      },
    };
  }
  return {
    response: {
      status: '200 OK',
      outcome: operationOutcome(
        'information',
        'informational',
        o.merged
          ? 'Heart rate added to its blood-pressure reading'
          : 'Heart rate kept until its blood-pressure reading arrives',
      ),
    },
  };
}

/** POST /fhir/R4/Observation */
export async function createObservation(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  body: unknown,
  baseUrl: string,
): Promise<FhirAnswer> {
  const action = 'fhir.observation.create';
  const source = await writer(db, ctx, authorization, action);
  const all = await check(db, [{ resource: body, at: '' }]);
  await keepToOrganization(db, ctx, source, action, all, () => '');
  const [checked] = all;
  if (!checked!.ok) {
    await rejectReading(db, ctx, source, action, checked!.error);
    const status = refusalStatus(checked!.error);
    throw new FhirError(status, status === 403 ? 'security' : 'invalid', checked!.error.message);
  }
  const { outcomes } = await withTransaction(db, (tx) => store(tx, ctx, source, action, [checked!]));
  const o = outcomes[0]!;
  if (o.status === 'stored' || (o.status === 'duplicate' && o.vitalId)) {
    const vital = await findVital(db, o.vitalId!);
    return {
      status: o.status === 'stored' ? 201 : 200,
      location: `${baseUrl}/fhir/R4/Observation/${o.vitalId}`,
      body: presentObservation(vital!),
    };
  }
  const response = entryResponse(o).response!;
  return {
    status: o.status === 'unmatched' ? 202 : 200,
    body: response.outcome ?? operationOutcome('information', 'informational', 'Already stored'),
  };
}

/** POST /fhir/R4: a batch (each entry on its own) or a transaction (all or nothing) of Observations. */
export async function processBundle(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  body: unknown,
): Promise<FhirAnswer> {
  const action = 'fhir.bundle';
  const source = await writer(db, ctx, authorization, action);
  const bundle = body as Bundle;
  const refuse = async (message: string, code: IssueCode = 'invalid', status = 400) => {
    await rejectReading(db, ctx, source, action, new ReadingRejected(message));
    return new FhirError(status, code, message);
  };
  if (typeof body !== 'object' || body === null || bundle.resourceType !== 'Bundle')
    throw await refuse('resourceType must be Bundle');
  if (bundle.type !== 'batch' && bundle.type !== 'transaction')
    throw await refuse('type must be batch or transaction', 'not-supported');
  const entries = bundle.entry ?? [];
  if (!Array.isArray(entries)) throw await refuse('entry must be an array');
  if (entries.length > FHIR_BUNDLE_MAX_ENTRIES)
    throw await refuse(`entry must hold at most ${FHIR_BUNDLE_MAX_ENTRIES} entries`, 'too-costly', 413);
  const resources = entries.map((e, i) => {
    const at = `entry[${i}].resource.`;
    const request = (e as BundleEntry | null)?.request;
    if (request?.method !== 'POST' || !/^(?:Observation)\/?$/.test(request.url ?? '')) {
      return { resource: { resourceType: 'not-supported' }, at, unsupported: true };
    }
    return { resource: (e as BundleEntry).resource, at, unsupported: false };
  });
  const checked = await check(db, resources);
  resources.forEach((r, i) => {
    if (r.unsupported)
      checked[i] = { ok: false, error: new ReadingRejected(`${r.at}request must be POST Observation`) };
  });
  await keepToOrganization(db, ctx, source, action, checked, (i) => resources[i]!.at);
  const refused = checked.flatMap((c, i) => (c.ok ? [] : [{ i, error: c.error }]));
  if (bundle.type === 'transaction' && refused.length > 0) {
    await rejectReading(db, ctx, source, action, refused[0]!.error);
    const status = refusalStatus(refused[0]!.error);
    throw new FhirError(status, status === 403 ? 'security' : 'invalid', refused[0]!.error.message);
  }
  const { outcomes } = await withTransaction(db, async (tx) => {
    // Only the first refusals are worth keeping: the list shows the newest few anyway.
    for (const r of refused.slice(0, 5))
      await insertRejection(tx, {
        sourceId: source.id,
        reason: r.error.message,
        deviceIdentifier: r.error.deviceIdentifier,
      });
    return store(tx, ctx, source, action, checked);
  });
  const responseEntries: BundleEntry[] = checked.map((c, i) =>
    c.ok
      ? entryResponse(outcomes[i]!)
      : refusalStatus(c.error) === 403
        ? { response: { status: '403 Forbidden', outcome: operationOutcome('error', 'security', c.error.message) } }
        : { response: { status: '400 Bad Request', outcome: operationOutcome('error', 'invalid', c.error.message) } },
  );
  return {
    status: 200,
    body: responseBundle(bundle.type === 'batch' ? 'batch-response' : 'transaction-response', responseEntries),
  };
}

export { operationOutcome };
