import type { BundleEntry } from '@medplum/fhirtypes';
import {
  BillingErrors,
  FHIR_BUNDLE_MAX_ENTRIES,
  FhirBundleEntryInput,
  FhirBundleInput,
  FhirErrors,
  IngestionErrors,
  kindByLoinc,
  MEASUREMENT_KINDS,
  type AuditAction,
} from '@rpm/contracts';
import type pg from 'pg';
import { Compile } from 'typebox/compile';
import { withTransaction, type Queryable } from '../../db/pool.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import { maySendForOrganization } from '../../policies/ingestion.ts';
import {
  LOINC_BP_PANEL,
  LOINC_HEART_RATE,
  operationOutcome,
  presentObservation,
  responseBundle,
  versionMeta,
  type IssueCode,
} from './fhir.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { readingsInClosedMonths } from '../billing/index.ts';
import {
  measurementKey,
  organizationsOfDevices,
  ReadingRejected,
  recordRejections,
  rejectReading,
  storeAudited,
  type AuthenticatedSource,
  type IncomingReading,
  type ReadingOutcome,
} from '../ingestion/index.ts';
import { FhirError, writer, type FhirAnswer } from './fhir.auth.ts';
import { checked, parseObservation, type ParsedObservation } from './fhir-observation.ts';
import {
  attributedPatients,
  findObservation,
  observationsByIdentifier,
  patientOrganizations,
  receivedTimes,
  storeIdentifiers,
  type Token,
} from './fhir.repository.ts';
import { parseToken } from './fhir-search.ts';

/** A parsed entry, or why it was refused. */
type Checked = { ok: true; parsed: ParsedObservation } | { ok: false; error: ReadingRejected };

const checkEntry = Compile(FhirBundleEntryInput);
const checkBundle = Compile(FhirBundleInput);

/** Runs a check; a refusal of the input becomes the entry's refusal, anything else stays a fault. */
function attempt(run: () => ParsedObservation): Checked {
  try {
    return { ok: true, parsed: run() };
  } catch (err) {
    if (err instanceof ReadingRejected) return { ok: false, error: err };
    throw err;
  }
}

/**
 * Checks each `subject` against the patient who had the device at measurement time. A subject
 * that cannot be confirmed (nobody had the device then) is refused rather than dropped: the
 * sender said whose reading it is, and parking it unmatched would later file it under whoever
 * gets the device, silently contradicting the sender.
 */
async function checkSubjects(db: Queryable, checked: Checked[], at: (i: number) => string): Promise<void> {
  const withSubject = checked.flatMap((c, i) => (c.ok && c.parsed.subjectPatientId !== null ? [i] : []));
  const owners = await attributedPatients(
    db,
    withSubject.map((i) => {
      const r = (checked[i] as { parsed: ParsedObservation }).parsed.reading;
      return { device: r.deviceIdentifier, at: r.measuredAt };
    }),
  );
  withSubject.forEach((i, k) => {
    const c = checked[i] as { ok: true; parsed: ParsedObservation };
    const owner = owners[k] ?? null;
    if (owner === c.parsed.subjectPatientId) return;
    const field = `${at(i)}subject`;
    checked[i] = {
      ok: false,
      error: new ReadingRejected(
        owner === null ? FhirErrors.subjectUnverifiable(field) : FhirErrors.subjectMismatch(field),
        c.parsed.reading.deviceIdentifier,
      ),
    };
  });
}

/** An entry about a patient of another organization than the writing source's: refused, 403. */
class OtherOrganization extends ReadingRejected {}

/** A conditional create whose criteria match several Observations: 412, nothing stored. */
class SeveralMatches extends ReadingRejected {}

/**
 * A conditional create whose criteria match one Observation: not an error, the answer is that
 * Observation (200, nothing stored). Carried as a refusal so that the checks below pass it by.
 */
class AlreadyExists extends ReadingRejected {
  constructor(public readonly observationId: number) {
    super('Already exists');
  }
}

const refusalStatus = (error: ReadingRejected): 400 | 403 | 409 | 412 =>
  error instanceof OtherOrganization ? 403 : error instanceof SeveralMatches ? 412 : error.status === 409 ? 409 : 400;

const ALL_KINDS = MEASUREMENT_KINDS.map((k) => k.kind);

/**
 * The identifiers a conditional create's criteria name (`If-None-Exist` or a Bundle entry's
 * `request.ifNoneExist`): R4 allows any search, this server `identifier` (token, comma for or,
 * `?` optional), the one search that names an Observation without its patient.
 */
export function ifNoneExistTokens(criteria: string, field: string): Token[] {
  const params = new URLSearchParams(
    criteria
      .trim()
      .replace(/^\?/, '')
      .replace(/^Observation\?/, ''),
  );
  const names = [...new Set([...params.keys()])];
  if (names.length !== 1 || names[0] !== 'identifier') throw new ReadingRejected(FhirErrors.ifNoneExist(field));
  const tokens = params
    .getAll('identifier')
    .flatMap((v) => v.split(','))
    .map((v) => parseToken(v.trim()));
  if (tokens.length === 0 || tokens.some((t) => t.value === '' || t.value.length > 255))
    throw new ReadingRejected(FhirErrors.ifNoneExist(field));
  return tokens;
}

/**
 * What a conditional create's criteria find within the writer's organization: nothing (go on and
 * create), one Observation (answer it), or several (412).
 */
async function conditionalMatch(
  db: Queryable,
  source: AuthenticatedSource,
  criteria: string,
  field: string,
): Promise<ReadingRejected | null> {
  const matches = await observationsByIdentifier(db, source.organizationId, ifNoneExistTokens(criteria, field), 2);
  if (matches.length === 0) return null;
  if (matches.length > 1) return new SeveralMatches(FhirErrors.ifNoneExistMatches(matches.length));
  return new AlreadyExists(matches[0]!.observation_id);
}

/** The measurement an identifier names: its device and instant (a panel's pulse shares both). */
const measurementOf = (device: string, at: Date) => `${device.trim().toLowerCase()}|${at.getTime()}`;

/**
 * Refuses, in place, each accepted entry carrying an identifier that already names another
 * measurement of the organization (stored before, or earlier in this request): 409, so that a
 * sender's identifier keeps naming one Observation. A retry of the same measurement passes.
 */
async function keepIdentifiersUnique(
  db: Queryable,
  source: AuthenticatedSource,
  checked: Checked[],
  at: (i: number) => string,
): Promise<void> {
  const accepted = checked.flatMap((c, i) =>
    c.ok && c.parsed.identifiers.length > 0 ? [{ i, parsed: c.parsed }] : [],
  );
  if (accepted.length === 0) return;
  const known = await observationsByIdentifier(
    db,
    source.organizationId,
    accepted.flatMap(({ parsed }) => parsed.identifiers),
    accepted.length * 10,
  );
  const owner = new Map<string, { measurement: string; observationId: number | null }>();
  const keyOf = (i: { system: string | null; value: string }) => `${i.system ?? ''}\u0000${i.value}`;
  for (const k of known)
    owner.set(keyOf(k), { measurement: measurementOf(k.source, k.created_at), observationId: k.observation_id });
  for (const { i, parsed } of accepted) {
    const measurement = measurementOf(parsed.reading.deviceIdentifier, parsed.reading.measuredAt);
    const taken = parsed.identifiers.find((id) => {
      const o = owner.get(keyOf(id));
      return o !== undefined && o.measurement !== measurement;
    });
    if (taken) {
      const observationId = owner.get(keyOf(taken))?.observationId ?? 0;
      checked[i] = {
        ok: false,
        error: new ReadingRejected(
          FhirErrors.identifierTaken(`${at(i)}identifier`, observationId),
          parsed.reading.deviceIdentifier,
          409,
        ),
      };
      continue;
    }
    for (const id of parsed.identifiers)
      if (!owner.has(keyOf(id))) owner.set(keyOf(id), { measurement, observationId: null });
  }
}

/** Keeps the sender's identifiers with the Observation each entry became (stored, a retry, or a panel's pulse). */
async function keepIdentifiers(
  tx: Queryable,
  source: AuthenticatedSource,
  checked: Checked[],
  outcomes: (EntryOutcome | null)[],
): Promise<void> {
  const items = checked.flatMap((c, i) => {
    if (!c.ok) return [];
    const o = outcomes[i];
    const target = o?.status === 'merged' ? o.into : o;
    const observationId = target && target.status !== 'unmatched' ? target.vitalId : null;
    return observationId ? c.parsed.identifiers.map((id) => ({ observationId, ...id })) : [];
  });
  const taken = await storeIdentifiers(tx, source.organizationId, items);
  // Checked before storing; only a request racing this one can have taken it since: refuse it
  // all (the transaction rolls back) rather than keep a reading its sender cannot find again.
  if (taken[0]) throw new ReadingRejected(FhirErrors.identifierTaken('identifier', taken[0].ownerId), null, 409);
}

/** Stores in one transaction; a refusal found while storing (an identifier race) refuses the request, audited. */
async function storeOrRefuse<T>(
  db: pg.Pool,
  ctx: RequestContext,
  source: AuthenticatedSource,
  action: AuditAction,
  run: (tx: Queryable) => Promise<T>,
): Promise<T> {
  try {
    return await withTransaction(db, run);
  } catch (err) {
    if (!(err instanceof ReadingRejected)) throw err;
    await rejectReading(db, ctx, source, action, err);
    const status = refusalStatus(err);
    throw new FhirError(status, REFUSAL_ANSWERS[status].code, err.message);
  }
}

/**
 * Refuses, in place, each accepted entry that would go to a patient in a month closed for
 * billing (409 per entry): the database refuses such a reading anyway, and would then fail the
 * whole request instead of the one entry.
 */
async function keepOutOfClosedMonths(db: Queryable, checked: Checked[]): Promise<void> {
  const accepted = checked.flatMap((c, i) => (c.ok ? [{ i, reading: c.parsed.reading }] : []));
  if (accepted.length === 0) return;
  const owners = await attributedPatients(
    db,
    accepted.map(({ reading }) => ({ device: reading.deviceIdentifier, at: reading.measuredAt })),
  );
  const owned = accepted.flatMap(({ i, reading }, k) =>
    owners[k] != null ? [{ i, reading, patientId: owners[k] }] : [],
  );
  const closed = await readingsInClosedMonths(
    db,
    owned.map(({ patientId, reading }) => ({ patientId, at: reading.measuredAt.toISOString() })),
  );
  owned.forEach(({ i, reading }, k) => {
    if (closed[k])
      checked[i] = { ok: false, error: new ReadingRejected(BillingErrors.monthClosed, reading.deviceIdentifier, 409) };
  });
}

/**
 * Refuses, in place, each accepted entry whose device (at its time) or subject belongs to a patient
 * of another organization than the source's: nothing is stored for it, not even as a lone pulse,
 * and the call gets one `denied` record naming the source and the entries.
 */
async function keepToOrganization(
  db: Queryable,
  ctx: RequestContext,
  source: AuthenticatedSource,
  action: AuditAction,
  checked: Checked[],
  at: (i: number) => string,
): Promise<void> {
  const accepted = checked.flatMap((c, i) => (c.ok ? [{ i, parsed: c.parsed }] : []));
  const reading = (p: ParsedObservation) => p.reading;
  const deviceOrgs = await organizationsOfDevices(
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

type EntryOutcome = ReadingOutcome | { status: 'merged'; into: ReadingOutcome };

/**
 * The kinds of the blood-pressure panel and of a heart rate alone, by their LOINC codes: a heart
 * rate sent beside a panel of the same device and time is the panel's pulse component.
 */
const PANEL_KIND = kindByLoinc(LOINC_BP_PANEL)?.kind;
const HEART_RATE_KIND = kindByLoinc(LOINC_HEART_RATE)?.kind;

/**
 * Stores the accepted entries in one transaction with the call's audit record. Duplicates
 * within the request count once; a heart rate with the same device and time as a blood-pressure
 * panel of the request is that reading's pulse, any other heart rate a reading of its own.
 */
async function store(
  tx: Queryable,
  ctx: RequestContext,
  source: AuthenticatedSource,
  action: AuditAction,
  checked: Checked[],
): Promise<(EntryOutcome | null)[]> {
  const readings: IncomingReading[] = [];
  const readingOf = new Map<number, number>();
  const mergedInto = new Map<number, number>();
  const firstByKey = new Map<string, number>();
  const add = (i: number, r: IncomingReading) => {
    const key = measurementKey(r.deviceIdentifier, r.measuredAt, r.kind);
    const first = firstByKey.get(key);
    if (first !== undefined) return readingOf.set(i, first);
    firstByKey.set(key, readings.length);
    readingOf.set(i, readings.length);
    readings.push({ ...r });
  };
  // Every reading but a lone heart rate first, so that a heart rate finds its panel wherever it
  // stands in the Bundle.
  for (const [i, c] of checked.entries())
    if (c.ok && c.parsed.reading.kind !== HEART_RATE_KIND) add(i, c.parsed.reading);
  for (const [i, c] of checked.entries()) {
    if (!c.ok || c.parsed.reading.kind !== HEART_RATE_KIND) continue;
    const r = c.parsed.reading;
    const panel = firstByKey.get(measurementKey(r.deviceIdentifier, r.measuredAt, PANEL_KIND));
    if (panel === undefined) {
      add(i, r);
      continue;
    }
    const target = readings[panel]!;
    // The panel's own pulse wins over a heart rate sent beside it.
    target.components = { ...r.components, ...target.components };
    mergedInto.set(i, panel);
  }
  const results = await storeAudited(
    tx,
    ctx,
    source,
    action,
    readings,
    { entries: checked.length, refused: checked.filter((c) => !c.ok).length },
    checked.filter((c) => c.ok).length - readings.length,
  );
  const outcomes: (EntryOutcome | null)[] = checked.map(() => null);
  const claimed = new Set<number>();
  for (const [i, k] of [...readingOf].sort(([a], [b]) => a - b)) {
    const o = results[k]!;
    // The second copy of a measurement in one request is a duplicate of the first (stored or
    // kept unmatched once: answering 201 or 202 twice would claim a row that does not exist).
    outcomes[i] = !claimed.has(k)
      ? o
      : o.status === 'stored'
        ? { status: 'duplicate', vitalId: o.vitalId, patientId: o.patientId }
        : o.status === 'unmatched'
          ? { status: 'duplicate', vitalId: null, patientId: null }
          : o;
    claimed.add(k);
  }
  for (const [i, k] of mergedInto) outcomes[i] = { status: 'merged', into: results[k]! };
  return outcomes;
}

const vitalOf = (o: ReadingOutcome) => (o.status === 'unmatched' ? null : o.vitalId);

function entryResponse(o: EntryOutcome | null): BundleEntry {
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
  const into = vitalOf(o.into);
  return {
    response: {
      status: '200 OK',
      ...(into ? { location: `Observation/${into}` } : {}),
      outcome: operationOutcome('information', 'informational', 'Heart rate added to its blood-pressure reading'),
    },
  };
}

/**
 * Adds to each entry that names an Observation its version, as a read's ETag and Last-Modified
 * would give it (R4 Bundle.entry.response.etag and lastModified).
 */
async function withVersions(db: Queryable, entries: BundleEntry[]): Promise<BundleEntry[]> {
  const idOf = (e: BundleEntry) => Number(/^Observation\/(\d+)$/.exec(e.response?.location ?? '')?.[1] ?? 0);
  const stored = await receivedTimes(
    db,
    entries.map(idOf).filter((id) => id > 0),
  );
  return entries.map((e) => {
    const at = stored.get(idOf(e));
    if (!at || !e.response) return e;
    const { versionId, lastUpdated } = versionMeta(at);
    return { ...e, response: { ...e.response, etag: `W/"${versionId}"`, lastModified: lastUpdated } };
  });
}

/** What the checks of an Observation need from the server's configuration. */
export interface WriteRules {
  publicUrl: string;
  maxAgeDays: number;
}

const REFUSAL_ANSWERS = {
  400: { status: '400 Bad Request', code: 'invalid' },
  403: { status: '403 Forbidden', code: 'security' },
  409: { status: '409 Conflict', code: 'conflict' },
  412: { status: '412 Precondition Failed', code: 'multiple-matches' },
} as const;

const refusedEntry = (error: ReadingRejected): BundleEntry => {
  if (error instanceof AlreadyExists)
    return { response: { status: '200 OK', location: `Observation/${error.observationId}` } };
  const answer = REFUSAL_ANSWERS[refusalStatus(error)];
  return { response: { status: answer.status, outcome: operationOutcome('error', answer.code, error.message) } };
};

/** A conditional create that found its Observation: 200 with it, nothing stored, the finding audited. */
async function existingAnswer(
  db: pg.Pool,
  ctx: RequestContext,
  source: AuthenticatedSource,
  action: AuditAction,
  observationId: number,
  rules: WriteRules,
): Promise<FhirAnswer> {
  const stored = await findObservation(db, observationId, ALL_KINDS);
  const resource = stored ? presentObservation(stored) : undefined;
  await audit(db, ctx, {
    action,
    outcome: 'success',
    resourceType: 'ingestion_source',
    resourceId: source.id,
    details: {
      organization_id: source.organizationId,
      stored: 0,
      conditional: 'exists',
      observation_id: observationId,
      ...(stored ? { patient_ids: [stored.patient_id] } : {}),
    },
  });
  if (!resource) return { status: 200, body: operationOutcome('information', 'informational', 'Already stored') };
  return { status: 200, location: `${rules.publicUrl}/fhir/R4/Observation/${observationId}`, body: resource };
}

/** POST /fhir/R4/Observation, optionally conditional (`If-None-Exist`). */
export async function createObservation(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  body: unknown,
  rules: WriteRules,
  ifNoneExist?: string,
): Promise<FhirAnswer> {
  const action = 'fhir.observation.create';
  const source = await writer(db, ctx, authorization, action);
  const refuse = async (error: ReadingRejected) => {
    await rejectReading(db, ctx, source, action, error);
    const status = refusalStatus(error);
    return new FhirError(status, REFUSAL_ANSWERS[status].code, error.message);
  };
  // A conditional create (R4 http.html 3.1.0.8.1) looks first: what it finds is the answer,
  // whatever the body says.
  if (ifNoneExist !== undefined) {
    let found: ReadingRejected | null;
    try {
      found = await conditionalMatch(db, source, ifNoneExist, 'If-None-Exist');
    } catch (err) {
      if (err instanceof ReadingRejected) throw await refuse(err);
      throw err;
    }
    if (found instanceof AlreadyExists) return existingAnswer(db, ctx, source, action, found.observationId, rules);
    if (found) throw await refuse(found);
  }
  const checked = [attempt(() => parseObservation(body, '', rules))];
  // The organization first: an entry about another organization's patient, by its device or by
  // its subject, is that refusal (403), whatever else is wrong with its subject.
  await keepToOrganization(db, ctx, source, action, checked, () => '');
  await checkSubjects(db, checked, () => '');
  await keepOutOfClosedMonths(db, checked);
  await keepIdentifiersUnique(db, source, checked, () => '');
  const c = checked[0]!;
  if (!c.ok) throw await refuse(c.error);
  const [o] = await storeOrRefuse(db, ctx, source, action, async (tx) => {
    const outcomes = await store(tx, ctx, source, action, checked);
    await keepIdentifiers(tx, source, checked, outcomes);
    return outcomes;
  });
  if (o && o.status !== 'merged' && o.status !== 'unmatched' && o.vitalId) {
    const stored = await findObservation(db, o.vitalId, [c.parsed.reading.kind]);
    return {
      status: o.status === 'stored' ? 201 : 200,
      location: `${rules.publicUrl}/fhir/R4/Observation/${o.vitalId}`,
      body: presentObservation(stored!)!,
    };
  }
  const response = entryResponse(o ?? null).response;
  return {
    status: o?.status === 'unmatched' ? 202 : 200,
    body: response?.outcome ?? operationOutcome('information', 'informational', 'Already stored'),
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** POST /fhir/R4: a batch (each entry on its own) or a transaction (all or nothing) of Observations. */
export async function processBundle(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  body: unknown,
  rules: WriteRules,
): Promise<FhirAnswer> {
  const action = 'fhir.bundle';
  const source = await writer(db, ctx, authorization, action);
  const refuse = async (message: string, code: IssueCode = 'invalid', status = 400) => {
    await rejectReading(db, ctx, source, action, new ReadingRejected(message));
    return new FhirError(status, code, message);
  };
  // Counted before anything else is read: a huge Bundle costs nothing more than this.
  if (isRecord(body) && Array.isArray(body.entry) && body.entry.length > FHIR_BUNDLE_MAX_ENTRIES)
    throw await refuse(FhirErrors.bundleSize(FHIR_BUNDLE_MAX_ENTRIES), 'too-costly', 413);
  if (!isRecord(body) || body.resourceType !== 'Bundle') throw await refuse('resourceType must be Bundle');
  if (body.type !== 'batch' && body.type !== 'transaction')
    throw await refuse('type must be batch or transaction', 'not-supported');
  let bundle: FhirBundleInput;
  try {
    bundle = checked<FhirBundleInput>(checkBundle, body, 'Bundle.');
  } catch (err) {
    if (err instanceof ReadingRejected) throw await refuse(err.message);
    throw err;
  }
  const entries = bundle.entry ?? [];
  const at = (i: number) => `entry[${i}].resource.`;
  const results = entries.map((e, i) =>
    attempt(() => {
      const entryAt = `entry[${i}].`;
      const request: unknown = isRecord(e) ? e.request : undefined;
      if (!checkEntry.Check(e)) {
        const problem = [...checkEntry.Errors(e)][0];
        // Anything but a create of an Observation is an interaction this endpoint does not do.
        if (
          isRecord(e) &&
          (problem?.instancePath.startsWith('/request') || (problem?.keyword === 'required' && !request))
        )
          throw new ReadingRejected(`${entryAt}request must be POST Observation`);
        checked<FhirBundleEntryInput>(checkEntry, e, entryAt);
      }
      return parseObservation((e as FhirBundleEntryInput).resource, at(i), rules);
    }),
  );
  // Conditional creates (request.ifNoneExist) look first, each on its own.
  for (const [i, e] of entries.entries()) {
    // Only for a well-formed create: another interaction is refused as such above.
    const request = isRecord(e) && isRecord(e.request) && e.request.method === 'POST' ? e.request : undefined;
    const criteria = request?.ifNoneExist;
    if (criteria === undefined) continue;
    const field = `entry[${i}].request.ifNoneExist`;
    try {
      if (typeof criteria !== 'string') throw new ReadingRejected(FhirErrors.ifNoneExist(field));
      const found = await conditionalMatch(db, source, criteria, field);
      if (found) results[i] = { ok: false, error: found };
    } catch (err) {
      if (!(err instanceof ReadingRejected)) throw err;
      results[i] = { ok: false, error: err };
    }
  }
  await keepToOrganization(db, ctx, source, action, results, at);
  await checkSubjects(db, results, at);
  await keepOutOfClosedMonths(db, results);
  await keepIdentifiersUnique(db, source, results, at);
  const refused = results.flatMap((c, i) => (c.ok || c.error instanceof AlreadyExists ? [] : [{ i, error: c.error }]));
  if (bundle.type === 'transaction' && refused.length > 0) {
    await rejectReading(db, ctx, source, action, refused[0]!.error);
    const status = refusalStatus(refused[0]!.error);
    throw new FhirError(status, REFUSAL_ANSWERS[status].code, refused[0]!.error.message);
  }
  const outcomes = await storeOrRefuse(db, ctx, source, action, async (tx) => {
    // Only the first refusals are worth keeping: the list shows the newest few anyway.
    await recordRejections(
      tx,
      source.id,
      refused.slice(0, 5).map((r) => r.error),
    );
    const stored = await store(tx, ctx, source, action, results);
    await keepIdentifiers(tx, source, results, stored);
    return stored;
  });
  const responseEntries = await withVersions(
    db,
    results.map((c, i) => (c.ok ? entryResponse(outcomes[i]!) : refusedEntry(c.error))),
  );
  return {
    status: 200,
    body: responseBundle(bundle.type === 'batch' ? 'batch-response' : 'transaction-response', responseEntries),
  };
}
