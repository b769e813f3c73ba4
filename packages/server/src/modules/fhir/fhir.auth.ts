import type pg from 'pg';
import { IngestionErrors, SmartErrors, type AuditAction } from '@rpm/contracts';
import type { Resource } from '@medplum/fhirtypes';
import type { RequestContext } from '../../kernel/request-context.ts';
import { HttpError } from '../../kernel/errors.ts';
import { maySendReadings, type FhirReader, type SmartClientPrincipal } from '../../policies/ingestion.ts';
import { audit } from '../../kernel/audit-writer.ts';
import type { IssueCode } from './fhir.presenter.ts';
import { readerHasScope, scopeOfNeed, type FhirScopeNeed } from '../../policies/fhir-scopes.ts';
import {
  authenticateSource,
  refuseSource,
  sourceIdOfSecret,
  sourcePrincipalOf,
  type AuthenticatedSource,
} from '../ingestion/index.ts';
import { clientNamedByToken, clientOfAccessToken } from '../smart/index.ts';

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

export const bearer = (authorization: string | undefined) => /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
/**
 * Who a request's Bearer key or token names (not yet checked), for counting it against that
 * source's or SMART client's rate limit rather than the address's.
 */
export function sourceNamedBy(authorization: string | undefined): string | null {
  const key = bearer(authorization);
  if (!key) return null;
  const client = clientNamedByToken(key);
  return client ? `client:${client}` : sourceIdOfSecret(key);
}
export const notFound = () => new FhirError(404, 'not-found', 'Resource not found');
const kindRefused = () => new FhirError(403, 'security', IngestionErrors.sourceKind);

/** A Bearer token refused at the door (401), audited with the client it belonged to when known. */
async function refuseToken(
  db: pg.Pool,
  ctx: RequestContext,
  action: AuditAction,
  refused: { clientId: string | null; reason: string },
): Promise<FhirError> {
  await audit(db, ctx, {
    action,
    outcome: 'failure',
    resourceType: 'smart_client',
    resourceId: refused.clientId,
    reason: refused.reason,
  });
  return new FhirError(
    401,
    'login',
    refused.reason === 'no credentials' ? IngestionErrors.credentials : SmartErrors.tokenInvalid,
  );
}

/** A SMART client's request outside its scopes: 403, audited with the client and the scope it lacks. */
async function refuseScope(
  db: pg.Pool,
  ctx: RequestContext,
  action: AuditAction,
  client: SmartClientPrincipal,
  need: FhirScopeNeed,
): Promise<FhirError> {
  const scope = scopeOfNeed(need);
  await audit(db, ctx, {
    action,
    outcome: 'denied',
    resourceType: 'smart_client',
    resourceId: client.id,
    reason: 'missing scope',
    details: { missing_scope: scope, granted: client.scopes, organization_id: client.organizationId },
  });
  return new FhirError(403, 'security', SmartErrors.missingScope(scope));
}

/**
 * The caller of a FHIR read: a signed-in staff member (the portal's own rules per patient), or a
 * SMART client presenting an access token whose scopes cover `need`. Static read keys (source
 * secrets) are retired: refused with a 401 that says so, and audited.
 */
export async function reader(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  action: AuditAction,
  need: FhirScopeNeed,
): Promise<FhirReader> {
  if (ctx.actor) return { kind: 'staff', actor: ctx.actor };
  const token = bearer(authorization);
  const staticKey = token ? sourceIdOfSecret(token) : null;
  if (staticKey) {
    await audit(db, ctx, {
      action,
      outcome: 'failure',
      resourceType: 'ingestion_source',
      resourceId: staticKey,
      reason: 'static read keys retired',
    });
    throw new FhirError(401, 'login', SmartErrors.staticReadKeyRetired);
  }
  const found = token
    ? await clientOfAccessToken(db, token)
    : { valid: false as const, clientId: null, reason: 'no credentials' };
  if (!found.valid) throw await refuseToken(db, ctx, action, found);
  const who: FhirReader = { kind: 'client', client: found.client };
  if (!readerHasScope(who, need)) throw await refuseScope(db, ctx, action, found.client, need);
  return who;
}

/**
 * The sender of a FHIR write: a SMART client whose token grants `system/Observation.c` (it writes
 * through the ingestion source registered with it), or a FHIR source with its write key.
 */
export async function writer(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  action: AuditAction,
): Promise<AuthenticatedSource> {
  const token = bearer(authorization);
  if (token && !sourceIdOfSecret(token)) return clientWriter(db, ctx, token, action);
  const source = await authenticateSource(db, ctx, null, token, action);
  if (!source) throw new FhirError(401, 'login', IngestionErrors.credentials);
  if (!maySendReadings(source, 'fhir')) {
    throw await refuseSource(db, ctx, source, action, 'not a fhir source', kindRefused());
  }
  return source;
}

const CREATE_OBSERVATION: FhirScopeNeed = { resourceType: 'Observation', interaction: 'c' };

async function clientWriter(
  db: pg.Pool,
  ctx: RequestContext,
  token: string,
  action: AuditAction,
): Promise<AuthenticatedSource> {
  const found = await clientOfAccessToken(db, token);
  if (!found.valid) throw await refuseToken(db, ctx, action, found);
  const who: FhirReader = { kind: 'client', client: found.client };
  if (!readerHasScope(who, CREATE_OBSERVATION) || !found.sourceId) {
    throw await refuseScope(db, ctx, action, found.client, CREATE_OBSERVATION);
  }
  const source = await sourcePrincipalOf(db, found.sourceId);
  if (!source) throw await refuseToken(db, ctx, action, { clientId: found.client.id, reason: 'write source revoked' });
  return source;
}

export const sourceDetails = (r: FhirReader) =>
  r.kind === 'source'
    ? { via: 'fhir', source_id: r.source.id, organization_id: r.source.organizationId }
    : r.kind === 'client'
      ? { via: 'smart', smart_client_id: r.client.id, organization_id: r.client.organizationId }
      : { via: 'fhir' };
