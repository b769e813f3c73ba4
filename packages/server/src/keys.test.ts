import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseKey } from './config.ts';
import { AUDIT_KEY_FILE, loadAuditHmacKey, loadPortalKeys, MASTER_KEY_FILE } from './keys.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
async function tempDir() {
  const d = await mkdtemp(path.join(os.tmpdir(), 'rpm-keys-'));
  dirs.push(d);
  return path.join(d, 'data');
}

describe('portal keys', () => {
  it('are created once in the data directory, mode 0600, and found again', async () => {
    const dataDir = await tempDir();
    const logged: string[] = [];
    // Two instances starting at once on one data directory agree on one key.
    const [a, b] = await Promise.all([
      loadPortalKeys(
        { dataDir, auditHmacKey: undefined, masterKey: undefined },
        { create: true, log: (m) => logged.push(m) },
      ),
      loadPortalKeys(
        { dataDir, auditHmacKey: undefined, masterKey: undefined },
        { create: true, log: (m) => logged.push(m) },
      ),
    ]);
    expect(a).toEqual(b);
    expect(a.auditHmacKey).toHaveLength(32);
    expect(a.auditHmacKey.equals(a.masterKey)).toBe(false);
    for (const f of [AUDIT_KEY_FILE, MASTER_KEY_FILE])
      expect((await stat(path.join(dataDir, f))).mode & 0o777).toBe(0o600);
    // Said once each, where it is, never the key itself.
    expect(logged).toHaveLength(2);
    expect(logged.join('\n')).toContain(path.join(dataDir, AUDIT_KEY_FILE));
    expect(logged.join('\n')).not.toContain(a.auditHmacKey.toString('base64'));
    const again = await loadPortalKeys({ dataDir, auditHmacKey: undefined, masterKey: undefined }, { create: true });
    expect(again).toEqual(a);
  });

  it('never makes up a key for the verifier', async () => {
    const dataDir = await tempDir();
    await expect(loadAuditHmacKey({ dataDir, auditHmacKey: undefined }, { create: false })).rejects.toThrow(
      /AUDIT_HMAC_KEY/,
    );
  });

  it('take the environment first, in hex or base64, and refuse short ones', async () => {
    const key = randomBytes(32);
    expect(parseKey(key.toString('hex'))).toEqual(key);
    expect(parseKey(key.toString('base64'))).toEqual(key);
    expect(parseKey(key.toString('base64url'))).toEqual(key);
    expect(parseKey(randomBytes(16).toString('hex'))).toBeUndefined();
    expect(loadConfig({ AUDIT_HMAC_KEY: key.toString('hex') }).auditHmacKey).toEqual(key);
    expect(() => loadConfig({ PORTAL_MASTER_KEY: 'short' })).toThrow(ConfigError);
    const dataDir = await tempDir();
    const keys = await loadPortalKeys({ dataDir, auditHmacKey: key, masterKey: key }, { create: true });
    expect(keys.auditHmacKey).toEqual(key);
    await expect(stat(path.join(dataDir, AUDIT_KEY_FILE))).rejects.toThrow();
  });

  it('refuse a key file that holds no key, and narrow a readable one to 0600', async () => {
    const dataDir = await tempDir();
    await loadPortalKeys({ dataDir, auditHmacKey: undefined, masterKey: undefined }, { create: true });
    const file = path.join(dataDir, AUDIT_KEY_FILE);
    await chmod(file, 0o644);
    await loadAuditHmacKey({ dataDir, auditHmacKey: undefined }, { create: false });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    await writeFile(file, 'not a key\n');
    await expect(loadAuditHmacKey({ dataDir, auditHmacKey: undefined }, { create: false })).rejects.toThrow(
      /does not hold a key/,
    );
  });
});
