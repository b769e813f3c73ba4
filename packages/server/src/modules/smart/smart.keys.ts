import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  errors as joseErrors,
  importJWK,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import {
  SMART_ASSERTION_MAX_SECONDS,
  SMART_CLOCK_TOLERANCE_SECONDS,
  SMART_JWKS_TIMEOUT_MS,
  SMART_SIGNING_ALGORITHMS,
  SmartErrors,
  type SmartJwk,
  type SmartJwks,
} from '@rpm/contracts';

/**
 * Members only a private (or symmetric) JWK has. A JWKS with any of them is refused: the portal
 * must never hold a client's signing key, and an admin pasting one has leaked it.
 */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** Whether a registered key can verify an RS384 or ES384 signature. */
function isUsableKey(key: SmartJwk): boolean {
  if (key.use !== undefined && key.use !== 'sig') return false;
  if (key.key_ops !== undefined && !key.key_ops.includes('verify')) return false;
  if (key.alg !== undefined && !(SMART_SIGNING_ALGORITHMS as readonly string[]).includes(key.alg)) return false;
  if (key.kty === 'RSA')
    return typeof key.n === 'string' && typeof key.e === 'string' && (key.alg ?? 'RS384') === 'RS384';
  if (key.kty === 'EC')
    return (
      key.crv === 'P-384' && typeof key.x === 'string' && typeof key.y === 'string' && (key.alg ?? 'ES384') === 'ES384'
    );
  return false;
}

/** Why a pasted JWKS is refused, or null: no private members, and at least one key jose can import. */
export async function jwksProblem(jwks: SmartJwks): Promise<string | null> {
  if (jwks.keys.some((k) => PRIVATE_MEMBERS.some((m) => m in k))) return SmartErrors.privateKey;
  const usable = jwks.keys.filter(isUsableKey);
  if (usable.length === 0) return SmartErrors.noUsableKey;
  for (const key of usable) {
    try {
      await importJWK(key, key.alg ?? (key.kty === 'RSA' ? 'RS384' : 'ES384'));
    } catch {
      return SmartErrors.noUsableKey;
    }
  }
  return null;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Why a JWKS URL is refused, or null. Keys fetched over plain http could be replaced on the way,
 * so only https; a loopback http URL only when the operator allows it (tests and local demos run
 * their key server on 127.0.0.1 without a certificate).
 */
export function jwksUrlProblem(raw: string, allowLoopbackHttp: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return SmartErrors.jwksUrl;
  }
  if (url.username || url.password) return SmartErrors.jwksUrl;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && allowLoopbackHttp && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return SmartErrors.jwksUrl;
}

/**
 * Remote key sets by URL, kept across requests: jose caches the fetched keys and refetches on an
 * unknown `kid` (a client rotating its keys) no more often than its cool-down allows.
 */
const remoteSets = new Map<string, JWTVerifyGetKey>();
const MAX_REMOTE_SETS = 1000;

export function keySetOf(client: { jwks_url: string | null; jwks: SmartJwks | null }): JWTVerifyGetKey {
  if (client.jwks) return createLocalJWKSet(client.jwks as Parameters<typeof createLocalJWKSet>[0]);
  const url = client.jwks_url!;
  let set = remoteSets.get(url);
  if (!set) {
    if (remoteSets.size >= MAX_REMOTE_SETS) remoteSets.clear();
    set = createRemoteJWKSet(new URL(url), { timeoutDuration: SMART_JWKS_TIMEOUT_MS });
    remoteSets.set(url, set);
  }
  return set;
}

/** The client id an assertion claims (its `iss`), before anything about it is trusted. */
export function claimedIssuer(assertion: string): string | null {
  try {
    const { iss } = decodeJwt(assertion);
    return typeof iss === 'string' ? iss : null;
  } catch {
    return null;
  }
}

export type AssertionCheck =
  { ok: true; jti: string; expiresAt: Date } | { ok: false; reason: string; message: string };

/**
 * Verifies a client assertion (SMART Backend Services, RFC 7523): signed by one of the client's
 * keys with RS384 or ES384 only (so `alg: none` and an HS256 "signed" with the public key fail
 * before any key is tried), `iss` = `sub` = the client id, `aud` = the token URL, `exp` present
 * and at most five minutes ahead, a lifetime (`exp` - `iat`) of at most five minutes, and a `jti`.
 * The reason is for the audit record; the message is what the client is told.
 */
export async function checkAssertion(
  assertion: string,
  keys: JWTVerifyGetKey,
  expected: { clientId: string; audience: string; now?: Date },
): Promise<AssertionCheck> {
  const now = expected.now ?? new Date();
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(assertion, keys, {
      algorithms: [...SMART_SIGNING_ALGORITHMS],
      issuer: expected.clientId,
      subject: expected.clientId,
      audience: expected.audience,
      requiredClaims: ['exp', 'jti'],
      clockTolerance: SMART_CLOCK_TOLERANCE_SECONDS,
      currentDate: now,
    }));
  } catch (err) {
    return { ok: false, reason: assertionFailure(err), message: SmartErrors.assertionInvalid };
  }
  const exp = payload.exp!;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (exp > nowSeconds + SMART_ASSERTION_MAX_SECONDS + SMART_CLOCK_TOLERANCE_SECONDS) {
    return { ok: false, reason: 'exp more than 5 minutes ahead', message: SmartErrors.assertionTooLong };
  }
  if (payload.iat !== undefined && exp - payload.iat > SMART_ASSERTION_MAX_SECONDS) {
    return { ok: false, reason: 'lifetime over 5 minutes', message: SmartErrors.assertionTooLong };
  }
  const jti = payload.jti;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > 255) {
    return { ok: false, reason: 'bad jti', message: SmartErrors.assertionInvalid };
  }
  return { ok: true, jti, expiresAt: new Date(exp * 1000) };
}

/** A short, non-secret name for why jose refused an assertion, for the audit record. */
function assertionFailure(err: unknown): string {
  // JWTExpired is a JWTClaimValidationFailed too: asked first.
  if (err instanceof joseErrors.JWTExpired) return 'assertion expired';
  if (err instanceof joseErrors.JWTClaimValidationFailed) return `claim ${err.claim}: ${err.reason}`;
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return 'algorithm not allowed';
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return 'signature invalid';
  if (err instanceof joseErrors.JWKSNoMatchingKey) return 'no matching key';
  if (err instanceof joseErrors.JWKSTimeout) return 'jwks url timed out';
  if (err instanceof joseErrors.JOSEError) return err.code;
  return 'assertion unreadable';
}
