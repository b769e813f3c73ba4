/**
 * SMART Backend Services in tests, as an EHR does it: a key pair made here (the portal only ever
 * sees the public half), a client registered through the admin API with the pasted public JWKS,
 * and assertions signed with the private key exchanged at the token endpoint for access tokens.
 */
import { randomUUID } from 'node:crypto';
import {
  CLIENT_ASSERTION_TYPE,
  CLIENT_CREDENTIALS_GRANT,
  SMART_CLIENTS_PATH,
  SMART_TOKEN_PATH,
  type SmartClient,
  type SmartSigningAlgorithm,
  type SmartSystemScope,
} from '@rpm/contracts';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import type { ApiClient, TestServer } from './http.ts';

export interface SmartTestClient {
  id: string;
  name: string;
  organizationId: number;
  scopes: SmartSystemScope[];
  alg: SmartSigningAlgorithm;
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

/** A signing key pair of the given algorithm, its public half as a JWK with kid and alg. */
export async function smartKeyPair(alg: SmartSigningAlgorithm = 'RS384') {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { privateKey, publicJwk, kid };
}

/** Registers a SMART client through the admin API (`adminApi`: a signed-in admin) with a pasted JWKS. */
export async function smartClient(
  _server: TestServer,
  adminApi: ApiClient,
  opts: { organizationId: number; scopes: SmartSystemScope[]; alg?: SmartSigningAlgorithm; name?: string },
): Promise<SmartTestClient> {
  const alg = opts.alg ?? 'RS384';
  const { privateKey, publicJwk, kid } = await smartKeyPair(alg);
  const name = opts.name ?? `EHR ${kid.slice(0, 8)}`;
  const res = await adminApi.post<SmartClient>(SMART_CLIENTS_PATH, {
    name,
    organization_id: opts.organizationId,
    jwks: { keys: [publicJwk] },
    scopes: opts.scopes,
  });
  if (res.status !== 201)
    throw new Error(`registering a SMART client answered ${res.status}: ${JSON.stringify(res.body)}`);
  return {
    id: res.body.id,
    name,
    organizationId: opts.organizationId,
    scopes: opts.scopes,
    alg,
    kid,
    privateKey,
    publicJwk,
  };
}

/**
 * A client assertion as SMART Backend Services asks: iss = sub = client id, aud = the token URL,
 * a fresh jti, exp in four minutes. `claims` and `header` change or add what a test needs.
 */
export async function signAssertion(
  server: TestServer,
  client: Pick<SmartTestClient, 'id' | 'alg' | 'kid' | 'privateKey'>,
  opts: { claims?: JWTPayload; header?: Record<string, unknown> } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: client.id,
    sub: client.id,
    aud: `${server.url}${SMART_TOKEN_PATH}`,
    jti: randomUUID(),
    exp: now + 240,
    ...opts.claims,
  })
    .setProtectedHeader({ alg: client.alg, kid: client.kid, typ: 'JWT', ...opts.header })
    .sign(client.privateKey);
}

export interface TokenResponse {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | number | undefined>;
}

/** POSTs a form to the token endpoint as a backend service would. */
export async function requestToken(server: TestServer, form: Record<string, string>): Promise<TokenResponse> {
  const res = await server.app.inject({
    method: 'POST',
    url: SMART_TOKEN_PATH,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
    remoteAddress: '127.0.0.1',
  });
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown>, headers: res.headers };
}

/** The token request for `assertion` (a signed one by default), asking for `scopes`. */
export const tokenForm = (assertion: string, scopes: readonly string[]) => ({
  grant_type: CLIENT_CREDENTIALS_GRANT,
  client_assertion_type: CLIENT_ASSERTION_TYPE,
  client_assertion: assertion,
  scope: scopes.join(' '),
});

/** Signs an assertion and exchanges it for an access token (all the client's scopes unless told). */
export async function smartToken(
  server: TestServer,
  client: SmartTestClient,
  scopes: readonly string[] = client.scopes,
): Promise<string> {
  const res = await requestToken(server, tokenForm(await signAssertion(server, client), scopes));
  if (res.status !== 200) throw new Error(`token endpoint answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.access_token as string;
}
