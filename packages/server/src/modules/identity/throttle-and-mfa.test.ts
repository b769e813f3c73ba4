import { confirmSignIn, fetchAuthSession, signIn, signOut } from 'aws-amplify/auth';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configureAmplify } from './test-support/amplify-client.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { readOutbox } from './index.ts';
import { callPool, startPool, type PoolHarness } from './test-support/harness.ts';
import { formatTimestamp } from './srp.ts';
import { totpCode } from './totp.ts';

/** A pool that requires MFA (first sign-in sets up TOTP), and the throttles. */

let h: PoolHarness;
beforeAll(async () => {
  h = await startPool({ mfa: 'required', options: { throttle: { ipPerMinute: 100_000 } } });
  configureAmplify(h.identity);
});
afterAll(async () => h?.close());
afterEach(async () => {
  await signOut().catch(() => {});
});

async function errorOf(promise: Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    return { name: (err as Error).name, message: (err as Error).message };
  }
  throw new Error('expected a failure');
}

async function confirmedUser(email: string, password = 'Str0ng-Passw0rd!') {
  const { user } = await h.identity.directory.createUser({ email, suppressMessage: true });
  await h.identity.directory.setPassword(user.username, password, true);
  return { email, password, username: user.username };
}

describe('pool that requires MFA', () => {
  it('sets up TOTP during the first sign-in, then asks for a code', async () => {
    const u = await confirmedUser('mfa@example.com');
    const first = await signIn({ username: u.email, password: u.password });
    expect(first.nextStep.signInStep).toBe('CONTINUE_SIGN_IN_WITH_TOTP_SETUP');
    if (first.nextStep.signInStep !== 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP') return;
    const secret = first.nextStep.totpSetupDetails.sharedSecret;
    expect((await errorOf(confirmSignIn({ challengeResponse: '000000' === (await totpCode(secret)) ? '111111' : '000000' }))).name).toBe(
      'EnableSoftwareTokenMFAException',
    );
    const done = await confirmSignIn({ challengeResponse: await totpCode(secret) });
    expect(done.isSignedIn).toBe(true);
    expect((await fetchAuthSession()).tokens?.accessToken).toBeTruthy();
    expect((await h.identity.directory.getUser(u.username))?.mfaEnabled).toBe(true);
    await signOut();

    const again = await signIn({ username: u.email, password: u.password });
    expect(again.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
    const ok = await confirmSignIn({ challengeResponse: await totpCode(secret, new Date(Date.now() + 30_000)) });
    expect(ok.isSignedIn).toBe(true);
  });
});

describe('throttling', () => {
  /** The first step of a sign-in, raw: fast enough to look at a delay of a second or two. */
  const startSignIn = (p: PoolHarness, login: string) =>
    callPool(p.endpoint, 'InitiateAuth', {
      ClientId: p.identity.appConfig.clientId,
      AuthFlow: 'USER_SRP_AUTH',
      AuthParameters: { USERNAME: login, SRP_A: 'abcdef0123' },
    });
  const waiting = { __type: 'TooManyRequestsException', message: 'Too many requests. Try again later.' };

  it('delays an account after 5 failed passwords instead of locking it, the delay doubling, known or unknown alike', async () => {
    const p = await startPool({ options: { throttle: { ipPerMinute: 100_000, baseDelayMs: 2000, accountMaxDelayMs: 4000, addressMaxDelayMs: 0 } } });
    try {
      configureAmplify(p.identity);
      const { user } = await p.identity.directory.createUser({ email: 'target@example.com', suppressMessage: true });
      await p.identity.directory.setPassword(user.username, 'Str0ng-Passw0rd!', true);
      const wrong = (i: number) => errorOf(signIn({ username: 'target@example.com', password: `Wrong-Passw0rd${i}!` }));
      for (let i = 0; i < 5; i++) expect((await wrong(i)).message).toBe('Incorrect username or password.');
      // Even the right password must wait: Cognito's TooManyRequestsException, not a lock.
      expect((await startSignIn(p, 'target@example.com')).json).toEqual(waiting);
      await sleep(2100);
      expect((await wrong(5)).message).toBe('Incorrect username or password.');
      // Six failures: now 4 s.
      expect((await startSignIn(p, 'target@example.com')).json).toEqual(waiting);
      await sleep(2100);
      expect((await startSignIn(p, 'target@example.com')).json).toEqual(waiting);
      await sleep(2100);
      expect((await signIn({ username: 'target@example.com', password: 'Str0ng-Passw0rd!' })).isSignedIn).toBe(true);
      await signOut();
      // A success clears the account's counter.
      const { rows } = await p.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM identity.attempts WHERE bucket = $1', [
        `password:account:${user.username}`,
      ]);
      expect(rows[0]?.n).toBe(0);

      // An unknown address gets the same decoy challenge, the same refusal and the same delay.
      const clientId = p.identity.appConfig.clientId;
      for (let i = 0; i < 5; i++) {
        const challenge = (await startSignIn(p, 'ghost@example.com')).json as {
          ChallengeName: string;
          ChallengeParameters: Record<string, string>;
        };
        expect(challenge.ChallengeName).toBe('PASSWORD_VERIFIER');
        const answer = await callPool(p.endpoint, 'RespondToAuthChallenge', {
          ClientId: clientId,
          ChallengeName: 'PASSWORD_VERIFIER',
          ChallengeResponses: {
            USERNAME: challenge.ChallengeParameters.USER_ID_FOR_SRP,
            PASSWORD_CLAIM_SECRET_BLOCK: challenge.ChallengeParameters.SECRET_BLOCK,
            PASSWORD_CLAIM_SIGNATURE: Buffer.alloc(32, 1).toString('base64'),
            TIMESTAMP: formatTimestamp(new Date()),
          },
        });
        expect(answer.json).toEqual({ __type: 'NotAuthorizedException', message: 'Incorrect username or password.' });
      }
      const delayed = await startSignIn(p, 'ghost@example.com');
      expect(delayed.status).toBe(400);
      expect(delayed.json).toEqual(waiting);
    } finally {
      configureAmplify(h.identity);
      await p.close();
    }
  }, 90_000); // a dozen Amplify sign-ins (slow client-side SRP) and 6 s of waiting

  it('delays an address that fails on many accounts', async () => {
    const p = await startPool({ options: { throttle: { ipPerMinute: 100_000, baseDelayMs: 3000, accountMaxDelayMs: 0, addressMaxDelayMs: 3000 } } });
    try {
      configureAmplify(p.identity);
      for (let i = 0; i < 5; i++) {
        expect((await errorOf(signIn({ username: `nobody${i}@example.com`, password: 'Wrong-Passw0rd!' }))).name).toBe(
          'NotAuthorizedException',
        );
      }
      expect((await startSignIn(p, 'nobody-else@example.com')).json).toEqual(waiting);
      const { rows } = await p.db.pool.query<{ details: { scope: string; counter: string } }>(
        `SELECT details FROM audit_logs WHERE action = 'auth.throttle' ORDER BY id DESC LIMIT 1`,
      );
      expect(rows[0]?.details).toMatchObject({ scope: 'address', counter: 'password' });
    } finally {
      configureAmplify(h.identity);
      await p.close();
    }
  }, 60_000);

  it('limits calls per IP', async () => {
    const tight = await startPool({ options: { throttle: { ipPerMinute: 6 } } });
    try {
      const body = {
        ClientId: tight.identity.appConfig.clientId,
        AuthFlow: 'USER_SRP_AUTH',
        AuthParameters: { USERNAME: 'someone@example.com', SRP_A: 'abcdef' },
      };
      const statuses: Array<unknown> = [];
      for (let i = 0; i < 8; i++) statuses.push((await callPool(tight.endpoint, 'InitiateAuth', body)).json.__type ?? 'ok');
      expect(statuses.slice(0, 6)).toEqual(Array(6).fill('ok'));
      expect(statuses.slice(6)).toEqual(['TooManyRequestsException', 'TooManyRequestsException']);
    } finally {
      await tight.close();
    }
  });

  it('counts wrong reset codes apart from TOTP codes: guessing reset codes never blocks an MFA sign-in', async () => {
    const u = await confirmedUser('reset-target@example.com');
    const first = await signIn({ username: u.email, password: u.password });
    if (first.nextStep.signInStep !== 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP') throw new Error('expected MFA set-up');
    const secret = first.nextStep.totpSetupDetails.sharedSecret;
    expect((await confirmSignIn({ challengeResponse: await totpCode(secret) })).isSignedIn).toBe(true);
    await signOut();

    const clientId = h.identity.appConfig.clientId;
    await callPool(h.endpoint, 'ForgotPassword', { ClientId: clientId, Username: u.email });
    const types = new Set<unknown>();
    for (let i = 0; i < 8; i++) {
      const r = await callPool(h.endpoint, 'ConfirmForgotPassword', {
        ClientId: clientId,
        Username: u.email,
        ConfirmationCode: '00000' + String(i),
        Password: 'N3w-Passw0rd!!',
      });
      types.add(r.json.__type);
    }
    expect(types).toContain('TooManyRequestsException');
    // The password and the TOTP code still sign in at once.
    const again = await signIn({ username: u.email, password: u.password });
    expect(again.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
    expect((await confirmSignIn({ challengeResponse: await totpCode(secret, new Date(Date.now() + 30_000)) })).isSignedIn).toBe(true);
  });

  it('voids a reset code after a few wrong guesses and caps wrong guesses per account and day', async () => {
    const p = await startPool({
      options: { throttle: { ipPerMinute: 100_000, freeFailures: 100, resetCodeGuessesPerCode: 3, resetCodeGuessesPerDay: 5 } },
    });
    try {
      const { user } = await p.identity.directory.createUser({ email: 'capped@example.com', suppressMessage: true });
      await p.identity.directory.setPassword(user.username, 'Str0ng-Passw0rd!', true);
      const clientId = p.identity.appConfig.clientId;
      const codeFor = async (email: string) => {
        await callPool(p.endpoint, 'ForgotPassword', { ClientId: clientId, Username: email });
        const row = await readOutbox(p.db.pool, email);
        return row ? /code: (\d{6})/.exec(row.text)![1]! : '123456';
      };
      const confirm = async (email: string, code: string) =>
        (await callPool(p.endpoint, 'ConfirmForgotPassword', { ClientId: clientId, Username: email, ConfirmationCode: code, Password: 'N3w-Passw0rd!!' }))
          .json.__type ?? 'ok';
      // A known account and an unknown one go through the same answers, step by step.
      for (const email of ['capped@example.com', 'nobody@example.com']) {
        const first = await codeFor(email);
        const wrong = first === '000001' ? '000002' : '000001';
        const answers = [await confirm(email, wrong), await confirm(email, wrong), await confirm(email, wrong), await confirm(email, first)];
        const second = await codeFor(email);
        const wrong2 = second === '000001' ? '000002' : '000001';
        answers.push(await confirm(email, wrong2), await confirm(email, wrong2), await confirm(email, second));
        expect(answers, email).toEqual([
          'CodeMismatchException',
          'CodeMismatchException',
          'CodeMismatchException',
          // Three wrong guesses void the code, even the right one now fails.
          'ExpiredCodeException',
          'CodeMismatchException',
          'CodeMismatchException',
          // Five wrong guesses today: even a fresh right code waits for tomorrow.
          'LimitExceededException',
        ]);
      }
    } finally {
      await p.close();
    }
  });
});
