import { createCipheriv, createDecipheriv, createHash, createHmac, hash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Small cryptographic helpers shared by the pool: opaque bearer values, their hashes, sealing. */

/** An unguessable opaque value (sessions, refresh tokens, secret blocks). */
export function opaqueToken(bytes = 48): string {
  return randomBytes(bytes).toString('base64url');
}

/** Bearer values are stored only as this hash, so a database dump cannot be replayed. */
export function hashToken(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}

/** Short codes (6 digits) are keyed with the install's secret: a bare hash would be reversible. */
export function keyedHash(key: Buffer, ...parts: string[]): Buffer {
  const mac = createHmac('sha256', key);
  for (const part of parts) mac.update(`${part.length}:${part}|`);
  return mac.digest();
}

export function buffersEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export function sixDigitCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** AES-256-GCM: the TOTP secret is unreadable without the install key. Layout: iv | tag | data. */
export function seal(key: Buffer, plaintext: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]);
}

export function unseal(key: Buffer, sealed: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
}

/**
 * AES-256-GCM under the master key (kept outside the database), bound to what the value is
 * (`purpose`, the authenticated data): a sealed value moved to another column does not open.
 * Layout: version (1) | iv (12) | tag (16) | data.
 */
const MASTER_SEAL_VERSION = 1;

export function sealWithMasterKey(masterKey: Buffer, purpose: string, plaintext: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', masterKeyFor(masterKey), iv);
  cipher.setAAD(Buffer.from(`rpm-master-seal:${purpose}`, 'utf8'));
  const data = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.from([MASTER_SEAL_VERSION]), iv, cipher.getAuthTag(), data]);
}

export function unsealWithMasterKey(masterKey: Buffer, purpose: string, sealed: Buffer): Buffer {
  if (sealed[0] !== MASTER_SEAL_VERSION) throw new Error('unknown sealed value format');
  const decipher = createDecipheriv('aes-256-gcm', masterKeyFor(masterKey), sealed.subarray(1, 13));
  decipher.setAAD(Buffer.from(`rpm-master-seal:${purpose}`, 'utf8'));
  decipher.setAuthTag(sealed.subarray(13, 29));
  return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]);
}

/** Keys longer than 32 bytes are accepted; AES-256 takes a digest of them. */
function masterKeyFor(masterKey: Buffer): Buffer {
  return masterKey.length === 32 ? masterKey : createHash('sha256').update(masterKey).digest();
}
