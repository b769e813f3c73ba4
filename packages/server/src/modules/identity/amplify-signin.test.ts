import { confirmSignIn, signIn, signOut } from 'aws-amplify/auth';
import { describe, expect, it } from 'vitest';
import { readOutbox } from './index.ts';
import { padHex, randomPrivateValue, serverPublicValue } from './srp.ts';
import { errorOf, expectNoSecretsLeaked, useAmplifyPool } from './test-support/amplify-suite.ts';
import { callPool } from './test-support/harness.ts';

/**
 * The pool driven by the real Amplify v6 client, as the browser does it. Everything secret that
 * passes by is remembered, and the last test checks that none of it leaked into a log line or an
 * HTTP answer where it does not belong.
 */

const suite = useAmplifyPool();
const { seen, confirmedUser, accessToken } = suite;

describe('SRP sign-in with Amplify', () => {
  it('signs in 20 times in a row (random B, u and S of every length)', async () => {
    const u = await confirmedUser();
    for (let i = 0; i < 20; i++) {
      const result = await signIn({ username: u.email, password: u.password });
      expect(result.isSignedIn).toBe(true);
      expect((await suite.h.identity.verifyAccessToken(await accessToken())).sub).toBe(u.username);
      await signOut();
    }
  }, 120_000); // Amplify's client-side SRP arithmetic is slow JavaScript: ~0.5 s a sign-in.

  it('signs in when the server value B starts with a zero byte', async () => {
    const u = await confirmedUser();
    const { rows } = await suite.h.db.pool.query<{ v: string }>(
      'SELECT srp_verifier AS v FROM identity.users WHERE username = $1',
      [u.username],
    );
    let b: bigint;
    for (;;) {
      b = randomPrivateValue();
      if (padHex(serverPublicValue(rows[0]!.v, b)).length < 768) break;
    }
    suite.forceServerPrivate(b);
    const answersBefore = suite.h.answers.length;
    const result = await signIn({ username: u.email, password: u.password });
    expect(result.isSignedIn).toBe(true);
    const challenge = suite.h.answers.slice(answersBefore).find((a) => a.includes('PASSWORD_VERIFIER'));
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
    const before = suite.h.answers.length;
    await signIn({ username: u.email, password: u.password });
    await signOut();
    // The same secret block a second time: the challenge was single use.
    const challenge = JSON.parse(suite.h.answers.slice(before).find((a) => a.includes('PASSWORD_VERIFIER'))!) as {
      ChallengeParameters: Record<string, string>;
    };
    const replay = await callPool(suite.h.endpoint, 'RespondToAuthChallenge', {
      ClientId: suite.h.identity.appConfig.clientId,
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
    const { user, temporaryPassword } = await suite.h.identity.directory.createUser({ email });
    const invitation = await readOutbox(suite.h.db.pool, email);
    expect(invitation?.text).toContain(temporaryPassword);

    const first = await signIn({ username: email, password: temporaryPassword });
    expect(first.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED');
    const weak = await errorOf(confirmSignIn({ challengeResponse: 'weakpass' }));
    expect(weak.name).toBe('InvalidPasswordException');
    seen.passwords.add('N3w-Passw0rd!');
    const done = await confirmSignIn({ challengeResponse: 'N3w-Passw0rd!' });
    expect(done.isSignedIn).toBe(true);
    expect((await suite.h.identity.verifyAccessToken(await accessToken())).username).toBe(user.username);

    const after = await suite.h.identity.directory.getUser(user.username);
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
    await suite.h.identity.directory.disableUser(u.username);
    await expect(suite.h.identity.verifyAccessToken(token)).rejects.toThrow();
    await signOut();
    expect(await errorOf(signIn({ username: u.email, password: u.password }))).toEqual({
      name: 'NotAuthorizedException',
      message: 'User is disabled.',
    });
    await suite.h.identity.directory.enableUser(u.username);
    expect((await signIn({ username: u.email, password: u.password })).isSignedIn).toBe(true);
  });
});

describe('secrets', () => {
  it('never shows a password, verifier, salt, TOTP secret or refresh token where it should not', async () => {
    expect(suite.h.logs.length).toBeGreaterThan(10);
    expect(suite.h.answers.length).toBeGreaterThan(50);
    expect(seen.refreshTokens.size).toBeGreaterThan(5);

    await expectNoSecretsLeaked(suite.h, seen);
  });
});
