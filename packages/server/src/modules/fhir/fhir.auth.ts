import type pg from 'pg';
import { IngestionErrors, type AuditAction } from '@rpm/contracts';
import type { Resource } from '@medplum/fhirtypes';
import type { RequestContext } from '../../kernel/request-context.ts';
import { HttpError } from '../../kernel/errors.ts';
import { mayReadViaFhir, maySendReadings, type FhirReader } from '../../policies/ingestion.ts';
import type { IssueCode } from './fhir.presenter.ts';
import type { FhirScopeNeed } from '../../policies/fhir-scopes.ts';
import { authenticateSource, refuseSource, type AuthenticatedSource } from '../ingestion/index.ts';
import { sourceIdOfSecret } from '../ingestion/index.ts';

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
/** The source a request's Bearer key names (not yet checked), for counting it against the source's rate limit. */
export function sourceNamedBy(authorization: string | undefined): string | null {
  const key = bearer(authorization);
  return key ? sourceIdOfSecret(key) : null;
}
export const notFound = () => new FhirError(404, 'not-found', 'Resource not found');
const kindRefused = () => new FhirError(403, 'security', IngestionErrors.sourceKind);

/** The caller of a FHIR read: a signed-in staff member, or a FHIR source presenting its read key. */
export async function reader(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  action: AuditAction,
  // What the interaction needs; checked against a SMART client's granted scopes.
  _need: FhirScopeNeed,
): Promise<FhirReader> {
  if (ctx.actor) return { kind: 'staff', actor: ctx.actor };
  const source = await authenticateSource(db, ctx, null, bearer(authorization), action);
  if (!source) throw new FhirError(401, 'login', IngestionErrors.credentials);
  const who: FhirReader = { kind: 'source', source };
  // A read with a write-only key is refused like a patient of another organization: nothing to learn.
  if (!mayReadViaFhir(who)) {
    throw await refuseSource(db, ctx, source, action, 'no read scope', kindRefused());
  }
  return who;
}

export async function writer(
  db: pg.Pool,
  ctx: RequestContext,
  authorization: string | undefined,
  action: AuditAction,
): Promise<AuthenticatedSource> {
  const source = await authenticateSource(db, ctx, null, bearer(authorization), action);
  if (!source) throw new FhirError(401, 'login', IngestionErrors.credentials);
  if (!maySendReadings(source, 'fhir')) {
    throw await refuseSource(db, ctx, source, action, 'not a fhir source', kindRefused());
  }
  return source;
}

export const sourceDetails = (r: FhirReader) =>
  r.kind === 'source'
    ? { via: 'fhir', source_id: r.source.id, organization_id: r.source.organizationId }
    : { via: 'fhir' };
