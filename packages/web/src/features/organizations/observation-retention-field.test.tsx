import {
  OBSERVATION_RETENTION_MONTHS_MIN,
  ObservationRetentionErrors,
  ObservationRetentionTexts,
  Toasts,
  organizationSettingsPath,
} from '@rpm/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrganizationSettingsSection } from './organization-settings-section.tsx';
import { renderPage } from '../../lib/testing/render-page.tsx';
import { setupTestServer } from '../../lib/testing/test-server.ts';

const settings = { id: 5, name: 'Harbor', require_mfa: true, time_zone: 'America/New_York', timer_start: 'open' };
const server = setupTestServer(
  http.get('/api/organizations', () => HttpResponse.json([{ id: 5, name: 'Harbor', timer_start: 'open' }])),
  http.get(organizationSettingsPath(5), () => HttpResponse.json({ ...settings, observation_retention_months: null })),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const field = async () => {
  const input = await screen.findByRole('textbox', { name: ObservationRetentionTexts.label('Harbor') });
  await waitFor(() => expect(input).toBeEnabled());
  return input;
};
const saveButton = () => screen.getByRole('button', { name: `${ObservationRetentionTexts.save}: Harbor` });

describe('reading retention of an organization', { timeout: 20_000 }, () => {
  it('starts empty (kept without limit), saves a number of months with the MFA flag as it is, and says so', async () => {
    let sent: unknown = null;
    server.use(
      http.put(organizationSettingsPath(5), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ ...settings, observation_retention_months: 36 });
      }),
    );
    const user = userEvent.setup();
    renderPage(<OrganizationSettingsSection />);
    const input = await field();
    expect(input).toHaveValue('');
    expect(input).toHaveAttribute('placeholder', ObservationRetentionTexts.keepAll);
    expect(input).toHaveAccessibleDescription(ObservationRetentionTexts.help);
    await user.type(input, '36');
    await user.click(saveButton());
    expect(await screen.findByText(Toasts.organizationSettingsSaved)).toBeInTheDocument();
    expect(sent).toEqual({ require_mfa: true, observation_retention_months: 36 });
    expect(input).toHaveValue('36');
  });

  it('refuses fewer months than billing evidence needs, and anything but whole months, without sending', async () => {
    let sent = 0;
    server.use(
      http.put(organizationSettingsPath(5), () => {
        sent += 1;
        return HttpResponse.json({ ...settings, observation_retention_months: null });
      }),
    );
    const user = userEvent.setup();
    renderPage(<OrganizationSettingsSection />);
    const input = await field();
    await user.type(input, String(OBSERVATION_RETENTION_MONTHS_MIN - 1));
    await user.click(saveButton());
    expect(await screen.findByText(ObservationRetentionErrors.tooShort)).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await user.clear(input);
    await user.type(input, '2.5');
    await user.click(saveButton());
    expect(await screen.findByText(ObservationRetentionErrors.notWhole)).toBeInTheDocument();
    expect(sent).toBe(0);
  });

  it('clears the retention when emptied, and shows the server’s reason when it refuses', async () => {
    let sent: unknown = null;
    server.use(
      http.get(organizationSettingsPath(5), () => HttpResponse.json({ ...settings, observation_retention_months: 48 })),
      http.put(organizationSettingsPath(5), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ message: ObservationRetentionErrors.tooLong }, { status: 400 });
      }),
    );
    const user = userEvent.setup();
    renderPage(<OrganizationSettingsSection />);
    const input = await field();
    await waitFor(() => expect(input).toHaveValue('48'));
    await user.clear(input);
    await user.click(saveButton());
    expect(await screen.findByText(Toasts.failedToSaveOrganizationSettings)).toBeInTheDocument();
    expect(sent).toEqual({ require_mfa: true, observation_retention_months: null });
    expect(screen.getByText(ObservationRetentionErrors.tooLong)).toBeInTheDocument();
  });
});
