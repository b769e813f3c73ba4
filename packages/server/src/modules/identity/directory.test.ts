import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testKeys } from '../../../test/db.ts';
import { provisionFirstAdmin } from './bootstrap-admin.ts';
import { createCognitoDirectory } from './cognito-directory.ts';
import type { UserDirectory } from './directory.ts';
import { createIdentity, loadOrCreateSettings, readOutbox } from './index.ts';
import { SIGNING_REGION } from './sigv4.ts';
import { startPool, type PoolHarness } from './test-support/harness.ts';
import { buildStaff } from '../../../test/support/factories.ts';

/**
 * The directory's behaviour, once, for both adapters: the local pool called in process, and the
 * Cognito adapter driving the local pool's HTTP endpoint through the AWS SDK (SigV4-signed, as
 * against a real Cognito pool). Each adapter gets a pool of its own.
 */

interface Adapter {
  name: string;
  open(h: PoolHarness): Promise<{ directory: UserDirectory; close(): void }>;
}

const adapters: Adapter[] = [
  { name: 'in process', open: async (h) => ({ directory: h.identity.directory, close: () => {} }) },
  {
    name: 'Cognito adapter through the AWS SDK',
    async open(h) {
      const s = await loadOrCreateSettings(h.db.pool, testKeys.masterKey);
      const client = new CognitoIdentityProviderClient({
        endpoint: h.endpoint,
        region: SIGNING_REGION,
        credentials: { accessKeyId: s.admin_access_key_id, secretAccessKey: s.admin_secret_access_key },
        maxAttempts: 1,
      });
      return { directory: createCognitoDirectory(client, s.pool_id), close: () => client.destroy() };
    },
  },
];

/** The Cognito-style name and message of a refusal, as the portal reads them. */
async function refusal(promise: Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    return { name: (err as Error).name, message: (err as Error).message };
  }
  throw new Error('expected a failure');
}

describe.each(adapters)('user directory: $name', (adapter) => {
  let h: PoolHarness;
  let d: UserDirectory;
  let close: () => void;
  beforeAll(async () => {
    h = await startPool();
    ({ directory: d, close } = await adapter.open(h));
  });
  afterAll(async () => {
    close?.();
    await h?.close();
  });

  it('creates, reads, lists, resends, sets passwords, disables and enables users', async () => {
    const { user, temporaryPassword } = await d.createUser({ email: 'Admin.Made@Example.com' });
    expect(user).toMatchObject({
      email: 'admin.made@example.com',
      status: 'FORCE_CHANGE_PASSWORD',
      enabled: true,
      mfaEnabled: false,
    });
    expect(user.sub).toBe(user.username);
    expect(user.username).toMatch(/^[0-9a-f-]{36}$/);
    expect((await readOutbox(h.db.pool, 'admin.made@example.com'))?.text).toContain(temporaryPassword);
    expect((await refusal(d.createUser({ email: 'admin.made@example.com' }))).name).toBe('UsernameExistsException');
    expect((await refusal(d.createUser({ email: 'weak@example.com', temporaryPassword: 'short' }))).name).toBe(
      'InvalidPasswordException',
    );

    const resent = await d.resendInvite(user.username);
    expect(resent.temporaryPassword).not.toBe(temporaryPassword);
    const latest = await readOutbox(h.db.pool, 'admin.made@example.com');
    expect(latest?.kind).toBe('invitation');
    expect(latest?.text).toContain(resent.temporaryPassword);

    const byEmail = await d.getUser('admin.made@example.com');
    expect(byEmail?.username).toBe(user.username);
    expect(await d.getUser('00000000-0000-4000-8000-000000000000')).toBeNull();

    await d.setPassword(user.username, 'Perman3nt-Pass!', true);
    const confirmed = await d.getUser(user.username);
    expect(confirmed?.status).toBe('CONFIRMED');
    expect(confirmed?.passwordChangedAt).toBeInstanceOf(Date);
    await d.setPassword(user.username, 'Temp0rary-Pass!', false);
    expect((await d.getUser(user.username))?.status).toBe('FORCE_CHANGE_PASSWORD');

    await d.disableUser(user.username);
    expect((await d.getUser(user.username))?.enabled).toBe(false);
    await d.enableUser(user.username);
    expect((await d.getUser(user.username))?.enabled).toBe(true);
    await d.signOutEverywhere(user.username);
    expect(await h.identity.tokensValidAfter!(user.username)).toBeInstanceOf(Date);

    const suppressed = await d.createUser({ email: 'quiet@example.com', suppressMessage: true });
    expect(await readOutbox(h.db.pool, 'quiet@example.com')).toBeNull();
    expect(suppressed.temporaryPassword.length).toBeGreaterThanOrEqual(8);
  });

  it('lists every user across pages', async () => {
    const before = (await d.listUsers()).length;
    await Promise.all(
      Array.from({ length: 62 }, (_, i) => d.createUser({ email: `many${i}@example.com`, suppressMessage: true })),
    );
    const all = await d.listUsers();
    expect(all.length).toBe(before + 62);
    expect(new Set(all.map((u) => u.username)).size).toBe(all.length);
  });

  it('reads a user the same way by name, by address and in the list', async () => {
    const { user } = await d.createUser({
      email: 'same@example.com',
      temporaryPassword: 'Temp0rary-Pass!',
      suppressMessage: true,
    });
    // A new user has only a temporary password: no date of a password change yet.
    expect(user).toEqual({
      username: user.username,
      sub: user.username,
      email: 'same@example.com',
      status: 'FORCE_CHANGE_PASSWORD',
      enabled: true,
      mfaEnabled: false,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
      passwordChangedAt: null,
    });
    await d.setPassword(user.username, 'Perman3nt-Pass!', true);
    const byName = await d.getUser(user.username);
    expect(byName).toMatchObject({ username: user.username, status: 'CONFIRMED', createdAt: user.createdAt });
    expect(byName?.passwordChangedAt).toBeInstanceOf(Date);
    expect(await d.getUser('SAME@example.com')).toEqual(byName);
    expect((await d.listUsers()).find((u) => u.username === user.username)).toEqual(byName);
  });

  it('disabling signs the user out everywhere; enabling does not sign them back in', async () => {
    const { user } = await d.createUser({ email: 'off@example.com', suppressMessage: true });
    expect(await h.identity.tokensValidAfter!(user.username)).toBeNull();
    await d.disableUser(user.username);
    const signedOutAt = await h.identity.tokensValidAfter!(user.username);
    expect(signedOutAt).toBeInstanceOf(Date);
    expect((await d.getUser(user.username))?.enabled).toBe(false);
    await d.enableUser(user.username);
    expect((await d.getUser(user.username))?.enabled).toBe(true);
    expect(await h.identity.tokensValidAfter!(user.username)).toEqual(signedOutAt);
  });

  it('resets MFA of a user without it as a no-op', async () => {
    const { user } = await d.createUser({ email: 'no-mfa@example.com', suppressMessage: true });
    await d.resetMfa(user.username);
    expect((await d.getUser(user.username))?.mfaEnabled).toBe(false);
  });

  it('refuses, with Cognito’s names and messages, what the pool refuses', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const notFound = { name: 'UserNotFoundException', message: 'User does not exist.' };
    expect(await refusal(d.enableUser(unknown))).toEqual(notFound);
    expect(await refusal(d.disableUser('nobody@example.com'))).toEqual(notFound);
    expect(await refusal(d.signOutEverywhere(unknown))).toEqual(notFound);
    expect(await refusal(d.setPassword(unknown, 'Perman3nt-Pass!', true))).toEqual(notFound);
    expect(await refusal(d.resetMfa(unknown))).toEqual(notFound);
    expect(await refusal(d.resendInvite(unknown))).toEqual(notFound);

    const { user } = await d.createUser({ email: 'taken@example.com', suppressMessage: true });
    expect(await refusal(d.createUser({ email: 'TAKEN@example.com', suppressMessage: true }))).toEqual({
      name: 'UsernameExistsException',
      message: 'An account with the given email already exists.',
    });
    expect(await refusal(d.createUser({ email: 'not an address', suppressMessage: true }))).toEqual({
      name: 'InvalidParameterException',
      message: 'Invalid email address format.',
    });
    expect((await refusal(d.setPassword(user.username, 'weak', true))).name).toBe('InvalidPasswordException');

    // Once the invitation is accepted, a resend would replace a password the user chose.
    await d.setPassword(user.username, 'Perman3nt-Pass!', true);
    expect(await refusal(d.resendInvite(user.username))).toEqual({
      name: 'UnsupportedUserStateException',
      message: 'Resend not possible. User is not in FORCE_CHANGE_PASSWORD state.',
    });
  });
});

describe('in-process directory', () => {
  it('provisions the first admin with no server listening', async () => {
    const db = await createTestDatabase();
    const log = pino({ level: 'silent' });
    const identity = await createIdentity({
      settings: { mode: 'local', publicUrl: 'http://127.0.0.1:9' },
      db: db.pool,
      log,
      masterKey: testKeys.masterKey,
    });
    try {
      await buildStaff(db.pool, 'admin', { email: 'first@example.com', firstName: null, lastName: null });
      await provisionFirstAdmin({
        identity,
        db: db.pool,
        log,
        email: 'first@example.com',
        password: 'F1rst-Passw0rd!',
      });
      const { rows } = await db.pool.query<{ cognito_username: string }>(
        `SELECT cognito_username FROM users WHERE email = 'first@example.com'`,
      );
      expect((await identity.directory.getUser(rows[0]!.cognito_username))?.status).toBe('CONFIRMED');
    } finally {
      await identity.close();
      await db.drop();
    }
  });
});
