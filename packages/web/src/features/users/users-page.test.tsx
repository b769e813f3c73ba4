import { Labels, Toasts, UsersTableColumns, type AdminUser } from '@rpm/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import UsersPage from './users-page.tsx';

const user = (overrides: Partial<AdminUser>): AdminUser => ({
  id: 2,
  email: 'pat@example.com',
  role: 'provider',
  first_name: 'Pat',
  last_name: 'Provider',
  organization_id: 1,
  cognito_status: 'CONFIRMED',
  status: 'active',
  created_at: '2026-01-01T10:00:00.000Z',
  updated_at: '2026-01-02T10:00:00.000Z',
  password_changed_at: null,
  mfa_enabled: false,
  ...overrides,
});

let listCalls = 0;
const server = setupServer(
  http.get('/api/admin/users', () => {
    listCalls++;
    return HttpResponse.json({ users: [user({ id: 1, email: 'admin@example.com', role: 'admin' }), user({})] });
  }),
  http.post('/api/admin/users/2/disable', () => HttpResponse.json({ user: user({ status: 'disabled' }) })),
  http.post('/api/admin/users/2/resend-invite', () =>
    HttpResponse.json({ message: 'The user pool did not accept the request: not pending' }, { status: 409 }),
  ),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  listCalls = 0;
});
afterAll(() => server.close());

const renderUsersPage = () => renderPage(<UsersPage />);

describe('users page', () => {
  it('shows the spec’s columns and updates a row in place after Disable', async () => {
    const u = userEvent.setup();
    renderUsersPage();
    const row = (await screen.findByText('pat@example.com')).closest('tr')!;
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([...UsersTableColumns]);
    await u.click(within(row).getByRole('button', { name: Labels.disable }));
    expect(await screen.findByText(Toasts.userDisabled)).toBeInTheDocument();
    expect(within(row).getByText('disabled')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: Labels.enable })).toBeInTheDocument();
    expect(listCalls).toBe(1); // updated from the answer, not by reloading the list
  });

  it('shows the server’s detail when an action fails', async () => {
    const u = userEvent.setup();
    renderUsersPage();
    const row = (await screen.findByText('pat@example.com')).closest('tr')!;
    await u.click(within(row).getByRole('button', { name: Labels.resendInvite }));
    expect(await screen.findByText('The user pool did not accept the request: not pending')).toBeInTheDocument();
  });
});
