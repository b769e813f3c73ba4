import {
  confirmResetPassword,
  confirmSignIn,
  fetchAuthSession,
  fetchMFAPreference,
  resetPassword,
  setUpTOTP,
  signIn,
  signOut,
  updateMFAPreference,
  updatePassword,
  verifyTOTPSetup,
} from 'aws-amplify/auth';
import { describe, expect, it } from 'vitest';
import { readOutbox } from './index.ts';
import { errorOf, expectNoSecretsLeaked, useAmplifyPool } from './test-support/amplify-suite.ts';
import { callPool } from './test-support/harness.ts';
import { totpCode } from './totp.ts';

/**
 * The pool driven by the real Amplify v6 client, as the browser does it. Everything secret that
 * passes by is remembered, and the last test checks that none of it leaked into a log line or an
 * HTTP answer where it does not belong.
 */

const suite = useAmplifyPool();
const { seen, confirmedUser, accessToken } = suite;

/** A code for the next time step: the one the set-up used cannot be used twice. */
function nextCode(secret: string) {
  return totpCode(secret, new Date(Date.now() + 30_000));
}

describe('TOTP', () => {
  it('sets up TOTP from the profile, then requires a code at sign-in, each code once', async () => {
    const u = await confirmedUser();
    await signIn({ username: u.email, password: u.password });
    const setup = await setUpTOTP();
    const secret = setup.sharedSecret;
    seen.totpSecrets.add(secret);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const setupCode = await totpCode(secret);
    await verifyTOTPSetup({ code: setupCode });
    await updateMFAPreference({ totp: 'PREFERRED' });
    expect(await fetchMFAPreference()).toMatchObject({ enabled: ['TOTP'], preferred: 'TOTP' });
    expect((await suite.h.identity.directory.getUser(u.username))?.mfaEnabled).toBe(true);
    await signOut();

    const step = await signIn({ username: u.email, password: u.password });
    expect(step.nextStep.signInStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
    const valid = new Set([
      await totpCode(secret, new Date(Date.now() - 30_000)),
      await totpCode(secret),
      await nextCode(secret),
    ]);
    const wrongCode = ['000000', '111111', '222222', '333333'].find((c) => !valid.has(c))!;
    expect((await errorOf(confirmSignIn({ challengeResponse: wrongCode }))).name).toBe('CodeMismatchException');
    // The set-up code is still inside the time window, but it was used already.
    expect((await errorOf(confirmSignIn({ challengeResponse: setupCode }))).name).toBe('CodeMismatchException');
    const ok = await confirmSignIn({ challengeResponse: await nextCode(secret) });
    expect(ok.isSignedIn).toBe(true);
    await accessToken();

    // Turning MFA off brings back password-only sign-in.
    await updateMFAPreference({ totp: 'DISABLED' });
    expect((await suite.h.identity.directory.getUser(u.username))?.mfaEnabled).toBe(false);
    await signOut();
    expect((await signIn({ username: u.email, password: u.password })).isSignedIn).toBe(true);
  });
});

describe('password changes', () => {
  it('resets a forgotten password with the code from the outbox, once', async () => {
    const u = await confirmedUser();
    const out = await resetPassword({ username: u.email });
    expect(out.nextStep.resetPasswordStep).toBe('CONFIRM_RESET_PASSWORD_WITH_CODE');
    const message = await readOutbox(suite.h.db.pool, u.email);
    const code = /code: (\d{6})/.exec(message!.text)![1]!;
    expect(message!.text).toContain(
      `${suite.h.publicUrl}/reset-password?code=${code}&email=${encodeURIComponent(u.email)}`,
    );

    const wrongCode = code === '123456' ? '654321' : '123456';
    const wrong = await errorOf(
      confirmResetPassword({ username: u.email, confirmationCode: wrongCode, newPassword: 'Res3t-Passw0rd!' }),
    );
    expect(wrong.name).toBe('CodeMismatchException');
    seen.passwords.add('Res3t-Passw0rd!');
    await confirmResetPassword({ username: u.email, confirmationCode: code, newPassword: 'Res3t-Passw0rd!' });
    const again = await errorOf(
      confirmResetPassword({ username: u.email, confirmationCode: code, newPassword: 'Res3t-Passw0rd!2' }),
    );
    expect(again.name).toBe('ExpiredCodeException');

    expect((await errorOf(signIn({ username: u.email, password: u.password }))).name).toBe('NotAuthorizedException');
    expect((await signIn({ username: u.email, password: 'Res3t-Passw0rd!' })).isSignedIn).toBe(true);
    expect((await suite.h.identity.directory.getUser(u.username))?.passwordChangedAt).toBeInstanceOf(Date);
  });

  it('answers an unknown address as a known one (Cognito with user existence errors prevented)', async () => {
    const out = await resetPassword({ username: 'ghost@example.com' });
    expect(out.nextStep.resetPasswordStep).toBe('CONFIRM_RESET_PASSWORD_WITH_CODE');
    expect(out.nextStep.codeDeliveryDetails).toEqual({ deliveryMedium: 'EMAIL', destination: 'g***@e***', attributeName: 'email' });
    expect(await readOutbox(suite.h.db.pool, 'ghost@example.com')).toBeNull();
  });

  it('changes the password of a signed-in user', async () => {
    const u = await confirmedUser();
    await signIn({ username: u.email, password: u.password });
    const wrong = await errorOf(updatePassword({ oldPassword: 'Not-The-0ne!', newPassword: 'Chang3d-Passw0rd!' }));
    expect(wrong.name).toBe('NotAuthorizedException');
    seen.passwords.add('Chang3d-Passw0rd!');
    await updatePassword({ oldPassword: u.password, newPassword: 'Chang3d-Passw0rd!' });
    await signOut();
    expect((await signIn({ username: u.email, password: 'Chang3d-Passw0rd!' })).isSignedIn).toBe(true);
  });
});

describe('tokens and sign-out', () => {
  it('refreshes tokens with the refresh token', async () => {
    const u = await confirmedUser();
    await signIn({ username: u.email, password: u.password });
    const first = await accessToken();
    const refreshed = await fetchAuthSession({ forceRefresh: true });
    const second = refreshed.tokens!.accessToken.toString();
    expect(second).not.toBe(first);
    expect((await suite.h.identity.verifyAccessToken(second)).sub).toBe(u.username);
  });

  it('global sign-out invalidates access and refresh tokens', async () => {
    const u = await confirmedUser();
    await signIn({ username: u.email, password: u.password });
    const token = await accessToken();
    const refresh = suite.refreshToken();
    await signOut({ global: true });

    await expect(suite.h.identity.verifyAccessToken(token)).rejects.toThrow();
    const getUser = await callPool(suite.h.endpoint, 'GetUser', { AccessToken: token });
    expect(getUser.json).toMatchObject({ __type: 'NotAuthorizedException', message: 'Access Token has been revoked' });
    const again = await callPool(suite.h.endpoint, 'InitiateAuth', {
      ClientId: suite.h.identity.appConfig.clientId,
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: refresh },
    });
    expect(again.json.__type).toBe('NotAuthorizedException');
    expect(await suite.h.identity.tokensValidAfter!(u.username)).toBeInstanceOf(Date);
    // A new sign-in right after works.
    expect((await signIn({ username: u.email, password: u.password })).isSignedIn).toBe(true);
    expect((await suite.h.identity.verifyAccessToken(await accessToken())).sub).toBe(u.username);
  });

  it('a plain sign-out revokes that sign-in (RevokeToken)', async () => {
    const u = await confirmedUser();
    await signIn({ username: u.email, password: u.password });
    const token = await accessToken();
    await signOut();
    await expect(suite.h.identity.verifyAccessToken(token)).rejects.toThrow();
  });
});

describe('secrets', () => {
  it('never shows a password, verifier, salt, TOTP secret or refresh token where it should not', async () => {
    expect(suite.h.logs.length).toBeGreaterThan(10);
    expect(suite.h.answers.length).toBeGreaterThan(30);
    expect(seen.totpSecrets.size).toBeGreaterThan(0);
    expect(seen.refreshTokens.size).toBeGreaterThan(2);

    await expectNoSecretsLeaked(suite.h, seen);
  });
});
