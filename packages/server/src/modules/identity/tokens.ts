import { randomUUID } from 'node:crypto';
import type { Jwks } from 'aws-jwt-verify/jwk';
import { SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify, type JWK, type JWTPayload } from 'jose';

/**
 * Access and ID tokens shaped like Cognito's: RS256, `kid` in the header, the same claim names,
 * one-hour lifetime. The signing key is generated once per install and kept in the database.
 */

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const TOKEN_SCOPE = 'aws.cognito.signin.user.admin';

export interface StoredSigningKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

type ImportedKey = Awaited<ReturnType<typeof importJWK>>;

export interface SigningKey {
  kid: string;
  privateKey: ImportedKey;
  publicKey: ImportedKey;
  publicJwk: JWK;
}

export async function generateSigningKey(): Promise<StoredSigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const kid = randomUUID();
  return { kid, privateJwk: await exportJWK(privateKey), publicJwk: await exportJWK(publicKey) };
}

export async function loadSigningKey(stored: StoredSigningKey): Promise<SigningKey> {
  const publicJwk: JWK = { kty: stored.publicJwk.kty, n: stored.publicJwk.n, e: stored.publicJwk.e };
  return {
    kid: stored.kid,
    privateKey: await importJWK(stored.privateJwk, 'RS256'),
    publicKey: await importJWK(publicJwk, 'RS256'),
    publicJwk,
  };
}

/** The public key set as Cognito publishes it at /<poolId>/.well-known/jwks.json. */
export function jwksOf(key: SigningKey): Jwks {
  return {
    keys: [{ alg: 'RS256', e: String(key.publicJwk.e), kid: key.kid, kty: 'RSA', n: String(key.publicJwk.n), use: 'sig' }],
  };
}

export interface TokenSubject {
  username: string;
  email: string;
  emailVerified: boolean;
}

export interface IssueContext {
  issuer: string;
  clientId: string;
  /** The sign-in these tokens descend from (the refresh token's id). */
  originJti: string;
  authTime: Date;
  now?: Date;
}

export async function issueTokens(
  key: SigningKey,
  user: TokenSubject,
  ctx: IssueContext,
): Promise<{ accessToken: string; idToken: string; expiresIn: number }> {
  const iat = Math.floor((ctx.now ?? new Date()).getTime() / 1000);
  const exp = iat + ACCESS_TOKEN_TTL_SECONDS;
  const authTime = Math.floor(ctx.authTime.getTime() / 1000);
  const eventId = randomUUID();
  const header = { alg: 'RS256', kid: key.kid };
  const accessToken = await new SignJWT({
    sub: user.username,
    iss: ctx.issuer,
    client_id: ctx.clientId,
    origin_jti: ctx.originJti,
    event_id: eventId,
    token_use: 'access',
    scope: TOKEN_SCOPE,
    auth_time: authTime,
    exp,
    iat,
    jti: randomUUID(),
    username: user.username,
  })
    .setProtectedHeader(header)
    .sign(key.privateKey);
  const idToken = await new SignJWT({
    sub: user.username,
    email_verified: user.emailVerified,
    iss: ctx.issuer,
    'cognito:username': user.username,
    origin_jti: ctx.originJti,
    aud: ctx.clientId,
    event_id: eventId,
    token_use: 'id',
    auth_time: authTime,
    exp,
    iat,
    jti: randomUUID(),
    email: user.email,
  })
    .setProtectedHeader(header)
    .sign(key.privateKey);
  return { accessToken, idToken, expiresIn: ACCESS_TOKEN_TTL_SECONDS };
}

export interface AccessClaims {
  sub: string;
  username: string;
  clientId: string;
  originJti: string;
  iat: number;
  exp: number;
}

export type AccessTokenProblem = 'invalid' | 'expired';

/** Checks signature, issuer, lifetime and shape; revocation is the caller's second step. */
export async function readAccessToken(
  key: SigningKey,
  token: string,
  expected: { issuer: string; clientId: string; now?: Date },
): Promise<AccessClaims | AccessTokenProblem> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, key.publicKey, {
      algorithms: ['RS256'],
      issuer: expected.issuer,
      ...(expected.now ? { currentDate: expected.now } : {}),
    }));
  } catch (err) {
    return (err as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid';
  }
  const { sub, username, client_id: clientId, origin_jti: originJti, token_use: tokenUse, iat, exp } = payload;
  if (
    tokenUse !== 'access' ||
    clientId !== expected.clientId ||
    typeof sub !== 'string' ||
    typeof username !== 'string' ||
    typeof originJti !== 'string' ||
    typeof iat !== 'number' ||
    typeof exp !== 'number'
  ) {
    return 'invalid';
  }
  return { sub, username, clientId, originJti, iat, exp };
}
