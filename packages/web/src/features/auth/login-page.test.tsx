import { AuthLabels, Labels, Toasts, UxTexts, Validation } from '@rpm/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { runPortalTestServer, server, USER_POOL_ENDPOINT } from '../../lib/testing/portal-test-server.ts';
import { renderApp } from '../../lib/testing/render-app.tsx';

runPortalTestServer();

describe('login page', { timeout: 20_000 }, () => {
  it('refuses an email that does not look like one, and goes on to the password step with a valid one', async () => {
    const user = userEvent.setup();
    renderApp('/login');
    const email = await screen.findByLabelText(AuthLabels.email);
    await user.type(email, 'not-an-email');
    await user.click(screen.getByRole('button', { name: Labels.next }));
    expect(await screen.findByText(Validation.email)).toBeInTheDocument();
    expect(screen.queryByLabelText(AuthLabels.password)).not.toBeInTheDocument();

    await user.clear(email);
    await user.type(email, 'pat@example.com');
    await user.click(screen.getByRole('button', { name: Labels.next }));
    expect(await screen.findByLabelText(AuthLabels.password)).toBeInTheDocument();
    expect(screen.queryByText(Validation.email)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: Labels.login })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: Labels.forgotPassword })).toHaveAttribute('href', '/forgot-password');
  });

  it('submits the email step with Enter too', async () => {
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText(AuthLabels.email), 'bad@{Enter}');
    expect(await screen.findByText(Validation.email)).toBeInTheDocument();
  });

  it('shows and hides the password with the Show/Hide toggle', async () => {
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText(AuthLabels.email), 'pat@example.com');
    await user.click(screen.getByRole('button', { name: Labels.next }));
    const password = await screen.findByLabelText(AuthLabels.password);
    await user.type(password, 'Secret-1!');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: Labels.show }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: Labels.hide }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it('goes back to the email step with Start over', async () => {
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText(AuthLabels.email), 'pat@example.com');
    await user.click(screen.getByRole('button', { name: Labels.next }));
    await user.click(await screen.findByRole('button', { name: AuthLabels.startOver }));
    expect(await screen.findByRole('button', { name: Labels.next })).toBeInTheDocument();
  });

  it('reads Verifying… while the user pool answers, then shows the pool’s own message', async () => {
    let poolCalls = 0;
    server.use(
      http.post(USER_POOL_ENDPOINT, async () => {
        poolCalls++;
        await delay(300);
        return HttpResponse.json(
          { __type: 'NotAuthorizedException', message: 'Incorrect username or password.' },
          { status: 400, headers: { 'x-amzn-errortype': 'NotAuthorizedException' } },
        );
      }),
    );
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText(AuthLabels.email), 'pat@example.com');
    await user.click(screen.getByRole('button', { name: Labels.next }));
    await user.type(await screen.findByLabelText(AuthLabels.password), 'Wrong-Pa55!');
    await user.click(screen.getByRole('button', { name: Labels.login }));
    expect(await screen.findByRole('button', { name: Labels.verifying })).toBeDisabled();
    expect(await screen.findByText('Incorrect username or password.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: Labels.login })).toBeEnabled();
    expect(poolCalls).toBeGreaterThan(0);
  });

  it('says Login failed, not the SDK’s “Unknown error”, when the pool answers without a message', async () => {
    server.use(
      http.post(USER_POOL_ENDPOINT, () =>
        HttpResponse.json({}, { status: 400, headers: { 'x-amzn-errortype': 'InternalErrorException' } }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText(AuthLabels.email), 'pat@example.com');
    await user.click(screen.getByRole('button', { name: Labels.next }));
    await user.type(await screen.findByLabelText(AuthLabels.password), 'Any-Pa55word!');
    await user.click(screen.getByRole('button', { name: Labels.login }));
    expect(await screen.findByText(Toasts.loginFailed)).toBeInTheDocument();
    expect(screen.queryByText('Unknown error')).not.toBeInTheDocument();
  });

  it('says why when the password is left empty, on leaving it and on Login', async () => {
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText(AuthLabels.email), 'pat@example.com');
    await user.click(screen.getByRole('button', { name: Labels.next }));
    const password = await screen.findByLabelText(AuthLabels.password);
    await user.click(screen.getByRole('button', { name: Labels.login }));
    expect(await screen.findByText(UxTexts.passwordRequired)).toBeInTheDocument();
    expect(password).toHaveAccessibleDescription(UxTexts.passwordRequired);
  });
});
