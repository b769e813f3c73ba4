import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Source secrets carry the source id, so a FHIR caller (which sends only a Bearer token) is found
 * by id and checked against one stored hash, in constant time. 256 random bits make a plain
 * SHA-256 a safe way to store them.
 */
const PREFIX = 'rpms';

export function newSourceSecret(sourceId: string): string {
  return `${PREFIX}_${sourceId.replace(/-/g, '')}_${randomBytes(32).toString('base64url')}`;
}

export const hashSecret = (secret: string): Buffer => hash('sha256', secret, 'buffer');

/** The source id a secret names, or null when it is not shaped like one of ours. */
export function sourceIdOfSecret(secret: string): string | null {
  const m = /^rpms_([0-9a-f]{32})_[A-Za-z0-9_-]{43}$/.exec(secret);
  if (!m) return null;
  const h = m[1]!;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function secretMatches(presented: string, storedHash: Buffer): boolean {
  const hash = hashSecret(presented);
  return storedHash.length === hash.length && timingSafeEqual(hash, storedHash);
}
