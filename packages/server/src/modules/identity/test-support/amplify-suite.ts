import { fetchAuthSession, signOut } from 'aws-amplify/auth';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { randomPrivateValue } from '../srp.ts';
import { configureAmplify, storedRefreshToken } from './amplify-client.ts';
import { startPool, type PoolHarness } from './harness.ts';

/** Every secret that passed by during a suite, so the last test can check none of it leaked. */
export interface SeenSecrets {
  passwords: Set<string>;
  totpSecrets: Set<string>;
  refreshTokens: Set<string>;
}

export interface AmplifySuite {
  /** The running pool; set before the first test. */
  readonly h: PoolHarness;
  readonly seen: SeenSecrets;
  /** Makes the pool use `b` as its SRP private value in the next sign-in (then random again). */
  forceServerPrivate(b: bigint): void;
  /** A user with a permanent password, made through the directory; the password is remembered. */
  confirmedUser(password?: string): Promise<{ email: string; password: string; username: string }>;
  /** The signed-in user's access token; the stored refresh token is remembered. */
  accessToken(): Promise<string>;
  /** The refresh token Amplify keeps for the signed-in user. */
  refreshToken(): string;
}

/**
 * Starts a local pool for the suite and points the real Amplify v6 client at it, as the browser
 * uses it; signs out after each test and closes the pool after the last.
 */
export function useAmplifyPool(): AmplifySuite {
  let h: PoolHarness | undefined;
  let store = new Map<string, string>();
  let forcedB: bigint | null = null;
  let counter = 0;
  const seen: SeenSecrets = { passwords: new Set(), totpSecrets: new Set(), refreshTokens: new Set() };

  beforeAll(async () => {
    h = await startPool({
      options: {
        throttle: { ipPerMinute: 100_000 },
        pickServerPrivate: () => {
          const b = forcedB ?? randomPrivateValue();
          forcedB = null;
          return b;
        },
      },
    });
    store = configureAmplify(h.identity);
  });
  afterAll(async () => h?.close());
  afterEach(async () => {
    await signOut().catch(() => {});
  });

  const suite: AmplifySuite = {
    get h() {
      if (!h) throw new Error('the pool is not started yet');
      return h;
    },
    seen,
    forceServerPrivate(b) {
      forcedB = b;
    },
    async confirmedUser(password = 'Str0ng-Passw0rd!') {
      const email = `user${++counter}@example.com`;
      seen.passwords.add(password);
      const { user } = await suite.h.identity.directory.createUser({
        email,
        temporaryPassword: 'Tmp-Pass-0rd!',
        suppressMessage: true,
      });
      await suite.h.identity.directory.setPassword(user.username, password, true);
      return { email, password, username: user.username };
    },
    async accessToken() {
      const session = await fetchAuthSession();
      const token = session.tokens?.accessToken.toString();
      if (!token) throw new Error('no access token');
      seen.refreshTokens.add(suite.refreshToken());
      return token;
    },
    refreshToken: () => storedRefreshToken(store),
  };
  return suite;
}

/** The name and message a call failed with; fails the test if it did not fail. */
export async function errorOf(promise: Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    return { name: (err as Error).name, message: (err as Error).message };
  }
  throw new Error('expected a failure');
}

/**
 * No password, SRP verifier, admin key or signing key in any log line or HTTP answer; salts,
 * TOTP secrets and refresh tokens only in the answers whose job it is to carry them.
 */
export async function expectNoSecretsLeaked(h: PoolHarness, seen: SeenSecrets): Promise<void> {
  const { rows } = await h.db.pool.query<{ srp_salt: string; srp_verifier: string }>(
    'SELECT srp_salt, srp_verifier FROM identity.users',
  );
  const { rows: settings } = await h.db.pool.query<{ admin_secret_access_key: string; d: string }>(
    `SELECT admin_secret_access_key, signing_private_jwk->>'d' AS d FROM identity.settings`,
  );
  const never = [
    ...seen.passwords,
    ...rows.map((r) => r.srp_verifier),
    settings[0]!.admin_secret_access_key,
    settings[0]!.d,
  ];
  for (const secret of never) {
    for (const line of h.logs) expect(line.includes(secret), `log line leaks a secret: ${line}`).toBe(false);
    for (const answer of h.answers) expect(answer.includes(secret), 'HTTP answer leaks a secret').toBe(false);
  }
  const onlyIn: Array<[string[], string]> = [
    [rows.map((r) => r.srp_salt), 'PASSWORD_VERIFIER'],
    [[...seen.totpSecrets], 'SecretCode'],
    [[...seen.refreshTokens], 'RefreshToken'],
  ];
  for (const [secrets, marker] of onlyIn) {
    for (const secret of secrets) {
      for (const line of h.logs) expect(line.includes(secret)).toBe(false);
      for (const answer of h.answers) if (answer.includes(secret)) expect(answer).toContain(marker);
    }
  }
}
