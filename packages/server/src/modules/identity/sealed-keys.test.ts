import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createTestDatabase, testKeys, type TestDatabase } from '../../../test/db.ts';
import { newPassword } from '../../../test/support/http.ts';
import { srpAccessToken } from '../../../test/srp-client.ts';
import { createIdentity, loadOrCreateSettings } from './index.ts';
import { startPool } from './test-support/harness.ts';
import { unsealPoolSettings } from '../../../test/support/factories.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

/** The settings table as a dump would hold it: every column, as text. */
async function dump(): Promise<string> {
  const { rows } = await db.ownerPool.query<{ row: string }>(
    `SELECT row_to_json(s)::text AS row FROM identity.settings s`,
  );
  return rows.map((r) => r.row).join('\n');
}

function expectNoSecretIn(text: string, secrets: Awaited<ReturnType<typeof loadOrCreateSettings>>) {
  expect(text).not.toContain(secrets.admin_secret_access_key);
  expect(text).not.toContain(String(secrets.signing_private_jwk.d));
  expect(text).not.toContain(String(secrets.signing_private_jwk.p));
  expect(text).not.toContain(secrets.data_key.toString('hex'));
  expect(text).not.toContain(secrets.data_key.toString('base64'));
}

async function signInOnce(h: Awaited<ReturnType<typeof startPool>>, email: string, password: string) {
  const token = await srpAccessToken(h.identity.appConfig, email, password);
  return h.identity.verifyAccessToken(token);
}

describe('the user pool keys in the database', () => {
  const email = `sealed-${randomBytes(3).toString('hex')}@example.com`;
  const password = newPassword();

  it('are stored sealed with the master key: a dump of the settings holds none of them in clear', async () => {
    const h = await startPool({ db });
    try {
      const { user } = await h.identity.directory.createUser({ email, suppressMessage: true });
      await h.identity.directory.setPassword(user.username, password, true);
      expect((await signInOnce(h, email, password)).username).toBe(user.username);
    } finally {
      await h.close();
    }
    const secrets = await loadOrCreateSettings(db.pool, testKeys.masterKey);
    const text = await dump();
    expect(text).toContain('"admin_secret_access_key":null');
    expect(text).toContain('"signing_private_jwk":null');
    expect(text).toContain('"data_key":null');
    expectNoSecretIn(text, secrets);
  });

  it('still sign in after a restart with the same master key', async () => {
    const h = await startPool({ db, masterKey: testKeys.masterKey });
    try {
      expect((await signInOnce(h, email, password)).username).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await h.close();
    }
  });

  it('do not open with another master key: the start stops with a clear reason', async () => {
    await expect(
      createIdentity({
        settings: { mode: 'local', publicUrl: 'http://127.0.0.1:1' },
        db: db.pool,
        log: pino({ level: 'silent' }),
        masterKey: randomBytes(32),
      }),
    ).rejects.toThrow(/master key .* does not open the user pool keys/);
  });

  it('are encrypted in place when a database from before keeps them in clear', async () => {
    const secrets = await loadOrCreateSettings(db.pool, testKeys.masterKey);
    // The row as an earlier version left it.
    await unsealPoolSettings(db.ownerPool, secrets);
    expect(await dump()).toContain(secrets.admin_secret_access_key);
    const h = await startPool({ db, masterKey: testKeys.masterKey });
    try {
      expect((await signInOnce(h, email, password)).username).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await h.close();
    }
    expectNoSecretIn(await dump(), secrets);
    expect(await loadOrCreateSettings(db.pool, testKeys.masterKey)).toEqual(secrets);
  });
});
