import { Labels, Toasts, UserActionConfirmations, UsersTableColumns, type AdminUser } from '@rpm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import { UsersList } from './users-page.tsx';

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

const ADMIN_ID = 1;
let listCalls = 0;
let posts: string[] = [];
const server = setupTestServer(
  http.get('/api/admin/users', () => {
    listCalls++;
    return HttpResponse.json({
      users: [
        user({ id: ADMIN_ID, email: 'admin@example.com', role: 'admin' }),
        user({}),
        user({ id: 3, email: 'new@example.com', cognito_status: 'FORCE_CHANGE_PASSWORD' }),
        user({ id: 4, email: 'mfa@example.com', mfa_enabled: true }),
      ],
    });
  }),
  http.post('/api/admin/users/:id/:action', ({ params }) => {
    posts.push(`${String(params.id)}/${String(params.action)}`);
    if (params.id === '2' && params.action === 'disable') return HttpResponse.json({ user: user({ status: 'disabled' }) });
    if (params.id === '4' && params.action === 'reset-mfa') {
      return HttpResponse.json({ user: user({ id: 4, email: 'mfa@example.com', mfa_enabled: false }) });
    }
    return HttpResponse.json({ message: 'The user pool did not accept the request: not pending' }, { status: 409 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  listCalls = 0;
  posts = [];
});
afterAll(() => server.close());

const renderUsersPage = () => renderPage(<UsersList currentUserId={ADMIN_ID} />);
const rowOf = async (email: string) => (await screen.findByText(email)).closest('tr')!;

// Dialogs open and close with transitions: on a loaded machine these steps take seconds.
describe('users page', { timeout: 20_000 }, () => {
  it('shows the spec’s columns and updates a row in place after a confirmed Disable', async () => {
    const u = userEvent.setup();
    renderUsersPage();
    const row = await rowOf('pat@example.com');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([...UsersTableColumns]);
    await u.click(within(row).getByRole('button', { name: Labels.disable }));
    const dialog = await screen.findByRole('dialog', { name: UserActionConfirmations.disable.title });
    expect(within(dialog).getByText('pat@example.com')).toBeInTheDocument();
    expect(posts).toEqual([]); // nothing happens before the confirmation
    await u.click(within(dialog).getByRole('button', { name: UserActionConfirmations.disable.confirm }));
    expect(await screen.findByText(Toasts.userDisabled)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(row).getByText('disabled')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: Labels.enable })).toBeInTheDocument();
    expect(posts).toEqual(['2/disable']);
    expect(listCalls).toBe(1); // updated from the answer, not by reloading the list
  });

  it('does nothing when the confirmation is cancelled, by button or by Escape, with focus on Cancel', async () => {
    const u = userEvent.setup();
    renderUsersPage();
    const row = await rowOf('pat@example.com');
    await u.click(within(row).getByRole('button', { name: Labels.disable }));
    const dialog = await screen.findByRole('dialog');
    const cancel = within(dialog).getByRole('button', { name: Labels.cancel });
    await waitFor(() => expect(cancel).toHaveFocus());
    await u.click(cancel);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await u.click(within(row).getByRole('button', { name: Labels.disable }));
    await screen.findByRole('dialog');
    await u.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts).toEqual([]);
    expect(within(row).getByText('active')).toBeInTheDocument();
  });

  it('offers no Disable on the signed-in admin’s own row', async () => {
    renderUsersPage();
    const own = await rowOf('admin@example.com');
    expect(within(own).queryByRole('button', { name: Labels.disable })).not.toBeInTheDocument();
    expect(within(await rowOf('pat@example.com')).getByRole('button', { name: Labels.disable })).toBeInTheDocument();
  });

  it('offers Resend Invite only to users who have not set a password, and shows the server’s detail when it fails', async () => {
    const u = userEvent.setup();
    renderUsersPage();
    expect(within(await rowOf('pat@example.com')).queryByRole('button', { name: Labels.resendInvite })).not.toBeInTheDocument();
    const row = await rowOf('new@example.com');
    await u.click(within(row).getByRole('button', { name: Labels.resendInvite }));
    const dialog = await screen.findByRole('dialog', { name: UserActionConfirmations['resend-invite'].title });
    await u.click(within(dialog).getByRole('button', { name: UserActionConfirmations['resend-invite'].confirm }));
    expect(await screen.findByText('The user pool did not accept the request: not pending')).toBeInTheDocument();
    expect(posts).toEqual(['3/resend-invite']);
  });

  it('offers Reset MFA only where MFA is on, after a confirmation', async () => {
    const u = userEvent.setup();
    renderUsersPage();
    expect(within(await rowOf('pat@example.com')).queryByRole('button', { name: Labels.resetMfa })).not.toBeInTheDocument();
    const row = await rowOf('mfa@example.com');
    await u.click(within(row).getByRole('button', { name: Labels.resetMfa }));
    const dialog = await screen.findByRole('dialog', { name: UserActionConfirmations['reset-mfa'].title });
    await u.click(within(dialog).getByRole('button', { name: UserActionConfirmations['reset-mfa'].confirm }));
    expect(await screen.findByText(Toasts.mfaReset)).toBeInTheDocument();
    expect(posts).toEqual(['4/reset-mfa']);
    await waitFor(() => expect(within(row).queryByRole('button', { name: Labels.resetMfa })).not.toBeInTheDocument());
  });
});
