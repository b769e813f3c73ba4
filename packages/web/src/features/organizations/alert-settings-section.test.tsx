import {
  AlertSettingsTexts, AlertTexts,
  DEFAULT_ALERT_ORGANIZATION_SETTINGS,
  DEFAULT_ALERT_THRESHOLDS,
  GuidelineSources,
  THRESHOLD_KEYS,
  type AdminUser,
  type AlertSettings,
} from '@rpm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import { AlertSettingsSection } from './alert-settings-section.tsx';

const settings: AlertSettings = {
  organization_id: 1,
  overrides: {
    ...Object.fromEntries(THRESHOLD_KEYS.map((k) => [k, null])),
    stage2_systolic: 140,
    bp_window_days: null,
    bp_window_min_readings: null,
    stale_days: null,
    escalation_minutes: null,
    escalation_contact_ids: [],
  },
  effective: { ...DEFAULT_ALERT_THRESHOLDS, stage2_systolic: 140, ...DEFAULT_ALERT_ORGANIZATION_SETTINGS },
};
const user = (id: number, first: string, organization_id: number, status: 'active' | 'disabled'): AdminUser => ({
  id,
  email: `${first.toLowerCase()}@example.test`,
  role: 'provider',
  first_name: first,
  last_name: 'Doe',
  organization_id,
  cognito_status: null,
  status,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  password_changed_at: null,
  mfa_enabled: false,
});

const saved: unknown[] = [];
const server = setupTestServer(
  http.get('/api/organizations', () => HttpResponse.json([{ id: 1, name: 'North Clinic' }])),
  http.get('/api/organizations/1/alert-settings', () => HttpResponse.json(settings)),
  http.put('/api/organizations/1/alert-settings', async ({ request }) => {
    saved.push(await request.json());
    return HttpResponse.json(settings);
  }),
  http.get('/api/admin/users', () =>
    HttpResponse.json({
      users: [user(21, 'Ann', 1, 'active'), user(22, 'Bob', 1, 'disabled'), user(23, 'Cid', 2, 'active')],
    }),
  ),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  saved.length = 0;
});
afterAll(() => server.close());

describe('organization alert settings', { timeout: 30_000 }, () => {
  it('groups the thresholds by kind, each with its unit, default and source as help', async () => {
    renderPage(<AlertSettingsSection />);
    const form = await screen.findByRole('form', { name: `${AlertTexts.settingsTitle}: North Clinic` });
    expect(within(form).getByRole('group', { name: AlertSettingsTexts.thresholdGroups.blood_pressure })).toBeInTheDocument();
    const stage2 = within(form).getByRole('textbox', { name: `${AlertSettingsTexts.thresholdLabels.stage2_systolic} [mmHg]` });
    expect(stage2).toHaveValue('140');
    expect(stage2).toHaveAccessibleDescription(`${AlertSettingsTexts.thresholdSource}: ${GuidelineSources.accAha2017}`);
    const fever = within(form).getByRole('textbox', { name: `${AlertSettingsTexts.thresholdLabels.fever} [°C]` });
    expect(fever).toHaveAttribute('placeholder', AlertTexts.defaultPlaceholder(38));
    // The organization-only COPD target is the organization's to set.
    expect(within(form).getByRole('textbox', { name: `${AlertSettingsTexts.thresholdLabels.spo2_target_copd} [%]` })).toBeInTheDocument();
    expect(within(form).getByRole('textbox', { name: AlertSettingsTexts.escalationMinutes })).toHaveAccessibleDescription(
      `${AlertSettingsTexts.thresholdSource}: ${GuidelineSources.escalation}`,
    );
  });

  it('saves nothing on bad input, then saves the values with the chosen escalation contacts (active staff only)', async () => {
    const u = userEvent.setup();
    renderPage(<AlertSettingsSection />);
    const form = await screen.findByRole('form', { name: `${AlertTexts.settingsTitle}: North Clinic` });
    const fever = within(form).getByRole('textbox', { name: `${AlertSettingsTexts.thresholdLabels.fever} [°C]` });
    await u.type(fever, '38.25');
    const window = within(form).getByRole('textbox', { name: AlertSettingsTexts.windowDays });
    await u.type(window, '0');
    await u.click(within(form).getByRole('button', { name: AlertTexts.settingsSave }));
    await waitFor(() => expect(fever).toHaveAttribute('aria-invalid', 'true'));
    expect(window).toHaveAttribute('aria-invalid', 'true');
    expect(saved).toHaveLength(0);

    await u.clear(fever);
    await u.type(fever, '37.8');
    await u.clear(window);
    await u.type(window, '14');
    await u.click(within(form).getByRole('combobox', { name: AlertSettingsTexts.escalationContacts }));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Ann Doeann@example.test']);
    await u.click(options[0]!);
    await u.keyboard('{Escape}');
    await u.click(within(form).getByRole('button', { name: AlertTexts.settingsSave }));
    expect(await screen.findByText(AlertSettingsTexts.settingsSaved)).toBeInTheDocument();
    expect(saved[0]).toMatchObject({
      fever: 37.8,
      stage2_systolic: 140,
      bp_window_days: 14,
      stale_days: null,
      escalation_contact_ids: [21],
    });
  });
});
