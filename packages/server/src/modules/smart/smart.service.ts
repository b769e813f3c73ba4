import { randomUUID } from 'node:crypto';
import {
  SmartErrors,
  SMART_SYSTEM_SCOPES,
  type AuditAction,
  type CreateSmartClientBody,
  type SmartClient,
  type SmartClientsResponse,
} from '@rpm/contracts';
import type pg from 'pg';
import { authorize } from '../../kernel/access.ts';
import { AuditedRefusal, auditedTransaction, failure } from '../../kernel/audited-transaction.ts';
import { audit } from '../../kernel/audit-writer.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { mayManageSmartClients } from '../../policies/ingestion.ts';
import { scopesCover } from '../../policies/fhir-scopes.ts';
import { organizationExists } from '../organizations/index.ts';
import { createClientWriteSource, revokeClientWriteSource } from '../ingestion/index.ts';
import { presentClient } from './smart.presenter.ts';
import { findClient, insertClient, listClients, revokeClient } from './smart.repository.ts';
import { jwksProblem, jwksUrlProblem } from './smart.keys.ts';

const RESOURCE = 'smart_client';

/** The access call every client method starts with; a refusal is recorded by auditedTransaction. */
const authorizeClientAdmin = (ctx: SignedInContext, action: AuditAction) =>
  authorize(mayManageSmartClients(ctx.actor), { action, resourceType: RESOURCE, reason: 'admin role required' });

export async function getClients(db: pg.Pool, ctx: SignedInContext): Promise<SmartClientsResponse> {
  return auditedTransaction(db, ctx, async (tx) => {
    authorizeClientAdmin(ctx, 'smart.client.list');
    const rows = await listClients(tx);
    await audit(tx, ctx, {
      action: 'smart.client.list',
      outcome: 'success',
      resourceType: RESOURCE,
      details: { count: rows.length },
    });
    return { clients: rows.map(presentClient) };
  });
}

/**
 * Registers a system client of one organization with its public keys (a JWKS URL or a pasted
 * JWKS of public keys) and its allowed scopes; its id is the OAuth client_id. A client allowed
 * to write Observations gets an ingestion source of its own to write through.
 */
export async function createClient(
  db: pg.Pool,
  ctx: SignedInContext,
  body: CreateSmartClientBody,
  opts: { allowLoopbackHttp: boolean },
): Promise<SmartClient> {
  const action = 'smart.client.create';
  const refuse = (message: string, reason: string) => failure(400, message, { action, resourceType: RESOURCE, reason });
  return auditedTransaction(db, ctx, async (tx) => {
    authorizeClientAdmin(ctx, action);
    const jwksUrl = body.jwks_url?.trim() || null;
    const jwks = body.jwks ?? null;
    if ((jwksUrl === null) === (jwks === null)) throw refuse(SmartErrors.keySource, 'key source');
    if (jwksUrl !== null) {
      const problem = jwksUrlProblem(jwksUrl, opts.allowLoopbackHttp);
      if (problem) throw refuse(problem, 'jwks url refused');
    }
    if (jwks !== null) {
      const problem = await jwksProblem(jwks);
      if (problem) throw refuse(problem, problem === SmartErrors.privateKey ? 'private key material' : 'no usable key');
    }
    if (!(await organizationExists(tx, body.organization_id))) {
      throw refuse(SmartErrors.organizationUnknown, 'unknown organization');
    }
    // In the order of the list admins chose from, so equal grants read alike.
    const scopes = SMART_SYSTEM_SCOPES.filter((s) => body.scopes.includes(s));
    const name = body.name.trim();
    const writes = scopesCover(scopes, { resourceType: 'Observation', interaction: 'c' });
    const sourceId = writes
      ? await createClientWriteSource(tx, { name, organizationId: body.organization_id, createdBy: ctx.actor.id })
      : null;
    const row = await insertClient(tx, {
      id: randomUUID(),
      name,
      organizationId: body.organization_id,
      jwksUrl,
      jwks,
      scopes,
      sourceId,
      createdBy: ctx.actor.id,
    });
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: RESOURCE,
      resourceId: row.id,
      details: {
        organization_id: row.organization_id,
        scopes,
        keys: jwksUrl ? 'url' : 'pasted',
        ...(sourceId ? { source_id: sourceId } : {}),
      },
    });
    return presentClient(row);
  });
}

/** Revokes a client: no new tokens, its current tokens end now, and its write source is revoked. */
export async function revokeSmartClient(db: pg.Pool, ctx: SignedInContext, id: string): Promise<SmartClient> {
  const action = 'smart.client.revoke';
  return auditedTransaction(db, ctx, async (tx) => {
    authorizeClientAdmin(ctx, action);
    const before = await findClient(tx, id);
    const row = before ? await revokeClient(tx, id) : null;
    if (!row) {
      throw new AuditedRefusal(404, SmartErrors.clientExists, {
        action,
        outcome: 'failure',
        resourceType: RESOURCE,
        resourceId: id,
        reason: 'no such client',
      });
    }
    if (row.source_id) await revokeClientWriteSource(tx, row.source_id);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: RESOURCE,
      resourceId: id,
      details: { already_revoked: before?.revoked_at !== null },
    });
    return presentClient(row);
  });
}
