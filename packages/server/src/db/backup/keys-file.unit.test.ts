import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSecretsFile, writeSecretsFile } from './keys-file.ts';

const dir = await mkdtemp(path.join(os.tmpdir(), 'rpm-keys-file-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
const secrets = { auditHmacKey: randomBytes(32), masterKey: randomBytes(32), embeddedPassword: 'pg-secret' };

describe('the backup keys file', () => {
  it('gives the keys back with the passphrase, is private, and shows neither key', async () => {
    const file = path.join(dir, 'a.enc');
    await writeSecretsFile(file, secrets, 'a long passphrase');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, 'utf8');
    for (const k of [secrets.auditHmacKey, secrets.masterKey]) {
      expect(text).not.toContain(k.toString('base64'));
      expect(text).not.toContain(k.toString('hex'));
    }
    expect(text).not.toContain('pg-secret');
    const back = await readSecretsFile(file, 'a long passphrase');
    expect(back.auditHmacKey.equals(secrets.auditHmacKey)).toBe(true);
    expect(back.masterKey.equals(secrets.masterKey)).toBe(true);
    expect(back.embeddedPassword).toBe('pg-secret');
  });

  it('refuses a wrong passphrase, a changed byte, a short passphrase and an existing file', async () => {
    const file = path.join(dir, 'b.enc');
    await writeSecretsFile(file, secrets, 'a long passphrase');
    await expect(readSecretsFile(file, 'a long passphrasE')).rejects.toThrow(/wrong passphrase/);
    const envelope = JSON.parse(await readFile(file, 'utf8')) as { data: string };
    const data = Buffer.from(envelope.data, 'base64');
    data[0] = data[0]! ^ 1;
    const changed = path.join(dir, 'c.enc');
    await writeFile(changed, JSON.stringify({ ...envelope, data: data.toString('base64') }));
    await expect(readSecretsFile(changed, 'a long passphrase')).rejects.toThrow(
      /wrong passphrase, or the keys file was changed/,
    );
    await expect(writeSecretsFile(path.join(dir, 'd.enc'), secrets, 'short')).rejects.toThrow(/at least 12/);
    await expect(writeSecretsFile(file, secrets, 'a long passphrase')).rejects.toThrow(/EEXIST/);
  });

  it('refuses key derivation settings that would exhaust the machine', async () => {
    const file = path.join(dir, 'e.enc');
    await writeSecretsFile(file, secrets, 'a long passphrase');
    const envelope = JSON.parse(await readFile(file, 'utf8')) as { kdf: { N: number } };
    const doctored = path.join(dir, 'f.enc');
    await writeFile(doctored, JSON.stringify({ ...envelope, kdf: { ...envelope.kdf, N: 2 ** 30 } }));
    await expect(readSecretsFile(doctored, 'a long passphrase')).rejects.toThrow(/out of bounds/);
  });
});
