import { confirmSignIn, fetchAuthSession, signIn, signOut } from 'aws-amplify/auth';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configureAmplify } from './test-support/amplify-client.ts';
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
  it('locks an account after 5 failed passwords, known or unknown alike', async () => {
    const u = await confirmedUser('target@example.com');
    for (let i = 0; i < 5; i++) {
      expect((await errorOf(signIn({ username: u.email, password: `Wrong-Passw0rd${i}!` }))).message).toBe(
        'Incorrect username or password.',
      );
    }
    // Even the right password is refused now.
    expect(await errorOf(signIn({ username: u.email, password: u.password }))).toEqual({
      name: 'NotAuthorizedException',
      message: 'Password attempts exceeded',
    });
    // An unknown address gets the same decoy challenge, the same refusal and the same lock.
    const clientId = h.identity.appConfig.clientId;
    const start = () =>
      callPool(h.endpoint, 'InitiateAuth', {
        ClientId: clientId,
        AuthFlow: 'USER_SRP_AUTH',
        AuthParameters: { USERNAME: 'ghost@example.com', SRP_A: 'abcdef0123' },
      });
    for (let i = 0; i < 5; i++) {
      const challenge = (await start()).json as { ChallengeName: string; ChallengeParameters: Record<string, string> };
      expect(challenge.ChallengeName).toBe('PASSWORD_VERIFIER');
      const answer = await callPool(h.endpoint, 'RespondToAuthChallenge', {
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
    expect((await start()).json).toEqual({ __type: 'NotAuthorizedException', message: 'Password attempts exceeded' });
    // The counts live in the database, shared by every instance.
    const { rows } = await h.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM identity.attempts WHERE bucket = $1`,
      [`pwfail:${u.username}`],
    );
    expect(rows[0]?.n).toBe(5);
  });

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

  it('limits wrong reset codes', async () => {
    const u = await confirmedUser('reset-target@example.com');
    const clientId = h.identity.appConfig.clientId;
    await callPool(h.endpoint, 'ForgotPassword', { ClientId: clientId, Username: u.email });
    const { rows } = await h.db.pool.query<{ body: string }>(
      `SELECT body FROM identity.outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1`,
      [u.email],
    );
    const code = /code: (\d{6})/.exec(rows[0]!.body)![1]!;
    const wrong = code === '000001' ? '000002' : '000001';
    const types: unknown[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await callPool(h.endpoint, 'ConfirmForgotPassword', {
        ClientId: clientId,
        Username: u.email,
        ConfirmationCode: wrong,
        Password: 'N3w-Passw0rd!!',
      });
      types.push(r.json.__type);
    }
    expect(types.slice(0, 5)).toEqual(Array(5).fill('CodeMismatchException'));
    expect(types[5]).toBe('LimitExceededException');
    // The right code no longer helps within the window.
    const right = await callPool(h.endpoint, 'ConfirmForgotPassword', {
      ClientId: clientId,
      Username: u.email,
      ConfirmationCode: code,
      Password: 'N3w-Passw0rd!!',
    });
    expect(right.json.__type).toBe('LimitExceededException');
  });
});
