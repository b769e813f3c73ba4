import { randomUUID } from 'node:crypto';
import {
  DEFAULT_INGEST_AUTH_HEADER,
  IngestionErrors,
  type CreateIngestionSourceBody,
  type IngestionSource,
  type IngestionSourceWithSecret,
  UNMATCHED_QUOTA_PER_SOURCE,
  UNMATCHED_RETENTION_DAYS,
} from '@rpm/contracts';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import { authorize } from '../../kernel/access.ts';
import { AuditedRefusal, auditedTransaction } from '../../kernel/audited-transaction.ts';
import type { SignedInContext } from '../../plugins/context.ts';
import { mayManageIngestionSources } from '../../policies/ingestion.ts';
import { presentSource, presentSourceWithSecret } from '../../presenters/ingestion-source.ts';
import { audit } from '../audit/audit.service.ts';
import {
  insertSource,
  listSources,
  recentRejections,
  replaceSecret,
  revokeSource,
  type SourceRow,
} from './ingestion-sources.repository.ts';
import { hashSecret, newSourceSecret } from './source-secret.ts';
import { unmatchedCountsBySource } from './unmatched.repository.ts';
import type { IngestionLimits } from '../../config.ts';

/** The access call every source method starts with; a refusal is recorded by auditedTransaction. */
const authorizeSourceAdmin = (ctx: SignedInContext, action: string) =>
  authorize(mayManageIngestionSources(ctx.actor), {
    action,
    resourceType: 'ingestion_source',
    reason: 'admin role required',
  });

export async function getSources(
  db: pg.Pool,
  ctx: SignedInContext,
  limits?: Pick<IngestionLimits, 'unmatchedQuota' | 'unmatchedRetentionDays'>,
): Promise<IngestionSource[]> {
  return auditedTransaction(db, ctx, async (tx) => {
    authorizeSourceAdmin(ctx, 'integration.list');
    const rows = await listSources(tx);
    const rejections = await recentRejections(
      tx,
      rows.map((r) => r.id),
    );
    await audit(tx, ctx, {
      action: 'integration.list',
      outcome: 'success',
      resourceType: 'ingestion_source',
      details: { count: rows.length },
    });
    const unmatched = await unmatchedCountsBySource(tx);
    const quota = limits?.unmatchedQuota ?? UNMATCHED_QUOTA_PER_SOURCE;
    const retentionDays = limits?.unmatchedRetentionDays ?? UNMATCHED_RETENTION_DAYS;
    return rows.map((r) => presentSource(r, rejections, { count: unmatched.get(r.id) ?? 0, quota, retentionDays }));
  });
}

/** The answer is the only place the secret ever appears; only its hash is stored. */
export async function createSource(
  db: pg.Pool,
  ctx: SignedInContext,
  body: CreateIngestionSourceBody,
): Promise<IngestionSourceWithSecret> {
  return auditedTransaction(db, ctx, async (tx) => {
    authorizeSourceAdmin(ctx, 'integration.create');
    const id = randomUUID();
    const secret = newSourceSecret(id);
    const created = await insertSource(tx, {
      id,
      name: body.name.trim(),
      kind: body.kind,
      // FHIR callers use the standard Authorization: Bearer header.
      authHeader: body.kind === 'tenovi' ? (body.auth_header ?? DEFAULT_INGEST_AUTH_HEADER).toLowerCase() : null,
      canRead: body.kind === 'fhir' && body.can_read === true,
      secretHash: hashSecret(secret),
      createdBy: ctx.actor.id,
    });
    await audit(tx, ctx, {
      action: 'integration.create',
      outcome: 'success',
      resourceType: 'ingestion_source',
      resourceId: id,
      details: { kind: created.kind, can_read: created.can_read },
    });
    return presentSourceWithSecret(created, secret);
  });
}

/**
 * One change to one source, with its record: a source that the change cannot apply to (unknown,
 * or revoked where that matters) is a 404 recorded as a failure, and nothing is changed.
 */
function changeSource(
  db: pg.Pool,
  ctx: SignedInContext,
  id: string,
  change: { action: string; missing: string; apply: (tx: Queryable) => Promise<SourceRow | null> },
): Promise<SourceRow> {
  return auditedTransaction(db, ctx, async (tx) => {
    authorizeSourceAdmin(ctx, change.action);
    const row = await change.apply(tx);
    if (!row) {
      throw new AuditedRefusal(404, IngestionErrors.sourceExists, {
        action: change.action,
        outcome: 'failure',
        resourceType: 'ingestion_source',
        resourceId: id,
        reason: change.missing,
      });
    }
    await audit(tx, ctx, {
      action: change.action,
      outcome: 'success',
      resourceType: 'ingestion_source',
      resourceId: id,
    });
    return row;
  });
}

export async function rotateSource(db: pg.Pool, ctx: SignedInContext, id: string): Promise<IngestionSourceWithSecret> {
  const secret = newSourceSecret(id);
  const row = await changeSource(db, ctx, id, {
    action: 'integration.rotate',
    missing: 'no such live source',
    apply: (tx) => replaceSecret(tx, id, hashSecret(secret)),
  });
  return presentSourceWithSecret(row, secret);
}

export async function revokeIngestionSource(db: pg.Pool, ctx: SignedInContext, id: string): Promise<IngestionSource> {
  const row = await changeSource(db, ctx, id, {
    action: 'integration.revoke',
    missing: 'no such source',
    apply: (tx) => revokeSource(tx, id),
  });
  return presentSource(row, []);
}
