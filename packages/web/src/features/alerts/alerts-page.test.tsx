import { AlertTexts, type Alert } from '@rpm/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import { AlertsWorklist } from './alerts-page.tsx';

const crisis: Alert = {
  id: 11,
  patient_id: 4,
  patient_name: 'Ada Lovelace',
  rule: 'bp_crisis',
  severity: 'critical',
  status: 'open',
  count: 3,
  first_at: '2026-01-08T12:00:00.000Z',
  last_at: '2026-01-10T12:00:00.000Z',
  last_values: { systolic: 192, diastolic: 104, pulse: 80 },
  primary_provider_id: 7,
};
const stale: Alert = {
  ...crisis,
  id: 12,
  patient_id: 5,
  patient_name: 'Charles Babbage',
  rule: 'stale_data',
  severity: 'info',
  count: 1,
  last_values: { days_without_reading: 4 },
};

const calls: { method: string; url: string; body?: unknown }[] = [];
const server = setupServer(
  http.get('/api/alerts', ({ request }) => {
    calls.push({ method: 'GET', url: request.url });
    const severity = new URL(request.url).searchParams.get('severity');
    const items = severity === 'critical' ? [crisis] : [crisis, stale];
    return HttpResponse.json({ items, total: items.length });
  }),
  http.get('/api/organizations/1/providers', () => HttpResponse.json([{ id: 7, name: 'Grace Hopper, MD' }])),
  http.post('/api/alerts/11/acknowledge', () => {
    calls.push({ method: 'POST', url: '/api/alerts/11/acknowledge' });
    return HttpResponse.json({ ...crisis, status: 'acknowledged' });
  }),
  http.post('/api/alerts/11/resolve', async ({ request }) => {
    const body = await request.json();
    calls.push({ method: 'POST', url: '/api/alerts/11/resolve', body });
    return HttpResponse.json({ ...crisis, status: 'resolved' });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  calls.length = 0;
});
afterAll(() => server.close());

describe('alerts worklist', { timeout: 30_000 }, () => {
  it('shows each alert with patient, rule, reading, count, and asks for open alerts by default', async () => {
    renderPage(<AlertsWorklist organizationId={1} />, '/alerts');
    const table = await screen.findByRole('table', { name: AlertTexts.pageTitle });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Ada Lovelace');
    expect(rows[0]).toHaveTextContent(AlertTexts.severities.critical);
    expect(rows[0]).toHaveTextContent(AlertTexts.rules.bp_crisis);
    expect(rows[0]).toHaveTextContent('192/104 mmHg, pulse 80');
    expect(rows[1]).toHaveTextContent(AlertTexts.staleDays(4));
    expect(new URL(calls[0]!.url).searchParams.get('status')).toBe('open');
  });

  it('acknowledges an alert, and resolves one only with a note, sending the minutes', async () => {
    const user = userEvent.setup();
    renderPage(<AlertsWorklist organizationId={1} />, '/alerts');
    const table = await screen.findByRole('table', { name: AlertTexts.pageTitle });
    const row = within(table).getByText('Ada Lovelace').closest('tr')!;
    await user.click(within(row).getByRole('button', { name: AlertTexts.acknowledge }));
    expect(await screen.findByText(AlertTexts.acknowledged)).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/api/alerts/11/acknowledge')).toBe(true);

    await user.click(within(row).getByRole('button', { name: AlertTexts.resolve }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: AlertTexts.resolve }));
    expect(await within(dialog).findByText(AlertTexts.resolveNoteRequired)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(AlertTexts.resolveMinutes), '2000');
    await user.type(within(dialog).getByLabelText(AlertTexts.resolveNote), 'Called; fine now');
    await user.click(within(dialog).getByRole('button', { name: AlertTexts.resolve }));
    expect(await within(dialog).findByText(AlertTexts.resolveMinutesRange)).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText(AlertTexts.resolveMinutes));
    await user.type(within(dialog).getByLabelText(AlertTexts.resolveMinutes), '5');
    await user.click(within(dialog).getByRole('button', { name: AlertTexts.resolve }));
    expect(await screen.findByText(AlertTexts.resolved)).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/api/alerts/11/resolve')?.body).toEqual({
      note: 'Called; fine now',
      minutes: 5,
    });
  });
});
