import { AdminTexts, REGISTRATION_RETRY_DELAY_MS, Toasts, Validation } from '@rpm/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import RegisterPage from './register-page.tsx';

let posts: Array<{ at: number; body: Record<string, unknown> }> = [];
const server = setupTestServer(
  http.get('/api/roles', () => HttpResponse.json({ roles: ['admin', 'provider'] })),
  http.get('/api/organizations', () => HttpResponse.json([{ id: 3, name: 'North Clinic' }])),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  posts = [];
});
afterAll(() => server.close());

/** Answers the registration POSTs in turn with the given responses. */
function answerPosts(...answers: Array<() => Response>) {
  server.use(
    http.post('/api/admin/users', async ({ request }) => {
      posts.push({ at: Date.now(), body: (await request.json()) as Record<string, unknown> });
      const answer = answers[Math.min(posts.length - 1, answers.length - 1)]!;
      return answer();
    }),
  );
}

const created = () =>
  HttpResponse.json(
    {
      user: { id: 9, email: 'new@example.com', role: 'provider', first_name: 'New', last_name: 'Person', organization_id: 3, cognito_status: 'FORCE_CHANGE_PASSWORD', status: 'active', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', password_changed_at: null, mfa_enabled: false },
      temp_password: 'Tmp-Pass-123!',
    },
    { status: 201 },
  );

const renderRegisterPage = () => renderPage(<RegisterPage />);

async function fillForm() {
  const user = userEvent.setup();
  await user.type(screen.getByRole('textbox', { name: new RegExp(AdminTexts.firstName) }), 'New');
  await user.type(screen.getByRole('textbox', { name: new RegExp(AdminTexts.lastName) }), 'Person');
  await user.type(screen.getByRole('textbox', { name: new RegExp(AdminTexts.email) }), 'new@example.com');
  await waitFor(() => expect(screen.getByRole('combobox', { name: new RegExp(AdminTexts.organization) })).not.toHaveAttribute('aria-disabled'));
  await user.click(screen.getByRole('combobox', { name: new RegExp(AdminTexts.organization) }));
  await user.click(await screen.findByRole('option', { name: 'North Clinic' }));
  return user;
}

// Generous timeout: these drive a whole form (and a retry delay) on a shared, busy machine.
describe('registration', { timeout: 20_000 }, () => {
  it('retries a failed registration once after 500 ms, then shows the temporary password', async () => {
    answerPosts(() => HttpResponse.json({ message: 'boom' }, { status: 500 }), created);
    renderRegisterPage();
    const user = await fillForm();
    await user.click(screen.getByRole('button', { name: AdminTexts.submit }));
    expect(await screen.findByText(Toasts.userCreated)).toBeInTheDocument();
    expect(screen.getByTestId('temp-password')).toHaveTextContent('Tmp-Pass-123!');
    expect(posts).toHaveLength(2);
    expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(REGISTRATION_RETRY_DELAY_MS - 20);
    // Empty optional fields are left out; the role defaults to provider.
    expect(posts[1]!.body).toEqual({ email: 'new@example.com', first_name: 'New', last_name: 'Person', role: 'provider', organization_id: 3 });
  });

  it('after two failures shows the server’s detail', async () => {
    answerPosts(() => HttpResponse.json({ message: 'A user with this email already exists' }, { status: 409 }));
    renderRegisterPage();
    const user = await fillForm();
    await user.click(screen.getByRole('button', { name: AdminTexts.submit }));
    expect(await screen.findByText('A user with this email already exists')).toBeInTheDocument();
    expect(posts).toHaveLength(2);
    expect(screen.queryByTestId('temp-password')).not.toBeInTheDocument();
  });

  it('after two failures without a detail (network down) shows “Registration failed”', async () => {
    answerPosts(() => HttpResponse.error());
    renderRegisterPage();
    const user = await fillForm();
    await user.click(screen.getByRole('button', { name: AdminTexts.submit }));
    expect(await screen.findByText(Toasts.registrationFailed)).toBeInTheDocument();
    expect(posts).toHaveLength(2);
  });

  it('requires first name, last name, organization and email before sending anything', async () => {
    answerPosts(created);
    renderRegisterPage();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: AdminTexts.submit }));
    expect(await screen.findByText(Validation.firstNameRequired)).toBeInTheDocument();
    expect(screen.getByText(Validation.lastNameRequired)).toBeInTheDocument();
    expect(screen.getByText(Validation.organizationRequired)).toBeInTheDocument();
    expect(screen.getByText(Validation.email)).toBeInTheDocument();
    expect(posts).toHaveLength(0);
  });

  it('says “Failed to load options” when the roles or organizations cannot be loaded', async () => {
    server.use(http.get('/api/roles', () => HttpResponse.json({ message: 'nope' }, { status: 500 })));
    renderRegisterPage();
    await waitFor(() => expect(screen.getAllByText(Toasts.failedToLoadOptions).length).toBeGreaterThan(0));
  });
});
