import { AdminTexts, CareTimerTexts, TimerStartLabels, Toasts, Validation, organizationSettingsPath } from '@rpm/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import OrganizationAddPage from './organization-add-page.tsx';

const organizations = [{ id: 5, name: 'Harbor', timer_start: 'open' }];
const server = setupTestServer(
  http.get('/api/organizations', () => HttpResponse.json(organizations)),
  http.get('/api/organizations/5/display-units', () => HttpResponse.json({ display_units: {} })),
  http.get('/api/organizations/5/settings', () =>
    HttpResponse.json({ id: 5, name: 'Harbor', require_mfa: false, time_zone: 'America/New_York', timer_start: 'open' }),
  ),
  // The alert settings section has its own tests (alert-settings-section.test.tsx).
  http.get('/api/organizations/5/alert-settings', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const renderAddPage = () => renderPage(<OrganizationAddPage />);

// Typing into MUI fields is slow on a busy machine: the page now also loads every organization's settings.
describe('add organization', { timeout: 20_000 }, () => {
  it('requires a name, then says “Organization added”', async () => {
    let sent: unknown = null;
    server.use(
      http.post('/api/organizations', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ id: 5, name: 'Harbor' }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderAddPage();
    await user.click(screen.getByRole('button', { name: AdminTexts.submit }));
    expect(await screen.findByText(Validation.organizationNameRequired)).toBeInTheDocument();
    expect(sent).toBeNull();
    await user.type(screen.getByRole('textbox', { name: new RegExp(AdminTexts.organizationName) }), '  Harbor ');
    await user.click(screen.getByRole('button', { name: AdminTexts.submit }));
    expect(await screen.findByText(Toasts.organizationAdded)).toBeInTheDocument();
    expect(sent).toEqual({ name: 'Harbor' });
  });

  it('says “Failed to add organization”, with the server’s reason by the field', async () => {
    server.use(
      http.post('/api/organizations', () =>
        HttpResponse.json({ message: 'An organization with this name already exists' }, { status: 409 }),
      ),
    );
    const user = userEvent.setup();
    renderAddPage();
    await user.type(screen.getByRole('textbox', { name: new RegExp(AdminTexts.organizationName) }), 'Harbor');
    await user.click(screen.getByRole('button', { name: AdminTexts.submit }));
    expect(await screen.findByText(Toasts.failedToAddOrganization)).toBeInTheDocument();
    expect(screen.getByText('An organization with this name already exists')).toBeInTheDocument();
  });

  it('switches organization-wide MFA on with the organization’s switch, and says so', async () => {
    let sent: unknown = null;
    server.use(
      http.put(organizationSettingsPath(5), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ id: 5, name: 'Harbor', require_mfa: true, time_zone: 'America/New_York', timer_start: 'open' });
      }),
    );
    const user = userEvent.setup();
    renderAddPage();
    expect(await screen.findByRole('heading', { name: AdminTexts.organizationSettingsTitle })).toBeInTheDocument();
    const toggle = await screen.findByRole('switch', { name: `${AdminTexts.requireMfa}: Harbor` });
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    expect(await screen.findByText(Toasts.organizationSettingsSaved)).toBeInTheDocument();
    expect(sent).toEqual({ require_mfa: true });
    expect(toggle).toBeChecked();
  });

  it('says when the setting could not be saved, and leaves the switch as it was', async () => {
    server.use(
      http.put(organizationSettingsPath(5), () => HttpResponse.json({ message: 'Forbidden' }, { status: 403 })),
    );
    const user = userEvent.setup();
    renderAddPage();
    const toggle = await screen.findByRole('switch', { name: `${AdminTexts.requireMfa}: Harbor` });
    await waitFor(() => expect(toggle).toBeEnabled());
    await user.click(toggle);
    expect(await screen.findByText(Toasts.failedToSaveOrganizationSettings)).toBeInTheDocument();
    expect(toggle).not.toBeChecked();
  });

  it('sets how the care timer starts, keeping the other settings, and says so', async () => {
    let sent: unknown = null;
    server.use(
      http.put(organizationSettingsPath(5), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ id: 5, name: 'Harbor', require_mfa: false, time_zone: 'America/New_York', timer_start: 'click' });
      }),
    );
    const user = userEvent.setup();
    renderAddPage();
    expect(await screen.findByText(CareTimerTexts.timerStartHelp)).toBeInTheDocument();
    const select = await screen.findByRole('combobox', { name: CareTimerTexts.timerStartLabel('Harbor') });
    await waitFor(() => expect(select).toBeEnabled());
    expect(select).toHaveValue('open');
    expect(select).toHaveAccessibleDescription(CareTimerTexts.timerStartHelp);
    await user.selectOptions(select, TimerStartLabels.click);
    expect(await screen.findByText(Toasts.organizationSettingsSaved)).toBeInTheDocument();
    expect(sent).toEqual({ require_mfa: false, timer_start: 'click' });
    await waitFor(() => expect(select).toHaveValue('click'));
  });
});
