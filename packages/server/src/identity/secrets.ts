import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Small cryptographic helpers shared by the pool: opaque bearer values, their hashes, sealing. */

/** An unguessable opaque value (sessions, refresh tokens, secret blocks). */
export function opaqueToken(bytes = 48): string {
  return randomBytes(bytes).toString('base64url');
}

/** Bearer values are stored only as this hash, so a database dump cannot be replayed. */
export function hashToken(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
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
