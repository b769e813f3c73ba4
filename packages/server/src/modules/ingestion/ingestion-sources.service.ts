import { randomUUID } from 'node:crypto';
import {
  DEFAULT_INGEST_AUTH_HEADER,
  FHIR_READ_KEY_DEFAULT_DAYS,
  IngestionErrors,
  type CreateIngestionSourceBody,
  type IngestionSource,
  type IngestionSourceWithSecret,
  UNMATCHED_QUOTA_PER_SOURCE,
  UNMATCHED_RETENTION_DAYS,
  type AuditAction,
  SmartErrors,
  SMART_CLIENT_SOURCE_SQLSTATE,
} from '@rpm/contracts';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import { authorize } from '../../kernel/access.ts';
import { AuditedRefusal, auditedTransaction, failure } from '../../kernel/audited-transaction.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { isSecretHeaderAllowed, mayManageIngestionSources } from '../../policies/ingestion.ts';
import { presentSource, presentSourceWithSecret } from './ingestion-source.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { organizationExists } from '../organizations/index.ts';
import {
  assignOrganization,
  findSource,
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
const authorizeSourceAdmin = (ctx: SignedInContext, action: AuditAction) =>
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
  const action = 'integration.create';
  return auditedTransaction(db, ctx, async (tx) => {
    authorizeSourceAdmin(ctx, action);
    // Reads are SMART Backend Services' now (signed assertions, short tokens, scopes).
    if (body.can_read === true) {
      throw failure(400, SmartErrors.readKeyCreation, {
        action,
        resourceType: 'ingestion_source',
        reason: 'read keys retired',
      });
    }
    // Only read keys expired by themselves; no key made now does.
    if (body.expires_in_days !== undefined) {
      throw failure(400, IngestionErrors.readKeyExpiry, {
        action,
        resourceType: 'ingestion_source',
        reason: 'expiry of a write key',
      });
    }
    // The schema holds it to x- headers; the policy also keeps out those proxies and logs touch.
    const authHeader = body.kind === 'tenovi' ? (body.auth_header ?? DEFAULT_INGEST_AUTH_HEADER).toLowerCase() : null;
    if (authHeader !== null && !isSecretHeaderAllowed(authHeader)) {
      throw failure(400, IngestionErrors.authHeaderReserved, {
        action,
        resourceType: 'ingestion_source',
        reason: 'reserved secret header',
      });
    }
    if (!(await organizationExists(tx, body.organization_id))) {
      throw failure(400, IngestionErrors.sourceOrganizationUnknown, {
        action,
        resourceType: 'ingestion_source',
        reason: 'unknown organization',
        details: { organization_id: body.organization_id },
      });
    }
    const id = randomUUID();
    const secret = newSourceSecret(id);
    const created = await insertSource(tx, {
      id,
      name: body.name.trim(),
      kind: body.kind,
      // FHIR callers use the standard Authorization: Bearer header.
      authHeader,
      canRead: false,
      secretHash: hashSecret(secret),
      createdBy: ctx.actor.id,
      organizationId: body.organization_id,
      expiresAt: null,
    });
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'ingestion_source',
      resourceId: id,
      details: {
        kind: created.kind,
        can_read: created.can_read,
        organization_id: created.organization_id,
        expires_at: created.expires_at?.toISOString() ?? null,
      },
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
  change: {
    action: AuditAction;
    missing: string;
    apply: (tx: Queryable) => Promise<SourceRow | null>;
    details?: (row: SourceRow) => Record<string, unknown>;
    /** Checks before the change; throws an AuditedRefusal. */
    check?: (tx: Queryable) => Promise<void>;
  },
): Promise<SourceRow> {
  return auditedTransaction(db, ctx, async (tx) => {
    authorizeSourceAdmin(ctx, change.action);
    await change.check?.(tx);
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
      details: change.details?.(row) ?? null,
    });
    return row;
  });
}

export async function rotateSource(db: pg.Pool, ctx: SignedInContext, id: string): Promise<IngestionSourceWithSecret> {
  const secret = newSourceSecret(id);
  const row = await changeSource(db, ctx, id, {
    action: 'integration.rotate',
    missing: 'no such live source',
    apply: (tx) =>
      replaceSecret(tx, id, hashSecret(secret), FHIR_READ_KEY_DEFAULT_DAYS).catch((err: unknown) => {
        // A SMART client's write source has no secret anyone may hold (the database refuses).
        if ((err as { code?: unknown }).code !== SMART_CLIENT_SOURCE_SQLSTATE) throw err;
        throw failure(409, SmartErrors.clientSource, {
          action: 'integration.rotate',
          resourceType: 'ingestion_source',
          resourceId: id,
          reason: 'source of a smart client',
        });
      }),
    details: (row) => ({ expires_at: row.expires_at?.toISOString() ?? null }),
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

/**
 * Gives a source made before sources had an organization its organization. It decides which
 * patients the key reaches, so it is done once: a source that has one keeps it.
 */
export async function assignSourceOrganization(
  db: pg.Pool,
  ctx: SignedInContext,
  id: string,
  organizationId: number,
): Promise<IngestionSource> {
  const action = 'integration.assign_organization';
  const row = await changeSource(db, ctx, id, {
    action,
    missing: 'no such live source',
    check: async (tx) => {
      const source = await findSource(tx, id);
      if (source && !source.revoked_at && source.organization_id !== null) {
        throw failure(409, IngestionErrors.sourceOrganizationSet, {
          action,
          resourceType: 'ingestion_source',
          resourceId: id,
          reason: 'source has an organization',
          details: { organization_id: source.organization_id },
        });
      }
      // Such a source stays refused whatever its organization (the table's check says so too):
      // a clear conflict instead of a failed update.
      if (
        source &&
        !source.revoked_at &&
        source.kind === 'tenovi' &&
        !isSecretHeaderAllowed(source.auth_header ?? '')
      ) {
        throw failure(409, IngestionErrors.sourceHeaderRetired, {
          action,
          resourceType: 'ingestion_source',
          resourceId: id,
          reason: 'secret header not allowed',
        });
      }
      if (!(await organizationExists(tx, organizationId))) {
        throw failure(400, IngestionErrors.sourceOrganizationUnknown, {
          action,
          resourceType: 'ingestion_source',
          resourceId: id,
          reason: 'unknown organization',
          details: { organization_id: organizationId },
        });
      }
    },
    apply: (tx) => assignOrganization(tx, id, organizationId),
    details: (r) => ({ organization_id: r.organization_id }),
  });
  return presentSource(row, []);
}

/**
 * The ingestion source a SMART client allowed to write Observations writes through: readings and
 * their rejections belong to a source (observations.source_id), so the client gets one of its
 * own, of its organization. Its secret is made and thrown away: the client authenticates with its
 * access token, never with this. Runs in the caller's transaction (the client's registration).
 */
export async function createClientWriteSource(
  tx: Queryable,
  s: { name: string; organizationId: number; createdBy: number },
): Promise<string> {
  const id = randomUUID();
  await insertSource(tx, {
    id,
    name: s.name,
    kind: 'fhir',
    authHeader: null,
    canRead: false,
    secretHash: hashSecret(newSourceSecret(id)),
    createdBy: s.createdBy,
    organizationId: s.organizationId,
    expiresAt: null,
  });
  return id;
}

/** Revokes a SMART client's write source with the client (in the caller's transaction). */
export async function revokeClientWriteSource(tx: Queryable, id: string): Promise<void> {
  await revokeSource(tx, id);
}
