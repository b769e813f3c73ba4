// Storing a FHIR write's accepted entries, and each entry's answer.
import type { BundleEntry } from '@medplum/fhirtypes';
import { kindByLoinc, type AuditAction } from '@rpm/contracts';
import type pg from 'pg';
import { withTransaction, type Queryable } from '../../db/pool.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import {
  measurementKey,
  ReadingRejected,
  rejectReading,
  storeAudited,
  type AuthenticatedSource,
  type IncomingReading,
  type ReadingOutcome,
} from '../ingestion/index.ts';
import { FhirError } from './fhir.auth.ts';
import { LOINC_BP_PANEL, LOINC_HEART_RATE, operationOutcome, versionMeta } from './fhir.presenter.ts';
import { receivedTimes } from './fhir.repository.ts';
import { AlreadyExists, REFUSAL_ANSWERS, refusalStatus, type Checked } from './fhir.write.checks.ts';
/** Stores in one transaction; a refusal found while storing (an identifier race) refuses the request, audited. */
export async function storeOrRefuse<T>(
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

export type EntryOutcome = ReadingOutcome | { status: 'merged'; into: ReadingOutcome };

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
export async function store(
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

export function entryResponse(o: EntryOutcome | null): BundleEntry {
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
export async function withVersions(db: Queryable, entries: BundleEntry[]): Promise<BundleEntry[]> {
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

export const refusedEntry = (error: ReadingRejected): BundleEntry => {
  if (error instanceof AlreadyExists)
    return { response: { status: '200 OK', location: `Observation/${error.observationId}` } };
  const answer = REFUSAL_ANSWERS[refusalStatus(error)];
  return { response: { status: answer.status, outcome: operationOutcome('error', answer.code, error.message) } };
};
