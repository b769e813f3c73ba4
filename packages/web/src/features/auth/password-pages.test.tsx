import { AuthLabels, FORGOT_PASSWORD_LOCKOUT_MS, Toasts, UxTexts, Validation } from '@rpm/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { USER_POOL_ENDPOINT, server, runPortalTestServer } from '../../lib/testing/portal-test-server.ts';
import { renderApp } from '../../lib/testing/render-app.tsx';

runPortalTestServer();

/** The user pool's answer to ForgotPassword / ConfirmForgotPassword, as the wire protocol has it. */
function poolAnswers(answer: (target: string) => Response) {
  const targets: string[] = [];
  server.use(
    http.post(USER_POOL_ENDPOINT, ({ request }) => {
      const target = request.headers.get('x-amz-target') ?? '';
      targets.push(target);
      return answer(target);
    }),
  );
  return targets;
}

const poolError = (type: string, message: string) =>
  HttpResponse.json({ __type: type, message }, { status: 400, headers: { 'x-amzn-errortype': type } });

describe('forgot password page', { timeout: 20_000 }, () => {
  it('refuses an invalid email without calling the user pool', async () => {
    const targets = poolAnswers(() => HttpResponse.json({}));
    const user = userEvent.setup();
    renderApp('/forgot-password');
    await user.type(await screen.findByLabelText(AuthLabels.email), 'nope');
    await user.click(screen.getByRole('button', { name: AuthLabels.sendResetLink }));
    expect(await screen.findByText(Validation.email)).toBeInTheDocument();
    expect(targets).toEqual([]);
  });

  it('says the same thing for an unknown user as for a known one', async () => {
    const targets = poolAnswers(() => poolError('UserNotFoundException', 'Username/client id combination not found.'));
    const user = userEvent.setup();
    renderApp('/forgot-password');
    await user.type(await screen.findByLabelText(AuthLabels.email), 'ghost@example.com');
    await user.click(screen.getByRole('button', { name: AuthLabels.sendResetLink }));
    expect(await screen.findAllByText(Toasts.forgotPasswordSent)).not.toHaveLength(0);
    expect(screen.queryByText(/combination not found/)).not.toBeInTheDocument();
    expect(targets).toEqual(['AWSCognitoIdentityProviderService.ForgotPassword']);
  });

  it("shows another error's message", async () => {
    poolAnswers(() => poolError('LimitExceededException', 'Attempt limit exceeded, please try after some time.'));
    const user = userEvent.setup();
    renderApp('/forgot-password');
    await user.type(await screen.findByLabelText(AuthLabels.email), 'pat@example.com');
    await user.click(screen.getByRole('button', { name: AuthLabels.sendResetLink }));
    expect(await screen.findByText('Attempt limit exceeded, please try after some time.')).toBeInTheDocument();
  });

  it('disables the button for FORGOT_PASSWORD_LOCKOUT_MS after a request', async () => {
    poolAnswers(() =>
      HttpResponse.json({
        CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: 'p***@e***' },
      }),
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderApp('/forgot-password');
    await user.type(await screen.findByLabelText(AuthLabels.email), 'pat@example.com');
    const button = screen.getByRole('button', { name: AuthLabels.sendResetLink });
    await user.click(button);
    expect(await screen.findAllByText(Toasts.forgotPasswordSent)).not.toHaveLength(0);
    expect(button).toBeDisabled();
    await act(async () => {
      vi.advanceTimersByTime(FORGOT_PASSWORD_LOCKOUT_MS - 500);
    });
    expect(button).toBeDisabled();
    await act(async () => {
      vi.advanceTimersByTime(600);
    });
    await waitFor(() => expect(button).toBeEnabled());
  });
});

describe('reset password page', { timeout: 20_000 }, () => {
  it('without a code in the link, asks for the typed code before calling the user pool', async () => {
    const targets = poolAnswers(() => HttpResponse.json({}));
    const user = userEvent.setup();
    renderApp('/reset-password');
    await user.type(await screen.findByLabelText(AuthLabels.email), 'pat@example.com');
    expect(screen.getByLabelText(AuthLabels.code)).toHaveValue('');
    await user.type(screen.getByLabelText(AuthLabels.newPassword), 'New-Passw0rd!');
    await user.type(screen.getByLabelText(AuthLabels.confirmPassword), 'New-Passw0rd!');
    await user.click(screen.getByRole('button', { name: AuthLabels.resetPasswordSubmit }));
    expect(await screen.findByText(UxTexts.resetCodeRequired)).toBeInTheDocument();
    expect(targets).toEqual([]);
    await user.type(screen.getByLabelText(AuthLabels.code), '123456');
    await user.click(screen.getByRole('button', { name: AuthLabels.resetPasswordSubmit }));
    expect(await screen.findByText(Toasts.passwordUpdated)).toBeInTheDocument();
    expect(targets).toEqual(['AWSCognitoIdentityProviderService.ConfirmForgotPassword']);
  });

  it('checks email, password policy and confirmation before calling the user pool', async () => {
    const targets = poolAnswers(() => HttpResponse.json({}));
    const user = userEvent.setup();
    renderApp('/reset-password?code=123456');
    await user.type(await screen.findByLabelText(AuthLabels.email), 'bad');
    await user.type(screen.getByLabelText(AuthLabels.newPassword), 'short');
    await user.type(screen.getByLabelText(AuthLabels.confirmPassword), 'different');
    await user.click(screen.getByRole('button', { name: AuthLabels.resetPasswordSubmit }));
    expect(await screen.findByText(Validation.email)).toBeInTheDocument();
    expect(screen.getByText(Validation.passwordPolicy)).toBeInTheDocument();
    expect(screen.getByText(Validation.passwordsMismatch)).toBeInTheDocument();
    expect(targets).toEqual([]);
  });

  it('sets the password, says Password updated and goes to /login', async () => {
    const targets = poolAnswers(() => HttpResponse.json({}));
    const user = userEvent.setup();
    const { router } = renderApp('/reset-password?code=123456&email=pat%40example.com');
    expect(await screen.findByLabelText(AuthLabels.email)).toHaveValue('pat@example.com');
    await user.type(screen.getByLabelText(AuthLabels.newPassword), 'New-Passw0rd!');
    await user.type(screen.getByLabelText(AuthLabels.confirmPassword), 'New-Passw0rd!');
    await user.click(screen.getByRole('button', { name: AuthLabels.resetPasswordSubmit }));
    expect(await screen.findByText(Toasts.passwordUpdated)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(targets).toEqual(['AWSCognitoIdentityProviderService.ConfirmForgotPassword']);
  });

  it('shows the failure message of the user pool', async () => {
    poolAnswers(() => poolError('CodeMismatchException', 'Invalid verification code provided, please try again.'));
    const user = userEvent.setup();
    renderApp('/reset-password?code=000000&email=pat%40example.com');
    await user.type(await screen.findByLabelText(AuthLabels.newPassword), 'New-Passw0rd!');
    await user.type(screen.getByLabelText(AuthLabels.confirmPassword), 'New-Passw0rd!');
    await user.click(screen.getByRole('button', { name: AuthLabels.resetPasswordSubmit }));
    expect(await screen.findByText('Invalid verification code provided, please try again.')).toBeInTheDocument();
    // The code stays editable and says what is wrong with it, so a typo is corrected in place.
    const code = screen.getByLabelText(AuthLabels.code);
    expect(code).toHaveValue('000000');
    expect(code).toHaveAccessibleDescription(Validation.resetLinkInvalid);
  });
});
