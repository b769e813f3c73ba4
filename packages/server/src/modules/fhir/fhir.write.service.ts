import {
  FHIR_BUNDLE_MAX_ENTRIES,
  FhirBundleEntryInput,
  FhirBundleInput,
  FhirErrors,
  MEASUREMENT_KINDS,
  type AuditAction,
} from '@rpm/contracts';
import type pg from 'pg';
import { Compile } from 'typebox/compile';
import type { RequestContext } from '../../kernel/request-context.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { ReadingRejected, recordRejections, rejectReading, type AuthenticatedSource } from '../ingestion/index.ts';
import { FhirError, writer, type FhirAnswer } from './fhir.auth.ts';
import { checked, parseObservation } from './fhir-observation.ts';
import { operationOutcome, presentObservation, responseBundle, type IssueCode } from './fhir.presenter.ts';
import { findObservation } from './fhir.repository.ts';
import { AlreadyExists, attempt, checkSubjects, REFUSAL_ANSWERS, refusalStatus } from './fhir.write.checks.ts';
import { conditionalMatch, keepIdentifiers, keepIdentifiersUnique } from './fhir.write.identifiers.ts';
import { keepOutOfClosedMonths, keepToOrganization } from './fhir.write.organization.ts';
import { entryResponse, refusedEntry, store, storeOrRefuse, withVersions } from './fhir.write.store.ts';
const checkEntry = Compile(FhirBundleEntryInput);
const checkBundle = Compile(FhirBundleInput);

const ALL_KINDS = MEASUREMENT_KINDS.map((k) => k.kind);

/** What the checks of an Observation need from the server's configuration. */
export interface WriteRules {
  publicUrl: string;
  maxAgeDays: number;
}

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
