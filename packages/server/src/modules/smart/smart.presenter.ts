import {
  CLIENT_CREDENTIALS_GRANT,
  SMART_CAPABILITIES,
  SMART_SIGNING_ALGORITHMS,
  SMART_SYSTEM_SCOPES,
  SMART_TOKEN_PATH,
  type SmartClient,
  type SmartConfiguration,
} from '@rpm/contracts';
import type { ClientRow } from './smart.repository.ts';

/** A client as admins see it: its keys by id (a pasted JWKS is public, but ids are what one checks). */
export const presentClient = (row: ClientRow): SmartClient => ({
  id: row.id,
  name: row.name,
  organization_id: row.organization_id,
  jwks_url: row.jwks_url,
  key_ids: (row.jwks?.keys ?? []).map((k, i) => k.kid ?? `key ${i + 1}`),
  scopes: row.scopes,
  source_id: row.source_id,
  created_at: row.created_at.toISOString(),
  revoked_at: row.revoked_at?.toISOString() ?? null,
});

/**
 * The SMART discovery document (SMART App Launch 2.x, §Metadata): what a backend service needs to
 * find the token endpoint and know which assertions and scopes it takes.
 */
export const smartConfiguration = (publicUrl: string): SmartConfiguration => ({
  token_endpoint: `${publicUrl}${SMART_TOKEN_PATH}`,
  token_endpoint_auth_methods_supported: ['private_key_jwt'],
  token_endpoint_auth_signing_alg_values_supported: [...SMART_SIGNING_ALGORITHMS],
  grant_types_supported: [CLIENT_CREDENTIALS_GRANT],
  scopes_supported: [...SMART_SYSTEM_SCOPES],
  capabilities: [...SMART_CAPABILITIES],
  code_challenge_methods_supported: ['S256'],
});
