import { BillingErrors, IngestionErrors, type IngestResult, type AuditAction } from '@rpm/contracts';
import type pg from 'pg';
import { beginTransaction, withTransaction, type Queryable } from '../../db/pool.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import { HttpError, isClosedMonthRefusal } from '../../kernel/errors.ts';
import { maySendReadings, sourceRefusal, type SourcePrincipal } from '../../policies/ingestion.ts';
import { evaluateStoredReadings } from '../alerts/index.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { deviceOrganizations } from './device-organizations.repository.ts';
import { findSource, findSourceOpening, insertRejection, type SourceRow } from './ingestion-sources.repository.ts';
import type { IngestionLimits } from '../../config.ts';
import {
  storeLonePulses,
  storeReadings,
  updateBatteries,
  type IncomingReading,
  type ReadingOutcome,
  type StoreOutcome,
} from './readings.repository.ts';
import { ReadingRejected } from './reading-rules.ts';
import { secretMatches, sourceIdOfSecret } from './source-secret.ts';
import { parseTenovi, type TenoviBatch } from './tenovi.ts';

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
  action: AuditAction,
  known?: SourceRow | null,
): Promise<AuthenticatedSource | null> {
  const id = sourceId ?? (presented ? sourceIdOfSecret(presented) : null);
  const row = known !== undefined ? known : id ? await findSource(db, id) : null;
  const checked = checkSource(row, presented);
  if ('refused' in checked) {
    await refuseCredentials(db, ctx, action, id, checked.refused);
    return null;
  }
  return checked.source;
}

/** The secret checked against the source's row (found or not, in the same time), and the policy's verdict. */
function checkSource(
  row: SourceRow | null,
  presented: string | undefined,
): { source: AuthenticatedSource } | { refused: string } {
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
  if (!row || !matches || refusal || row.organization_id === null)
    return {
      refused: !row ? 'unknown source' : !presented ? 'no secret' : !matches ? 'wrong secret' : (refusal ?? 'refused'),
    };
  return {
    source: {
      id: row.id,
      kind: row.kind,
      canRead: row.can_read,
      revoked: false,
      name: row.name,
      organizationId: row.organization_id,
    },
  };
}

/** A refused secret, audited as a failed sign-in of the source with why. */
async function refuseCredentials(
  db: pg.Pool,
  ctx: RequestContext,
  action: AuditAction,
  sourceId: string | null,
  reason: string,
): Promise<void> {
  await audit(db, ctx, { action, outcome: 'failure', resourceType: 'ingestion_source', resourceId: sourceId, reason });
}

/**
 * A live source by id, for a caller that authenticated otherwise (a SMART client's access token
 * names its write source): the same policy refusals as a secret would meet; null when refused.
 */
export async function sourcePrincipalOf(db: pg.Pool, id: string): Promise<AuthenticatedSource | null> {
  const row = await findSource(db, id);
  if (!row || row.organization_id === null) return null;
  const refusal = sourceRefusal(
    {
      kind: row.kind,
      authHeader: row.auth_header,
      revokedAt: row.revoked_at,
      expiresAt: row.expires_at,
      organizationId: row.organization_id,
    },
    new Date(),
  );
  if (refusal) return null;
  return {
    id: row.id,
    kind: row.kind,
    canRead: false,
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
  action: AuditAction,
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
  action: AuditAction,
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
  return new HttpError(err.status, err.message);
}

export type { IncomingReading, ReadingOutcome };

/**
 * Keeps refusals of a source's request on the source (reason and device id only), in the caller's
 * transaction, for the integrations page: the FHIR endpoint's per-entry refusals come here.
 */
export async function recordRejections(tx: Queryable, sourceId: string, refusals: ReadingRejected[]): Promise<void> {
  for (const err of refusals)
    await insertRejection(tx, { sourceId, reason: err.message, deviceIdentifier: err.deviceIdentifier });
}

/** The organization of the patient who had each device at each time (null when nobody had it). */
export async function organizationsOfDevices(
  db: Queryable,
  uses: { device: string; at: Date }[],
): Promise<(number | null)[]> {
  return deviceOrganizations(db, uses);
}

/** Counts for the answer and the audit record: never the readings themselves. */
export function countOutcomes(
  received: number,
  outcomes: StoreOutcome[],
  batteryUpdates: number,
  pulsesMerged = 0,
  pulsesRejected = 0,
): IngestResult {
  return {
    received,
    stored: outcomes.filter((o) => o.status === 'stored').length,
    duplicates: outcomes.filter((o) => o.status === 'duplicate').length + pulsesMerged,
    unmatched: outcomes.filter((o) => o.status === 'unmatched').length,
    battery_updates: batteryUpdates,
    rejected: outcomes.filter((o) => o.status === 'rejected').length + pulsesRejected,
  };
}

/**
 * Stores readings, writes the call's audit record and checks the alert rules, in the caller's
 * transaction. The record holds `details` plus the counts (`stored`, `duplicates`, counting
 * `duplicatesBefore` merged away by the caller, `unmatched`) and the patients who got readings;
 * the storing statement writes it too, so a call costs a round trip less. Readings go only to
 * patients of the source's organization; without a quota nothing is ever refused.
 */
export async function storeAudited(
  tx: Queryable,
  ctx: RequestContext,
  source: AuthenticatedSource,
  action: AuditAction,
  readings: IncomingReading[],
  callDetails: Record<string, unknown>,
  duplicatesBefore = 0,
): Promise<ReadingOutcome[]> {
  const outcomes = await storeWithin(tx, ctx, source, action, readings, callDetails, duplicatesBefore, null);
  // No quota, so no reading was refused for it.
  return outcomes.flatMap((o) => (o.status === 'rejected' ? [] : [o]));
}

/** storeAudited with the source's unmatched quota (null: none): beyond it readings are `rejected`. */
async function storeWithin(
  tx: Queryable,
  ctx: RequestContext,
  source: AuthenticatedSource,
  action: AuditAction,
  readings: IncomingReading[],
  callDetails: Record<string, unknown>,
  duplicatesBefore: number,
  unmatchedQuota: number | null,
): Promise<StoreOutcome[]> {
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
      details: { ...details, stored: 0, duplicates: duplicatesBefore, unmatched: 0, rejected: 0, patient_ids: [] },
    });
    return [];
  }
  const sender = { sourceId: source.id, organizationId: source.organizationId, unmatchedQuota };
  const outcomes = await storeReadings(tx, sender, readings, { entry, details, duplicatesBefore });
  await evaluateStoredReadings(
    tx,
    outcomes.flatMap((o) => (o.status === 'stored' ? [{ id: o.vitalId, at: o.at }] : [])),
  );
  return outcomes;
}

/**
 * POST /api/ingest/tenovi/{sourceId}: a Tenovi HWI webhook, authenticated by the source's header.
 * Every statement is set-based (lone pulses, battery levels, readings: one each), so a call costs
 * the same few round trips whatever its number of measurements (at most INGEST_MAX_MEASUREMENTS).
 */
export async function ingestTenovi(
  db: pg.Pool,
  ctx: RequestContext,
  sourceId: string,
  headers: Record<string, string | string[] | undefined>,
  body: unknown,
  limits: IngestionLimits,
): Promise<IngestResult> {
  const action = 'ingest.tenovi';
  // The source is looked up in the transaction's first round trip, with BEGIN: read afresh on
  // every call (a revoked source is refused at once), at no round trip of its own. Every refusal
  // ends the transaction before it is recorded, so that a call never holds two connections.
  const opening = findSourceOpening(db, sourceId);
  const tx = await beginTransaction<SourceRow>(db, { genericPlans: true, ...(opening ? { opening } : {}) });
  try {
    const row = tx.rows[0] ?? null;
    const header = row?.auth_header ?? null;
    const raw = header ? headers[header] : undefined;
    const checked = checkSource(row, typeof raw === 'string' ? raw : undefined);
    if ('refused' in checked) {
      await tx.rollback();
      await refuseCredentials(db, ctx, action, sourceId, checked.refused);
      throw unauthorized();
    }
    const source = checked.source;
    if (!maySendReadings(source, 'tenovi')) {
      await tx.rollback();
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
      batch = parseTenovi(body, { maxAgeDays: limits.readingMaxAgeDays });
    } catch (err) {
      await tx.rollback();
      if (err instanceof ReadingRejected) throw await rejectReading(db, ctx, source, action, err);
      throw err;
    }
    try {
      const result = await storeCall(tx.client, ctx, source, action, batch, limits);
      await tx.commit();
      return result;
    } catch (err) {
      await tx.rollback();
      // A reading dated in a month closed for billing: the database refused the whole call (nothing
      // stored); it is told like any other refusal, on the source's page and in the audit trail.
      if (isClosedMonthRefusal(err))
        throw await rejectReading(db, ctx, source, action, new ReadingRejected(BillingErrors.monthClosed, null, 409));
      throw err;
    }
  } finally {
    // Nothing once ended; otherwise (an unexpected error) undoes the transaction.
    await tx.rollback();
  }
}

/** A webhook call's writes, in its transaction: lone pulses, battery levels, readings, the record. */
async function storeCall(
  tx: pg.PoolClient,
  ctx: RequestContext,
  source: AuthenticatedSource,
  action: AuditAction,
  batch: TenoviBatch,
  limits: IngestionLimits,
): Promise<IngestResult> {
  const sender = { sourceId: source.id, organizationId: source.organizationId, unmatchedQuota: limits.unmatchedQuota };
  const pulses = await storeLonePulses(tx, sender, batch.pulses);
  const batteryUpdates = await updateBatteries(tx, source.organizationId, batch.batteries);
  const outcomes = await storeWithin(
    tx,
    ctx,
    source,
    action,
    batch.readings,
    {
      received: batch.received,
      battery_updates: batteryUpdates,
      pulses_waiting: pulses.waiting,
      pulses_rejected: pulses.rejected.length,
    },
    pulses.merged,
    limits.unmatchedQuota,
  );
  // Readings refused for the quota are told in the answer and on the integrations page, like
  // any other refusal; the rest of the call is stored.
  const refused = [
    ...outcomes.flatMap((o) => (o.status === 'rejected' ? [o.deviceIdentifier] : [])),
    ...pulses.rejected,
  ];
  if (refused.length > 0) {
    await insertRejection(tx, {
      sourceId: source.id,
      reason: IngestionErrors.unmatchedQuota(limits.unmatchedQuota),
      deviceIdentifier: refused[0]!,
    });
  }
  return countOutcomes(batch.received, outcomes, batteryUpdates, pulses.merged, pulses.rejected.length);
}
