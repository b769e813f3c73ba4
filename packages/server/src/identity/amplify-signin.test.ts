import {
  confirmSignIn,
  fetchAuthSession,
  signIn,
  signOut,
} from 'aws-amplify/auth';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from './index.ts';
import { padHex, randomPrivateValue, serverPublicValue } from './srp.ts';
import { configureAmplify, storedRefreshToken } from './test-support/amplify-client.ts';
import { callPool, startPool, type PoolHarness } from './test-support/harness.ts';

/**
 * The pool driven by the real Amplify v6 client, as the browser does it. Everything secret that
 * passes by is remembered, and the last test checks that none of it leaked into a log line or an
 * HTTP answer where it does not belong.
 */

let h: PoolHarness;
let store: Map<string, string>;
let forcedB: bigint | null = null;
const seen = { passwords: new Set<string>(), totpSecrets: new Set<string>(), refreshTokens: new Set<string>() };

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

let counter = 0;
async function confirmedUser(password = 'Str0ng-Passw0rd!') {
  const email = `user${++counter}@example.com`;
  seen.passwords.add(password);
  const { user } = await h.identity.directory.createUser({ email, temporaryPassword: 'Tmp-Pass-0rd!', suppressMessage: true });
  await h.identity.directory.setPassword(user.username, password, true);
  return { email, password, username: user.username };
}

async function accessToken(): Promise<string> {
  const session = await fetchAuthSession();
  const token = session.tokens?.accessToken.toString();
  if (!token) throw new Error('no access token');
  seen.refreshTokens.add(storedRefreshToken(store));
  return token;
}

async function errorOf(promise: Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    return { name: (err as Error).name, message: (err as Error).message };
  }
  throw new Error('expected a failure');
}

describe('SRP sign-in with Amplify', () => {
  it('signs in 20 times in a row (random B, u and S of every length)', async () => {
    const u = await confirmedUser();
    for (let i = 0; i < 20; i++) {
      const result = await signIn({ username: u.email, password: u.password });
      expect(result.isSignedIn).toBe(true);
      expect((await h.identity.verifyAccessToken(await accessToken())).sub).toBe(u.username);
      await signOut();
    }
  }, 120_000); // Amplify's client-side SRP arithmetic is slow JavaScript: ~0.5 s a sign-in.

  it('signs in when the server value B starts with a zero byte', async () => {
    const u = await confirmedUser();
    const { rows } = await h.db.pool.query<{ v: string }>('SELECT srp_verifier AS v FROM identity.users WHERE username = $1', [
      u.username,
    ]);
    let b: bigint;
    for (;;) {
      b = randomPrivateValue();
      if (padHex(serverPublicValue(rows[0]!.v, b)).length < 768) break;
    }
    forcedB = b;
    const answersBefore = h.answers.length;
    const result = await signIn({ username: u.email, password: u.password });
    expect(result.isSignedIn).toBe(true);
    const challenge = h.answers.slice(answersBefore).find((a) => a.includes('PASSWORD_VERIFIER'));
    const srpB = (JSON.parse(challenge!) as { ChallengeParameters: { SRP_B: string } }).ChallengeParameters.SRP_B;
    expect(BigInt(`0x${srpB}`)).toBe(serverPublicValue(rows[0]!.v, b));
    expect(srpB.length).toBeLessThan(767);
  });

  it('answers a wrong password and an unknown user alike', async () => {
    const u = await confirmedUser();
    const wrong = await errorOf(signIn({ username: u.email, password: 'Wrong-Passw0rd!' }));
    const unknown = await errorOf(signIn({ username: 'nobody@example.com', password: 'Wrong-Passw0rd!' }));
    expect(wrong).toEqual({ name: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    expect(unknown).toEqual(wrong);
  });

  it('refuses a replayed password claim', async () => {
    const u = await confirmedUser();
    const before = h.answers.length;
    await signIn({ username: u.email, password: u.password });
    await signOut();
    // The same secret block a second time: the challenge was single use.
    const challenge = JSON.parse(h.answers.slice(before).find((a) => a.includes('PASSWORD_VERIFIER'))!) as {
      ChallengeParameters: Record<string, string>;
    };
    const replay = await callPool(h.endpoint, 'RespondToAuthChallenge', {
      ClientId: h.identity.appConfig.clientId,
      ChallengeName: 'PASSWORD_VERIFIER',
      ChallengeResponses: {
        USERNAME: u.username,
        PASSWORD_CLAIM_SECRET_BLOCK: challenge.ChallengeParameters.SECRET_BLOCK,
        PASSWORD_CLAIM_SIGNATURE: 'AAAA',
        TIMESTAMP: 'Mon Jan 6 00:00:00 UTC 2025',
      },
    });
    expect(replay.status).toBe(400);
    expect(replay.json.__type).toBe('NotAuthorizedException');
  });
});

describe('first sign-in with a temporary password', () => {
  it('asks for a new password, enforces the policy, then signs in', async () => {
    const email = 'invited@example.com';
    const { user, temporaryPassword } = await h.identity.directory.createUser({ email });
    const invitation = await readOutbox(h.db.pool, email);
    expect(invitation?.text).toContain(temporaryPassword);

    const first = await signIn({ username: email, password: temporaryPassword });
    expect(first.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED');
    const weak = await errorOf(confirmSignIn({ challengeResponse: 'weakpass' }));
    expect(weak.name).toBe('InvalidPasswordException');
    seen.passwords.add('N3w-Passw0rd!');
    const done = await confirmSignIn({ challengeResponse: 'N3w-Passw0rd!' });
    expect(done.isSignedIn).toBe(true);
    expect((await h.identity.verifyAccessToken(await accessToken())).username).toBe(user.username);

    const after = await h.identity.directory.getUser(user.username);
    expect(after?.status).toBe('CONFIRMED');
    expect(after?.passwordChangedAt).toBeInstanceOf(Date);
    await signOut();
    expect((await signIn({ username: email, password: 'N3w-Passw0rd!' })).isSignedIn).toBe(true);
  });
});

describe('disabled users', () => {
  it('a disabled user cannot sign in, and loses live tokens', async () => {
    const u = await confirmedUser();
    await signIn({ username: u.email, password: u.password });
    const token = await accessToken();
    await h.identity.directory.disableUser(u.username);
    await expect(h.identity.verifyAccessToken(token)).rejects.toThrow();
    await signOut();
    expect(await errorOf(signIn({ username: u.email, password: u.password }))).toEqual({
      name: 'NotAuthorizedException',
      message: 'User is disabled.',
    });
    await h.identity.directory.enableUser(u.username);
    expect((await signIn({ username: u.email, password: u.password })).isSignedIn).toBe(true);
  });
});

describe('secrets', () => {
  it('never shows a password, verifier, salt, TOTP secret or refresh token where it should not', async () => {
    const { rows } = await h.db.pool.query<{ srp_salt: string; srp_verifier: string }>(
      'SELECT srp_salt, srp_verifier FROM identity.users',
    );
    const { rows: settings } = await h.db.pool.query<{ admin_secret_access_key: string; d: string }>(
      `SELECT admin_secret_access_key, signing_private_jwk->>'d' AS d FROM identity.settings`,
    );
    expect(h.logs.length).toBeGreaterThan(10);
    expect(h.answers.length).toBeGreaterThan(50);
    expect(seen.refreshTokens.size).toBeGreaterThan(5);

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
  });
});
