import { Type, type Static } from 'typebox';
import { Timestamp, RowId } from './common.ts';

/**
 * SMART Backend Services (SMART App Launch 2.x, "Backend Services"): EHRs and integration
 * engines registered per organization sign a short JWT with their private key and exchange it at
 * the token endpoint for a five-minute access token carrying SMART v2 system scopes.
 */

export const SMART_TOKEN_PATH = '/oauth/token';
export const SMART_CONFIGURATION_PATH = '/.well-known/smart-configuration';
/** The same document under the FHIR base, where SMART clients look first. */
export const SMART_FHIR_CONFIGURATION_PATH = '/fhir/R4/.well-known/smart-configuration';
export const SMART_CLIENTS_PATH = '/api/smart-clients';
export const smartClientRevokePath = (id: string) => `${SMART_CLIENTS_PATH}/${id}/revoke`;

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
export const CLIENT_CREDENTIALS_GRANT = 'client_credentials';
/** The signing algorithms the SMART spec requires servers to support; nothing else is accepted. */
export const SMART_SIGNING_ALGORITHMS = ['RS384', 'ES384'] as const;
export type SmartSigningAlgorithm = (typeof SMART_SIGNING_ALGORITHMS)[number];
/** An access token lives five minutes: a backend asks again, cheaply, rather than hold a long secret. */
export const SMART_ACCESS_TOKEN_SECONDS = 300;
/** An assertion may be valid at most five minutes (SMART Backend Services: `exp` ≤ 5 minutes). */
export const SMART_ASSERTION_MAX_SECONDS = 300;
/** Clock difference tolerated between the client's and the portal's clocks. */
export const SMART_CLOCK_TOLERANCE_SECONDS = 30;
/** How long the portal waits for a client's JWKS URL before refusing the assertion. */
export const SMART_JWKS_TIMEOUT_MS = 5000;
export const SMART_JWKS_MAX_KEYS = 10;
/** The database's refusal to replace the secret of a SMART client's write source (migration 0991). */
export const SMART_CLIENT_SOURCE_SQLSTATE = 'RPM02';

/** The SMART v2 system scopes a client may be granted: what the portal's FHIR API serves to systems. */
export const SMART_SYSTEM_SCOPES = [
  'system/Patient.rs',
  'system/Observation.rs',
  'system/Observation.c',
  'system/Device.rs',
  'system/DiagnosticReport.rs',
  'system/Group.rs',
] as const;
export type SmartSystemScope = (typeof SMART_SYSTEM_SCOPES)[number];

/** The `capabilities` of the discovery document (SMART App Launch 2.x, §Capabilities). */
export const SMART_CAPABILITIES = ['client-confidential-asymmetric', 'permission-v2'] as const;

/** A JSON Web Key as registered: public members only (the service refuses private ones). */
export const SmartJwk = Type.Object(
  {
    kty: Type.String({ maxLength: 10 }),
    kid: Type.Optional(Type.String({ maxLength: 200 })),
    alg: Type.Optional(Type.String({ maxLength: 20 })),
    use: Type.Optional(Type.String({ maxLength: 20 })),
    key_ops: Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { maxItems: 10 })),
    n: Type.Optional(Type.String({ maxLength: 2000 })),
    e: Type.Optional(Type.String({ maxLength: 20 })),
    crv: Type.Optional(Type.String({ maxLength: 20 })),
    x: Type.Optional(Type.String({ maxLength: 200 })),
    y: Type.Optional(Type.String({ maxLength: 200 })),
  },
  // Unknown members (x5c, private parts) are looked at by the service, which names what is wrong.
  { additionalProperties: Type.Unknown() },
);
export type SmartJwk = Static<typeof SmartJwk>;
export const SmartJwks = Type.Object({
  keys: Type.Array(SmartJwk, { minItems: 1, maxItems: SMART_JWKS_MAX_KEYS }),
});
export type SmartJwks = Static<typeof SmartJwks>;

export const SmartScope = Type.Union([
  Type.Literal('system/Patient.rs'),
  Type.Literal('system/Observation.rs'),
  Type.Literal('system/Observation.c'),
  Type.Literal('system/Device.rs'),
  Type.Literal('system/DiagnosticReport.rs'),
  Type.Literal('system/Group.rs'),
]);
export type SmartScope = Static<typeof SmartScope>;

/** POST /api/smart-clients: a JWKS URL or a pasted JWKS, exactly one. */
export const CreateSmartClientBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    organization_id: RowId(),
    jwks_url: Type.Optional(Type.String({ minLength: 8, maxLength: 2000 })),
    jwks: Type.Optional(SmartJwks),
    scopes: Type.Array(SmartScope, { minItems: 1, maxItems: SMART_SYSTEM_SCOPES.length, uniqueItems: true }),
  },
  { additionalProperties: false },
);
export type CreateSmartClientBody = Static<typeof CreateSmartClientBody>;

export const SmartClientIdParam = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const SmartClient = Type.Object({
  /** The OAuth client_id: the assertion's `iss` and `sub`. */
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  organization_id: Type.Integer(),
  jwks_url: Type.Union([Type.String(), Type.Null()]),
  /** The key ids of a pasted JWKS (its public keys are not secret, but a list is what admins check). */
  key_ids: Type.Array(Type.String()),
  scopes: Type.Array(Type.String()),
  /** The ingestion source its Observations are written through (system/Observation.c); null without. */
  source_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  created_at: Timestamp,
  revoked_at: Type.Union([Timestamp, Type.Null()]),
});
export type SmartClient = Static<typeof SmartClient>;
export const SmartClientsResponse = Type.Object({ clients: Type.Array(SmartClient) });
export type SmartClientsResponse = Static<typeof SmartClientsResponse>;

/** GET /.well-known/smart-configuration (SMART App Launch 2.x, §Metadata). */
export const SmartConfiguration = Type.Object({
  token_endpoint: Type.String(),
  token_endpoint_auth_methods_supported: Type.Array(Type.String()),
  token_endpoint_auth_signing_alg_values_supported: Type.Array(Type.String()),
  grant_types_supported: Type.Array(Type.String()),
  scopes_supported: Type.Array(Type.String()),
  capabilities: Type.Array(Type.String()),
  /** Required by the spec even without an authorization endpoint; S256 only, never plain. */
  code_challenge_methods_supported: Type.Array(Type.String()),
});
export type SmartConfiguration = Static<typeof SmartConfiguration>;

export const SmartTokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer(),
  scope: Type.String(),
});
export type SmartTokenResponse = Static<typeof SmartTokenResponse>;

/** RFC 6749 §5.2 error codes the token endpoint answers. */
export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'invalid_scope',
  'unsupported_grant_type',
] as const;
export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];
export const OAuthErrorBody = Type.Object({
  error: Type.Union([
    Type.Literal('invalid_request'),
    Type.Literal('invalid_client'),
    Type.Literal('invalid_grant'),
    Type.Literal('invalid_scope'),
    Type.Literal('unsupported_grant_type'),
  ]),
  error_description: Type.String(),
});
export type OAuthErrorBody = Static<typeof OAuthErrorBody>;

/** What callers are told. Descriptions say what to fix, never which check of a key failed in detail. */
export const SmartErrors = {
  formBody: 'The token request must be application/x-www-form-urlencoded',
  repeatedParameter: (name: string) => `Parameter ${name} is given more than once`,
  missingParameter: (name: string) => `Parameter ${name} is required`,
  grantType: `Only grant_type=${CLIENT_CREDENTIALS_GRANT} is supported`,
  assertionType: `client_assertion_type must be ${CLIENT_ASSERTION_TYPE}`,
  scopeRequired: 'scope is required (SMART Backend Services)',
  scopeNotAllowed: 'None of the requested scopes is allowed for this client',
  clientUnknown: 'Unknown or revoked client',
  assertionInvalid: 'The client assertion is not valid (signature, algorithm, iss, sub, aud, exp or jti)',
  assertionTooLong: `The client assertion must expire within ${SMART_ASSERTION_MAX_SECONDS} seconds`,
  assertionReplayed: 'The client assertion (jti) was already used',
  tokenInvalid: 'The access token is unknown or expired: request a new one',
  staticReadKeyRetired:
    'Static FHIR read keys are retired: register the system as a SMART client and use its access token',
  readKeyCreation: 'FHIR read keys are retired: register the system as a SMART client instead',
  missingScope: (scope: string) => `The access token does not grant ${scope}`,
  keySource: 'Give either a JWKS URL or a pasted JWKS, not both and not neither',
  jwksUrl: 'The JWKS URL must be an https URL',
  privateKey: 'The JWKS contains private key material: paste the public keys only',
  noUsableKey: 'The JWKS has no RS384 or ES384 (P-384) public signing key',
  clientExists: 'No such SMART client',
  clientSource: 'This source writes for a SMART client: it has no secret to rotate (revoke the client instead)',
  organizationUnknown: 'Unknown organization',
} as const;

/** The admin page's texts for SMART clients. */
export const SmartTexts = {
  title: 'EHR system clients (SMART Backend Services)',
  intro:
    'EHRs and integration engines read (and may write) FHIR data with a key pair: they keep the private key and give the portal their public keys.',
  empty: 'No SMART clients yet.',
  register: 'Register client',
  name: 'Name',
  organization: 'Organization',
  keySource: 'Public keys',
  keyUrl: 'JWKS URL',
  keyPasted: 'Pasted JWKS',
  jwksUrl: 'JWKS URL (https)',
  jwks: 'JWKS (public keys, JSON)',
  jwksInvalidJson: 'The JWKS must be JSON with a "keys" list',
  jwksUrlRequired: 'Enter the https URL where the system publishes its public keys',
  scopes: 'Allowed scopes',
  scopesRequired: 'Choose at least one scope',
  clientId: 'Client ID',
  tokenUrl: 'Token URL',
  keys: 'Keys',
  revoke: 'Revoke',
  revoked: 'Revoked',
  active: 'Active',
  revokeTitle: 'Revoke this client?',
  revokeConfirm: (name: string) =>
    `${name} will no longer get access tokens, and its current tokens stop working at once. This cannot be undone.`,
  cancel: 'Cancel',
  created: (name: string) => `${name} registered`,
  revokedToast: (name: string) => `${name} revoked`,
  clientSourceNote: 'Writes for a SMART client',
  legacyTitle: 'Retired FHIR read keys',
  legacyIntro:
    'These static read keys no longer work. Register each system as a SMART client above, then revoke the old key.',
  scopeLabels: {
    'system/Patient.rs': 'Read patients',
    'system/Observation.rs': 'Read observations',
    'system/Observation.c': 'Write observations',
    'system/Device.rs': 'Read devices',
    'system/DiagnosticReport.rs': 'Read monthly summaries',
    'system/Group.rs': 'Read groups (bulk export)',
  } satisfies Record<SmartSystemScope, string>,
} as const;
