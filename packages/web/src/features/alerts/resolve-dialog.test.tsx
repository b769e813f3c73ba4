import { ResolveDialog } from './resolve-dialog.tsx';
import { renderPage } from '../../lib/testing/render-page.tsx';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import { AlertTexts, CareTimerTexts, ContactTypeLabels, type Alert, type AlertRule, type AlertSeverity } from '@rpm/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';

type AlertFixture = Omit<Alert, 'rule' | 'severity'> & { rule: AlertRule; severity: AlertSeverity };
const alert = {
  id: 21,
  patient_id: 4,
  patient_name: 'Ada Lovelace',
  rule: 'stale_data',
  severity: 'warning',
  status: 'open',
  count: 1,
  first_at: '2026-01-08T12:00:00.000Z',
  last_at: '2026-01-08T12:00:00.000Z',
  last_values: {},
  primary_provider_id: 7,
  confirmed: null,
  cleared_at: null,
  acknowledged_at: null,
  acknowledged_by_name: null,
  snoozed_until: null,
  escalated_at: null,
  resolved_at: null,
  resolution_reason: null,
} satisfies AlertFixture as unknown as Alert;

/** What the dialog sent, one body per resolve. */
const posts: unknown[] = [];
const resolved = { ...alert, status: 'resolved', resolved_at: '2026-01-09T12:00:00.000Z', resolution_reason: 'reached_patient' };
const server = setupTestServer(
  http.post('/api/alerts/21/resolve', async ({ request }) => {
    posts.push(await request.json());
    return HttpResponse.json(resolved);
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('resolve dialog: minutes with a live contact', { timeout: 20_000 }, () => {
  it('asks for the live contact once minutes are given, and sends its type', async () => {
    const user = userEvent.setup();
    renderPage(<ResolveDialog alert={alert} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByLabelText(CareTimerTexts.resolveContact)).toBeNull();
    await user.click(within(dialog).getByRole('combobox', { name: new RegExp(AlertTexts.resolveReason) }));
    await user.click(await screen.findByRole('option', { name: AlertTexts.reasons.reached_patient }));
    await user.type(within(dialog).getByRole('textbox', { name: AlertTexts.resolveNote }), 'Called; readings back in range');
    await user.type(within(dialog).getByRole('textbox', { name: AlertTexts.resolveMinutes }), '12');
    await user.selectOptions(within(dialog).getByLabelText(CareTimerTexts.resolveContact), ContactTypeLabels.phone);
    await user.click(within(dialog).getByRole('button', { name: AlertTexts.resolve }));
    expect(await screen.findByText(AlertTexts.resolved)).toBeTruthy();
    expect(posts).toEqual([
      { reason: 'reached_patient', note: 'Called; readings back in range', minutes: 12, contact_type: 'phone' },
    ]);
  });
});
