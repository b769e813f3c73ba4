import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseKey, type Config } from './config.ts';

/**
 * The two keys the portal keeps outside its database, so that a copy of the database (a dump, a
 * backup, a database administrator) is not enough to rewrite the audit trail or to mint sessions:
 * - the audit chain's HMAC key (modules/audit/sealer.ts);
 * - the master key that encrypts the user pool's signing key, admin secret and data key.
 * Each comes from its environment variable or, by default, from a file in the data directory,
 * created (mode 0600) at first start. Either way it must be backed up apart from the database.
 */
export interface PortalKeys {
  auditHmacKey: Buffer;
  masterKey: Buffer;
}

export const AUDIT_KEY_FILE = 'audit-hmac.key';
export const MASTER_KEY_FILE = 'master.key';

export class MissingKeyError extends Error {}

/**
 * `create: false` (the verify tool) never makes up a key: a missing key is an error there, since
 * a new key would make every existing link look forged.
 */
export async function loadPortalKeys(
  config: Pick<Config, 'dataDir' | 'auditHmacKey' | 'masterKey'>,
  opts: { create: boolean; log?: (msg: string) => void },
): Promise<PortalKeys> {
  return {
    auditHmacKey: await loadAuditHmacKey(config, opts),
    masterKey: config.masterKey ?? (await keyFile(config.dataDir, MASTER_KEY_FILE, 'PORTAL_MASTER_KEY', opts)),
  };
}

export async function loadAuditHmacKey(
  config: Pick<Config, 'dataDir' | 'auditHmacKey'>,
  opts: { create: boolean; log?: (msg: string) => void },
): Promise<Buffer> {
  return config.auditHmacKey ?? (await keyFile(config.dataDir, AUDIT_KEY_FILE, 'AUDIT_HMAC_KEY', opts));
}

async function keyFile(
  dataDir: string,
  name: string,
  envName: string,
  opts: { create: boolean; log?: (msg: string) => void },
): Promise<Buffer> {
  const file = path.join(dataDir, name);
  const existing = await readKeyFile(file, envName);
  if (existing) return existing;
  if (!opts.create) throw new MissingKeyError(`no ${envName} set and no key file ${file}`);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // Written whole under a private name, then linked into place: of two instances starting at
  // once on one data directory, one link wins and both read a complete key (creating the file
  // itself with 'wx' let the other read it while still empty).
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.new`;
  await writeFile(draft, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  try {
    await link(draft, file);
    opts.log?.(`created the ${envName} key file ${file}; back it up apart from the database`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await rm(draft, { force: true });
  }
  const created = await readKeyFile(file, envName);
  if (!created) throw new Error(`could not create the key file ${file}`);
  return created;
}

async function readKeyFile(file: string, envName: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const key = parseKey(text);
  if (!key) throw new Error(`the key file ${file} does not hold a key (${envName}: 32 or more bytes, hex or base64)`);
  // Readable by others only through a mistake: narrow it rather than refuse to start.
  if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
  return key;
}

/** The file name of each key in the data directory. */
export const KEY_FILES = { auditHmacKey: AUDIT_KEY_FILE, masterKey: MASTER_KEY_FILE } as const;

/**
 * Puts a backed-up key in place (restore), mode 0600. A key file already there with another key is
 * replaced only with `replace`: a portal started on its data with the wrong key would find every
 * audit link forged and could not open its user pool.
 */
export async function restoreKeyFile(
  dataDir: string,
  name: string,
  key: Buffer,
  opts: { replace: boolean },
): Promise<'written' | 'same' | 'differs'> {
  const file = path.join(dataDir, name);
  const existing = await readKeyFile(file, name).catch(() => undefined);
  if (existing?.equals(key)) return 'same';
  if (existing && !opts.replace) return 'differs';
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await rm(file, { force: true });
  await writeFile(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  return 'written';
}

/** Whether a key file exists with another key than `key` (a restore would have to replace it). */
export async function keyFileDiffers(dataDir: string, name: string, key: Buffer): Promise<boolean> {
  const existing = await readKeyFile(path.join(dataDir, name), name).catch(() => undefined);
  return existing !== undefined && !existing.equals(key);
}
