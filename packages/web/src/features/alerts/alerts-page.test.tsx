import { AlertTexts, UxTexts, type Alert, type AlertRule, type AlertSeverity, type WorklistRow } from '@rpm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Route, Routes, useLocation } from 'react-router';
import { renderPage } from '../../lib/testing/render-page.tsx';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import { AlertsWorklist, snoozeUntil } from './alerts-page.tsx';

/**
 * An alert fixture. The contract's `Alert` type has `never` for rule and severity (their schemas
 * are cast unions whose static type is lost), so fixtures are typed with the rule and severity
 * types themselves.
 */
type AlertFixture = Omit<Alert, 'rule' | 'severity'> & { rule: AlertRule; severity: AlertSeverity };
const asAlert = (a: AlertFixture) => a as unknown as Alert;
type RowFixture = Omit<WorklistRow, 'severity' | 'alerts'> & { severity: AlertSeverity; alerts: Alert[] };

const base: AlertFixture = {
  id: 11,
  patient_id: 4,
  patient_name: 'Ada Lovelace',
  rule: 'bp_crisis',
  severity: 'critical',
  status: 'open',
  count: 2,
  first_at: '2026-01-08T12:00:00.000Z',
  last_at: '2026-01-10T12:00:00.000Z',
  last_values: { systolic: 192, diastolic: 124, pulse: 80 },
  primary_provider_id: 7,
  confirmed: true,
  cleared_at: null,
  acknowledged_at: null,
  acknowledged_by_name: null,
  snoozed_until: null,
  escalated_at: '2026-01-08T12:31:00.000Z',
  resolved_at: null,
  resolution_reason: null,
};
const lowMean: AlertFixture = {
  ...base,
  id: 12,
  rule: 'bp_low',
  severity: 'warning',
  status: 'acknowledged',
  count: 1,
  last_values: { systolic: 86, diastolic: 58, mean_of: 9 },
  confirmed: null,
  cleared_at: '2026-01-11T08:00:00.000Z',
  acknowledged_at: '2026-01-10T13:00:00.000Z',
  acknowledged_by_name: 'Grace Hopper',
  escalated_at: null,
};
const stale: AlertFixture = {
  ...base,
  id: 13,
  patient_id: 5,
  patient_name: 'Charles Babbage',
  rule: 'stale_data',
  severity: 'info',
  count: 1,
  last_values: { days_without_reading: 4 },
  confirmed: null,
  escalated_at: null,
};
const rows: RowFixture[] = [
  {
    patient_id: 4,
    patient_name: 'Ada Lovelace',
    primary_provider_id: 7,
    severity: 'critical',
    escalated: true,
    waiting_since: base.first_at,
    last_reading_at: base.last_at,
    alerts: [base, lowMean].map(asAlert),
  },
  {
    patient_id: 5,
    patient_name: 'Charles Babbage',
    primary_provider_id: 7,
    severity: 'info',
    escalated: false,
    waiting_since: stale.first_at,
    last_reading_at: null,
    alerts: [asAlert(stale)],
  },
];

const requests: URL[] = [];
const posts: { url: string; body: unknown }[] = [];
const server = setupTestServer(
  http.get('/api/alerts/worklist', ({ request }) => {
    requests.push(new URL(request.url));
    return HttpResponse.json({ items: rows, total: rows.length, alerts: 3 });
  }),
  http.get('/api/organizations/1/providers', () => HttpResponse.json([{ id: 7, name: 'Grace Hopper, MD' }])),
  http.post('/api/alerts/:id/acknowledge', async ({ request, params }) => {
    posts.push({ url: `/api/alerts/${String(params.id)}/acknowledge`, body: await request.json() });
    return HttpResponse.json({ ...base, status: 'acknowledged' });
  }),
  http.post('/api/alerts/:id/resolve', async ({ request, params }) => {
    posts.push({ url: `/api/alerts/${String(params.id)}/resolve`, body: await request.json() });
    return HttpResponse.json({ ...base, status: 'resolved', resolution_reason: 'reached_patient' });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  requests.length = 0;
  posts.length = 0;
});
afterAll(() => server.close());

/** Shows the address' query, so a test can see what the filters and sort put there. */
function Address() {
  return <output data-testid="address">{useLocation().search}</output>;
}
const renderWorklist = (path = '/alerts') =>
  renderPage(
    <Routes>
      <Route
        path="/alerts"
        element={
          <>
            <AlertsWorklist organizationId={1} />
            <Address />
          </>
        }
      />
    </Routes>,
    path,
  );
const address = () => new URLSearchParams(screen.getByTestId('address').textContent ?? '');
const bodyRows = async () => within(await screen.findByRole('table', { name: AlertTexts.pageTitle })).getAllByRole('row').slice(1);

describe('alerts worklist', { timeout: 30_000 }, () => {
  it('shows one row per patient with all of their alerts, and asks for the active ones by default', async () => {
    renderWorklist();
    const [ada, charles] = await bodyRows();
    expect(await bodyRows()).toHaveLength(2);
    expect(ada).toHaveAccessibleName(AlertTexts.worklistRowLabel('Ada Lovelace', 2));
    expect(within(ada!).getAllByRole('listitem')).toHaveLength(2);
    expect(ada).toHaveTextContent(AlertTexts.rules.bp_crisis);
    expect(ada).toHaveTextContent(AlertTexts.confirmed);
    expect(ada).toHaveTextContent(AlertTexts.escalated);
    expect(ada).toHaveTextContent(AlertTexts.rules.bp_low);
    // A low reading needs review: it is never called "High".
    expect(ada).toHaveTextContent(AlertTexts.severities.warning);
    expect(ada).not.toHaveTextContent(/\bHigh\b/);
    expect(ada).toHaveTextContent(`86/58 mmHg, ${AlertTexts.meanOf(9)}`);
    expect(ada).toHaveTextContent(AlertTexts.cleared);
    expect(ada).toHaveTextContent(AlertTexts.acknowledgedBy('Grace Hopper'));
    expect(charles).toHaveTextContent(AlertTexts.staleDays(4));
    expect(charles).toHaveTextContent(AlertTexts.severities.info);
    expect(requests[0]!.searchParams.get('status')).toBe('active');
    expect(requests[0]!.searchParams.get('sort')).toBe('priority');
  });

  it('keeps the sort and the filters in the address, and asks the server with them', async () => {
    const user = userEvent.setup();
    renderWorklist('/alerts?severity=critical&rule=bp_crisis');
    await bodyRows();
    expect(requests[0]!.searchParams.get('severity')).toBe('critical');
    expect(requests[0]!.searchParams.get('rule')).toBe('bp_crisis');

    await user.click(screen.getByRole('button', { name: AlertTexts.colPatient }));
    await waitFor(() => expect(address().get('sort')).toBe('patient'));
    expect(address().get('order')).toBe('asc');
    await waitFor(() => expect(requests.at(-1)!.searchParams.get('sort')).toBe('patient'));
    await user.click(screen.getByRole('button', { name: AlertTexts.colPatient }));
    await waitFor(() => expect(address().get('order')).toBe('desc'));

    await user.click(screen.getByRole('combobox', { name: AlertTexts.filterStatus }));
    await user.click(await screen.findByRole('option', { name: AlertTexts.statuses.open }));
    await waitFor(() => expect(address().get('status')).toBe('open'));
    await waitFor(() => expect(requests.at(-1)!.searchParams.get('status')).toBe('open'));
    expect(address().get('severity')).toBe('critical');
  });

  it('on a narrow screen, where each patient is a card, sorts with a Sort by and an Order field', async () => {
    // The browser's answer to the page's width query: narrower than md (jsdom has no layout).
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }));
    try {
      const user = userEvent.setup();
      renderWorklist();
      expect(await screen.findByRole('list', { name: AlertTexts.pageTitle })).toBeInTheDocument();
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
      expect(screen.getByRole('combobox', { name: UxTexts.sortBy })).toHaveTextContent(AlertTexts.colPriority);
      await user.click(screen.getByRole('combobox', { name: UxTexts.sortBy }));
      await user.click(await screen.findByRole('option', { name: AlertTexts.colWaiting }));
      await waitFor(() => expect(address().get('sort')).toBe('waiting'));
      expect(address().get('order')).toBe('asc');
      await user.click(screen.getByRole('combobox', { name: UxTexts.sortOrder }));
      await user.click(await screen.findByRole('option', { name: UxTexts.sortOrderNames.desc }));
      await waitFor(() => expect(address().get('order')).toBe('desc'));
      await waitFor(() => expect(requests.at(-1)!.searchParams.get('order')).toBe('desc'));
      expect(requests.at(-1)!.searchParams.get('sort')).toBe('waiting');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('acknowledges with a snooze, sending when it ends, then moves focus to the next patient', async () => {
    const user = userEvent.setup();
    renderWorklist();
    const [ada, charles] = await bodyRows();
    const before = Date.now();
    await user.click(within(ada!).getByRole('button', { name: AlertTexts.acknowledgeMenuLabel(AlertTexts.rules.bp_crisis) }));
    await user.click(await screen.findByRole('menuitem', { name: AlertTexts.snooze1h }));
    expect(await screen.findByText(AlertTexts.acknowledged)).toBeInTheDocument();
    const post = posts.find((p) => p.url === '/api/alerts/11/acknowledge')!;
    const until = new Date((post.body as { snooze_until: string }).snooze_until).getTime();
    expect(until - before).toBeGreaterThanOrEqual(3_600_000);
    expect(until - before).toBeLessThan(3_600_000 + 60_000);
    await waitFor(() => expect(charles).toHaveFocus());
  });

  it('acknowledges without a snooze with an empty body', async () => {
    const user = userEvent.setup();
    renderWorklist();
    const [, charles] = await bodyRows();
    await user.click(within(charles!).getByRole('button', { name: AlertTexts.acknowledgeMenuLabel(AlertTexts.rules.stale_data) }));
    await user.click(await screen.findByRole('menuitem', { name: AlertTexts.snoozeNone }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({ url: '/api/alerts/13/acknowledge', body: {} });
  });

  it('resolves only with a reason and a note, then moves focus to the previous patient after the last', async () => {
    const user = userEvent.setup();
    renderWorklist();
    const [ada, charles] = await bodyRows();
    await user.click(within(charles!).getByRole('button', { name: AlertTexts.resolveButtonLabel(AlertTexts.rules.stale_data) }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: AlertTexts.resolveNote }), 'Called; cuff replaced');
    await user.click(within(dialog).getByRole('button', { name: AlertTexts.resolve }));
    expect(await within(dialog).findByText(AlertTexts.resolveReasonRequired)).toBeInTheDocument();
    expect(posts).toHaveLength(0);

    await user.click(within(dialog).getByRole('combobox', { name: new RegExp(AlertTexts.resolveReason) }));
    await user.click(await screen.findByRole('option', { name: AlertTexts.reasons.device_or_technique }));
    await user.type(within(dialog).getByRole('textbox', { name: AlertTexts.resolveMinutes }), '5');
    await user.click(within(dialog).getByRole('button', { name: AlertTexts.resolve }));
    expect(await screen.findByText(AlertTexts.resolved)).toBeInTheDocument();
    expect(posts[0]).toEqual({
      url: '/api/alerts/13/resolve',
      body: { reason: 'device_or_technique', note: 'Called; cuff replaced', minutes: 5 },
    });
    await waitFor(() => expect(ada).toHaveFocus());
  });

  it('says so when there is nothing to do, and when the list failed', async () => {
    server.use(http.get('/api/alerts/worklist', () => HttpResponse.json({ items: [], total: 0, alerts: 0 })));
    const { unmount } = renderWorklist();
    expect(await screen.findByText(AlertTexts.empty)).toBeInTheDocument();
    unmount();
    server.use(http.get('/api/alerts/worklist', () => HttpResponse.json({ message: 'Boom' }, { status: 500 })));
    renderWorklist();
    expect(await screen.findByRole('alert')).toBeInTheDocument();
  });

  it('snoozes "tomorrow" until 8:00 the next morning in the user\'s time zone', () => {
    const now = Date.parse('2026-03-10T22:30:00.000Z');
    expect(snoozeUntil('tomorrow', 'America/New_York', now)).toBe('2026-03-11T12:00:00.000Z');
    // 23:30 in Berlin: tomorrow is the 11th there too.
    expect(snoozeUntil('tomorrow', 'Europe/Berlin', now)).toBe('2026-03-11T07:00:00.000Z');
    expect(snoozeUntil('tomorrow', 'Asia/Tokyo', now)).toBe('2026-03-11T23:00:00.000Z');
    expect(snoozeUntil('none', 'UTC', now)).toBeUndefined();
  });
});
