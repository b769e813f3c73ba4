import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { BackupError } from './pg-tools.ts';

/**
 * The portal's keys (keys.ts) are kept apart from the database on purpose; a backup keeps them
 * apart too, in a file of their own encrypted with a passphrase the operator gives: scrypt derives
 * the key (N = 2^17, r = 8, p = 1: about 0.3 s and 128 MiB per try, which makes guessing slow),
 * AES-256-GCM encrypts and authenticates (a wrong passphrase or a changed byte fails as a whole).
 */
export interface BackedUpSecrets {
  auditHmacKey: Buffer;
  masterKey: Buffer;
  /** The embedded cluster's superuser password, which a physical copy of the cluster needs. */
  embeddedPassword?: string;
}

const FORMAT = 'rpm-portal-keys/1';
const SCRYPT = { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 };
export const MIN_PASSPHRASE_LENGTH = 12;

interface Envelope {
  format: typeof FORMAT;
  kdf: { name: 'scrypt'; N: number; r: number; p: number; salt: string };
  cipher: 'aes-256-gcm';
  iv: string;
  tag: string;
  data: string;
}

const derive = (passphrase: string, salt: Buffer, k: { N: number; r: number; p: number }) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(passphrase.normalize('NFC'), salt, 32, { ...k, maxmem: SCRYPT.maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );

export async function writeSecretsFile(file: string, secrets: BackedUpSecrets, passphrase: string): Promise<void> {
  if (passphrase.length < MIN_PASSPHRASE_LENGTH) {
    throw new BackupError(`the passphrase must have at least ${MIN_PASSPHRASE_LENGTH} characters`);
  }
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const key = await derive(passphrase, salt, SCRYPT);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(FORMAT));
  const plain = Buffer.from(
    JSON.stringify({
      auditHmacKey: secrets.auditHmacKey.toString('base64'),
      masterKey: secrets.masterKey.toString('base64'),
      ...(secrets.embeddedPassword ? { embeddedPassword: secrets.embeddedPassword } : {}),
    }),
  );
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  plain.fill(0);
  const envelope: Envelope = {
    format: FORMAT,
    kdf: { name: 'scrypt', N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, salt: salt.toString('base64') },
    cipher: 'aes-256-gcm',
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
  await writeFile(file, JSON.stringify(envelope, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
}

export async function readSecretsFile(file: string, passphrase: string): Promise<BackedUpSecrets> {
  let envelope: Envelope;
  try {
    envelope = JSON.parse(await readFile(file, 'utf8')) as Envelope;
  } catch (err) {
    throw new BackupError(`cannot read the keys file ${file}: ${(err as Error).message}`);
  }
  if (envelope.format !== FORMAT || envelope.kdf?.name !== 'scrypt' || envelope.cipher !== 'aes-256-gcm') {
    throw new BackupError(`${file} is not a portal keys file (${FORMAT})`);
  }
  const { N, r, p, salt } = envelope.kdf;
  // Bounds on what the file asks of this machine: a doctored file must not make us allocate gigabytes.
  if (![N, r, p].every(Number.isInteger) || N > 2 ** 20 || r > 16 || p > 4) {
    throw new BackupError(`${file} asks for key derivation settings out of bounds`);
  }
  const key = await derive(passphrase, Buffer.from(salt, 'base64'), { N, r, p });
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(envelope.iv, 'base64'));
  decipher.setAAD(Buffer.from(FORMAT));
  decipher.setAuthTag(Buffer.from(envelope.tag, 'base64'));
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(Buffer.from(envelope.data, 'base64')), decipher.final()]);
  } catch {
    throw new BackupError('wrong passphrase, or the keys file was changed');
  }
  const parsed = JSON.parse(plain.toString()) as { auditHmacKey: string; masterKey: string; embeddedPassword?: string };
  plain.fill(0);
  return {
    auditHmacKey: Buffer.from(parsed.auditHmacKey, 'base64'),
    masterKey: Buffer.from(parsed.masterKey, 'base64'),
    embeddedPassword: parsed.embeddedPassword,
  };
}
