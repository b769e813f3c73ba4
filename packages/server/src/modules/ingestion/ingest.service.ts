import { IngestionErrors, type IngestResult } from '@rpm/contracts';
import type pg from 'pg';
import { withTransaction, type Queryable } from '../../db/pool.ts';
import type { RequestContext } from '../../plugins/context.ts';
import { HttpError } from '../../plugins/errors.ts';
import {
  maySendForOrganization,
  maySendReadings,
  sourceRefusal,
  type SourcePrincipal,
} from '../../policies/ingestion.ts';
import { evaluateStoredReadings } from '../alerts/alerts.service.ts';
import { audit } from '../audit/audit.service.ts';
import { deviceOrganizations } from './device-organizations.repository.ts';
import { findSource, insertRejection, type SourceRow } from './ingestion-sources.repository.ts';
import {
  storeLonePulse,
  storeReadings,
  updateBattery,
  type IncomingReading,
  type ReadingOutcome,
} from './readings.repository.ts';
import { ReadingRejected } from './reading-rules.ts';
import { secretMatches, sourceIdOfSecret } from './source-secret.ts';
import { parseTenovi } from './tenovi.ts';

/** An unknown source is compared against this, so that it costs as long as a known one. */
const NO_HASH = Buffer.alloc(32);

/** A source whose secret was checked, with what the policies need to know of it. */
export type AuthenticatedSource = SourcePrincipal & { name: string };

/**
 * Finds the source and checks the presented secret in constant time. Every refusal is the same
 * 401 (unknown source, wrong or missing secret, and a source the policy refuses: revoked,
 * expired, without an organization) and is audited as a failed sign-in with the source and why.
 * `sourceId` is null when the secret itself names its source (FHIR Bearer tokens). A caller that
 * had to read the source already (for its header name) passes it as `known`, saving a query.
 */
export async function authenticateSource(
  db: pg.Pool,
  ctx: RequestContext,
  sourceId: string | null,
  presented: string | undefined,
  action: string,
  known?: SourceRow | null,
): Promise<AuthenticatedSource | null> {
  const id = sourceId ?? (presented ? sourceIdOfSecret(presented) : null);
  const row = known !== undefined ? known : id ? await findSource(db, id) : null;
  const matches =
    secretMatches(presented ?? '', row?.secret_hash ?? NO_HASH) && presented !== undefined && row !== null;
  const refusal =
    row && matches
      ? sourceRefusal(
          {
            kind: row.kind,
            authHeader: row.auth_header,
            revokedAt: row.revoked_at,
            expiresAt: row.expires_at,
            organizationId: row.organization_id,
          },
          new Date(),
        )
      : null;
  // The policy refuses a source without an organization; the second test tells the compiler so.
  if (!row || !matches || refusal || row.organization_id === null) {
    await audit(db, ctx, {
      action,
      outcome: 'failure',
      resourceType: 'ingestion_source',
      resourceId: id,
      reason: !row ? 'unknown source' : !presented ? 'no secret' : !matches ? 'wrong secret' : (refusal ?? 'refused'),
    });
    return null;
  }
  return {
    id: row.id,
    kind: row.kind,
    canRead: row.can_read,
    revoked: false,
    name: row.name,
    organizationId: row.organization_id,
  };
}

export const unauthorized = () => new HttpError(401, IngestionErrors.credentials);

/**
 * A signed-in source's call refused by the ingestion policy, recorded the same way at every
 * endpoint; answers the endpoint's own error for the caller to throw.
 */
export async function refuseSource<E extends HttpError>(
  db: pg.Pool,
  ctx: RequestContext,
  source: AuthenticatedSource,
  action: string,
  reason: string,
  error: E,
): Promise<E> {
  await audit(db, ctx, { action, outcome: 'denied', resourceType: 'ingestion_source', resourceId: source.id, reason });
  return error;
}

/** Records why a source's request was refused (reason and device id only), audits it, answers 400. */
export async function rejectReading(
  db: pg.Pool,
  ctx: RequestContext,
  source: AuthenticatedSource,
  action: string,
  err: ReadingRejected,
): Promise<HttpError> {
  await withTransaction(db, async (tx) => {
    await insertRejection(tx, { sourceId: source.id, reason: err.message, deviceIdentifier: err.deviceIdentifier });
    await audit(tx, ctx, {
      action,
      outcome: 'failure',
      resourceType: 'ingestion_source',
      resourceId: source.id,
      reason: err.message,
      details: err.deviceIdentifier ? { device_id: err.deviceIdentifier } : null,
    });
  });
  return new HttpError(400, err.message);
}

/** Counts for the answer and the audit record: never the readings themselves. */
export function countOutcomes(
  received: number,
  outcomes: ReadingOutcome[],
  batteryUpdates: number,
  pulsesMerged = 0,
): IngestResult {
  return {
    received,
    stored: outcomes.filter((o) => o.status === 'stored').length,
    duplicates: outcomes.filter((o) => o.status === 'duplicate').length + pulsesMerged,
    unmatched: outcomes.filter((o) => o.status === 'unmatched').length,
    battery_updates: batteryUpdates,
  };
}

/**
 * Stores readings, writes the call's audit record and checks the alert rules, in the caller's
 * transaction. The record holds `details` plus the counts (`stored`, `duplicates`, counting
 * `duplicatesBefore` merged away by the caller, `unmatched`) and the patients who got readings;
 * the storing statement writes it too, so a call costs a round trip less.
 */
export async function storeAudited(
  tx: Queryable,
  ctx: RequestContext,
  source: AuthenticatedSource,
  action: string,
  readings: IncomingReading[],
  callDetails: Record<string, unknown>,
  duplicatesBefore = 0,
): Promise<ReadingOutcome[]> {
  // The organization the source writes for goes with every record: readings of a device whose
  // patient is of another organization are not this source's to store.
  const details = { ...callDetails, organization_id: source.organizationId };
  const entry = {
    action,
    resourceType: 'ingestion_source',
    resourceId: source.id,
    userId: ctx.actor?.id ?? null,
    ipAddress: ctx.ip,
    userAgent: ctx.userAgent,
    requestId: ctx.requestId,
  };
  if (readings.length === 0) {
    // Nothing to store (battery levels or lone pulses only): the record alone.
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: entry.resourceType,
      resourceId: source.id,
      details: { ...details, stored: 0, duplicates: duplicatesBefore, unmatched: 0, patient_ids: [] },
    });
    return [];
  }
  const outcomes = await storeReadings(tx, source.id, readings, { entry, details, duplicatesBefore });
  await evaluateStoredReadings(
    tx,
    outcomes.flatMap((o) => (o.status === 'stored' ? [o.vitalId] : [])),
  );
  return outcomes;
}

/** POST /api/ingest/tenovi/{sourceId}: a Tenovi HWI webhook, authenticated by the source's header. */
export async function ingestTenovi(
  db: pg.Pool,
  ctx: RequestContext,
  sourceId: string,
  headers: Record<string, string | string[] | undefined>,
  body: unknown,
): Promise<IngestResult> {
  const action = 'ingest.tenovi';
  const row = await findSource(db, sourceId);
  const header = row?.auth_header ?? null;
  const raw = header ? headers[header] : undefined;
  const source = await authenticateSource(db, ctx, sourceId, typeof raw === 'string' ? raw : undefined, action, row);
  if (!source) throw unauthorized();
  if (!maySendReadings(source, 'tenovi')) {
    throw await refuseSource(
      db,
      ctx,
      source,
      action,
      'not a tenovi source',
      new HttpError(403, IngestionErrors.sourceKind),
    );
  }
  let batch;
  try {
    batch = parseTenovi(body);
  } catch (err) {
    if (err instanceof ReadingRejected) throw await rejectReading(db, ctx, source, action, err);
    throw err;
  }
  // A pulse completes a stored reading and a battery level changes a device: only for devices of
  // the source's organization (or nobody's). The readings themselves are kept to it by the
  // storing statement.
  const owners = await deviceOrganizations(db, [
    ...batch.pulses.map((p) => ({ device: p.deviceIdentifier, at: p.measuredAt })),
    ...batch.batteries.map((b) => ({ device: b.deviceIdentifier, at: b.at })),
  ]);
  const ours = (k: number) =>
    owners[k] === null || owners[k] === undefined || maySendForOrganization(source, owners[k]);
  const pulses = batch.pulses.filter((_, k) => ours(k));
  const batteries = batch.batteries.filter((_, k) => ours(batch.pulses.length + k));
  const otherOrganization = batch.pulses.length + batch.batteries.length - pulses.length - batteries.length;
  return withTransaction(db, async (tx) => {
    let merged = 0;
    let pending = 0;
    for (const p of pulses) {
      if (await storeLonePulse(tx, source.id, p)) merged++;
      else pending++;
    }
    let batteryUpdates = 0;
    for (const b of batteries) if (await updateBattery(tx, b.deviceIdentifier, b.level, b.at)) batteryUpdates++;
    const outcomes = await storeAudited(
      tx,
      ctx,
      source,
      action,
      batch.readings,
      {
        received: batch.received,
        battery_updates: batteryUpdates,
        pulses_waiting: pending,
        ...(otherOrganization > 0 ? { other_organization: otherOrganization } : {}),
      },
      merged,
    );
    return countOutcomes(batch.received, outcomes, batteryUpdates, merged);
  });
}
