import { randomUUID } from 'node:crypto';
import {
  DEFAULT_INGEST_AUTH_HEADER,
  IngestionErrors,
  type CreateIngestionSourceBody,
  type IngestionSource,
  type IngestionSourceWithSecret,
} from '@rpm/contracts';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import type { SignedInContext } from '../../plugins/context.ts';
import { notFound } from '../../plugins/errors.ts';
import { mayManageIngestionSources } from '../../policies/ingestion.ts';
import { presentSource, presentSourceWithSecret } from '../../presenters/ingestion-source.ts';
import { audit } from '../audit/audit.service.ts';
import { requireAllowed } from './access.ts';
import {
  insertSource,
  listSources,
  recentRejections,
  replaceSecret,
  revokeSource,
} from './ingestion-sources.repository.ts';
import { hashSecret, newSourceSecret } from './source-secret.ts';

export async function getSources(db: pg.Pool, ctx: SignedInContext): Promise<IngestionSource[]> {
  await requireAllowed(db, ctx, mayManageIngestionSources(ctx.actor), 'integration.list', 'ingestion_source');
  const rows = await listSources(db);
  const rejections = await recentRejections(
    db,
    rows.map((r) => r.id),
  );
  await audit(db, ctx, {
    action: 'integration.list',
    outcome: 'success',
    resourceType: 'ingestion_source',
    details: { count: rows.length },
  });
  return rows.map((r) => presentSource(r, rejections));
}

/** The answer is the only place the secret ever appears; only its hash is stored. */
export async function createSource(
  db: pg.Pool,
  ctx: SignedInContext,
  body: CreateIngestionSourceBody,
): Promise<IngestionSourceWithSecret> {
  await requireAllowed(db, ctx, mayManageIngestionSources(ctx.actor), 'integration.create', 'ingestion_source');
  const id = randomUUID();
  const secret = newSourceSecret(id);
  const row = await withTransaction(db, async (tx) => {
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
    return created;
  });
  return presentSourceWithSecret(row, secret);
}

export async function rotateSource(db: pg.Pool, ctx: SignedInContext, id: string): Promise<IngestionSourceWithSecret> {
  await requireAllowed(db, ctx, mayManageIngestionSources(ctx.actor), 'integration.rotate', 'ingestion_source');
  const secret = newSourceSecret(id);
  const row = await withTransaction(db, async (tx) => {
    const updated = await replaceSecret(tx, id, hashSecret(secret));
    if (updated)
      await audit(tx, ctx, {
        action: 'integration.rotate',
        outcome: 'success',
        resourceType: 'ingestion_source',
        resourceId: id,
      });
    return updated;
  });
  if (!row) {
    await audit(db, ctx, {
      action: 'integration.rotate',
      outcome: 'failure',
      resourceType: 'ingestion_source',
      resourceId: id,
      reason: 'no such live source',
    });
    throw notFound(IngestionErrors.sourceExists);
  }
  return presentSourceWithSecret(row, secret);
}

export async function revokeIngestionSource(db: pg.Pool, ctx: SignedInContext, id: string): Promise<IngestionSource> {
  await requireAllowed(db, ctx, mayManageIngestionSources(ctx.actor), 'integration.revoke', 'ingestion_source');
  const row = await withTransaction(db, async (tx) => {
    const revoked = await revokeSource(tx, id);
    if (revoked)
      await audit(tx, ctx, {
        action: 'integration.revoke',
        outcome: 'success',
        resourceType: 'ingestion_source',
        resourceId: id,
      });
    return revoked;
  });
  if (!row) {
    await audit(db, ctx, {
      action: 'integration.revoke',
      outcome: 'failure',
      resourceType: 'ingestion_source',
      resourceId: id,
      reason: 'no such source',
    });
    throw notFound(IngestionErrors.sourceExists);
  }
  return presentSource(row, []);
}
