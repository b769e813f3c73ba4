import { hash, randomBytes } from 'node:crypto';
import {
  CLIENT_ASSERTION_TYPE,
  CLIENT_CREDENTIALS_GRANT,
  SMART_ACCESS_TOKEN_SECONDS,
  SMART_TOKEN_PATH,
  SmartErrors,
  type OAuthErrorBody,
  type OAuthErrorCode,
  type SmartTokenResponse,
} from '@rpm/contracts';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { audit } from '../../kernel/audit-writer.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import { grantScopes } from '../../policies/fhir-scopes.ts';
import type { SmartClientPrincipal } from '../../policies/ingestion.ts';
import { checkAssertion, claimedIssuer, keySetOf } from './smart.keys.ts';
import { findClient, findToken, insertToken, pruneExpired, useAssertionId } from './smart.repository.ts';

/** What the token endpoint answers: a token, or an RFC 6749 §5.2 error with its status. */
export type TokenAnswer = { status: 200; body: SmartTokenResponse } | { status: 400 | 401; body: OAuthErrorBody };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Access tokens carry their client's id, so that rate limits count a client's requests without a
 * lookup; the rest is 256 random bits, and only their SHA-256 is stored (as for source secrets).
 */
const TOKEN_PREFIX = 'rpmat';
const TOKEN_PATTERN = /^rpmat_([0-9a-f]{32})_[A-Za-z0-9_-]{43}$/;
const newAccessToken = (clientId: string) =>
  `${TOKEN_PREFIX}_${clientId.replace(/-/g, '')}_${randomBytes(32).toString('base64url')}`;
const hashToken = (token: string): Buffer => hash('sha256', token, 'buffer');

/** The client a token names (not yet checked), for counting its requests; null when not shaped like one. */
export function clientNamedByToken(token: string): string | null {
  const hex = TOKEN_PATTERN.exec(token)?.[1];
  return hex ? hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5') : null;
}

/**
 * POST /oauth/token (SMART Backend Services): client_credentials with a signed client assertion.
 * Every request is audited (`smart.token`) with the client it claims and why it failed; never the
 * assertion. A refused request stores nothing (an assertion id is spent only with its token).
 */
export async function issueToken(
  db: pg.Pool,
  ctx: RequestContext,
  params: URLSearchParams | null,
  publicUrl: string,
): Promise<TokenAnswer> {
  let clientId: string | null = null;
  const refuse = async (status: 400 | 401, error: OAuthErrorCode, description: string, reason: string) => {
    await audit(db, ctx, {
      action: 'smart.token',
      outcome: 'failure',
      resourceType: 'smart_client',
      resourceId: clientId,
      reason,
    });
    return { status, body: { error, error_description: description } } as const;
  };

  if (!params) return refuse(400, 'invalid_request', SmartErrors.formBody, 'not a form body');
  for (const name of new Set(params.keys())) {
    // RFC 6749 §3.2: request parameters must not be included more than once.
    if (params.getAll(name).length > 1) {
      return refuse(400, 'invalid_request', SmartErrors.repeatedParameter(name), `repeated ${name}`.slice(0, 80));
    }
  }
  const grantType = params.get('grant_type');
  if (!grantType) return refuse(400, 'invalid_request', SmartErrors.missingParameter('grant_type'), 'no grant_type');
  if (grantType !== CLIENT_CREDENTIALS_GRANT) {
    return refuse(400, 'unsupported_grant_type', SmartErrors.grantType, 'unsupported grant_type');
  }
  const assertionType = params.get('client_assertion_type');
  const assertion = params.get('client_assertion');
  if (!assertionType || !assertion) {
    const missing = !assertionType ? 'client_assertion_type' : 'client_assertion';
    return refuse(400, 'invalid_request', SmartErrors.missingParameter(missing), `no ${missing}`);
  }
  if (assertionType !== CLIENT_ASSERTION_TYPE) {
    return refuse(400, 'invalid_client', SmartErrors.assertionType, 'wrong client_assertion_type');
  }
  const issuer = claimedIssuer(assertion);
  clientId = issuer && UUID.test(issuer) ? issuer.toLowerCase() : null;
  // RFC 7521 §4.2: a client_id sent beside the assertion must name the assertion's client.
  const named = params.get('client_id');
  if (named !== null && named.toLowerCase() !== clientId) {
    return refuse(401, 'invalid_client', SmartErrors.clientUnknown, 'client_id differs from iss');
  }
  const client = clientId ? await findClient(db, clientId) : null;
  if (!client || client.revoked_at) {
    return refuse(401, 'invalid_client', SmartErrors.clientUnknown, !client ? 'unknown client' : 'client revoked');
  }
  const check = await checkAssertion(assertion, keySetOf(client), {
    clientId: client.id,
    audience: `${publicUrl}${SMART_TOKEN_PATH}`,
  });
  if (!check.ok) return refuse(401, 'invalid_client', check.message, check.reason);

  // SMART Backend Services requires a scope; asked once the client is known, so its record says who.
  const scope = params.get('scope')?.trim();
  if (!scope) return refuse(400, 'invalid_scope', SmartErrors.scopeRequired, 'no scope');

  const granted = grantScopes(scope.split(/\s+/), client.scopes);
  if (granted.length === 0)
    return refuse(400, 'invalid_scope', SmartErrors.scopeNotAllowed, 'no requested scope allowed');

  const token = newAccessToken(client.id);
  const issued = await withTransaction(db, async (tx) => {
    await pruneExpired(tx);
    if (!(await useAssertionId(tx, client.id, check.jti, check.expiresAt))) return false;
    await insertToken(tx, {
      hash: hashToken(token),
      clientId: client.id,
      organizationId: client.organization_id,
      scopes: granted,
      expiresAt: new Date(Date.now() + SMART_ACCESS_TOKEN_SECONDS * 1000),
    });
    await audit(tx, ctx, {
      action: 'smart.token',
      outcome: 'success',
      resourceType: 'smart_client',
      resourceId: client.id,
      details: { scope: granted.join(' '), requested: scope.slice(0, 500), organization_id: client.organization_id },
    });
    return true;
  });
  if (!issued) return refuse(401, 'invalid_client', SmartErrors.assertionReplayed, 'jti reused');
  return {
    status: 200,
    body: {
      access_token: token,
      token_type: 'bearer',
      expires_in: SMART_ACCESS_TOKEN_SECONDS,
      scope: granted.join(' '),
    },
  };
}

/** A token request refused before the service could read it (wrong content type, too large): audited too. */
export async function refuseUnreadableRequest(db: pg.Pool, ctx: RequestContext, reason: string): Promise<TokenAnswer> {
  await audit(db, ctx, { action: 'smart.token', outcome: 'failure', resourceType: 'smart_client', reason });
  return { status: 400, body: { error: 'invalid_request', error_description: SmartErrors.formBody } };
}

/** What a presented Bearer token is: a valid client token, or a refused one (and whose, if known). */
export type TokenLookup =
  | { valid: true; client: SmartClientPrincipal; sourceId: string | null }
  | { valid: false; clientId: string | null; reason: string };

/** Looks up an access token by its hash: valid while unexpired and its client is not revoked. */
export async function clientOfAccessToken(db: pg.Pool, token: string): Promise<TokenLookup> {
  const row = TOKEN_PATTERN.test(token) ? await findToken(db, hashToken(token)) : null;
  if (!row) return { valid: false, clientId: null, reason: 'unknown token' };
  if (row.revoked) return { valid: false, clientId: row.client_id, reason: 'client revoked' };
  if (!row.live) return { valid: false, clientId: row.client_id, reason: 'token expired' };
  return {
    valid: true,
    client: { id: row.client_id, name: row.client_name, organizationId: row.organization_id, scopes: row.scopes },
    sourceId: row.source_id,
  };
}
