import {
  BillingErrors,
  BillingPageTexts,
  BillingTexts,
  Labels,
  type BillingClaimsSent,
  type BillingClosing,
  type BillingReopening,
  type BillingReport,
  type Organization,
} from '@rpm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { makeUser, runPortalTestServer, server, signInForTest } from '../../lib/testing/portal-test-server.ts';
import { renderApp } from '../../lib/testing/render-app.tsx';

runPortalTestServer();

const report: BillingReport = {
  month: '2026-10',
  closed: false,
  closed_at: null,
  claims_sent_at: null,
  rows: [
    {
      patient_id: 7,
      patient_name: 'Billie Monitored',
      organization_id: 1,
      period_start: '2026-10-01',
      period_end: '2026-10-30',
      device_days: 18,
      minutes: 45,
      interactive: true,
      codes: [
        { code: '99454', units: 1, period_start: '2026-10-01', period_end: '2026-10-30' },
        { code: '99457', units: 1, period_start: '2026-10-01', period_end: '2026-10-31' },
        { code: '99458', units: 1, period_start: '2026-10-01', period_end: '2026-10-31' },
      ],
      missing: [],
    },
    {
      patient_id: 8,
      patient_name: 'Nolan Readings',
      organization_id: 1,
      period_start: '2026-10-12',
      period_end: '2026-11-10',
      device_days: 13,
      minutes: 12,
      interactive: false,
      codes: [],
      missing: ['3 more days of readings for 99454', '8 more minutes for 99457', 'an interactive contact is needed'],
    },
  ],
  totals: [
    { code: '99454', units: 1 },
    { code: '99457', units: 1 },
    { code: '99458', units: 1 },
  ],
  total: 2,
  limit: 50,
  offset: 0,
};

const organizations: Organization[] = [
  { id: 1, name: 'North Clinic' },
  { id: 2, name: 'South Clinic' },
];

function answer(calls: string[], shown: BillingReport = report) {
  server.use(
    http.get('/api/billing', ({ request }) => {
      calls.push(new URL(request.url).search);
      return HttpResponse.json(shown);
    }),
    http.get('/api/organizations', () => HttpResponse.json(organizations)),
  );
}

/** The clock on a fixed day of November 2026 (only Date: the page's timers run as usual). */
function todayIs(iso: string) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(iso));
}

const findReport = () => screen.findByRole('table', { name: BillingTexts.title }, { timeout: 15_000 });

describe('billing page', { timeout: 30_000 }, () => {
  it('shows each patient’s days, minutes, contact, codes and what is missing, with totals', async () => {
    const calls: string[] = [];
    answer(calls);
    signInForTest(makeUser({ role: 'provider' }));
    renderApp('/billing?month=2026-10');
    const table = await findReport();
    // A month in the address opens the report (the links made before the worklist still work).
    expect(screen.getByRole('tab', { name: BillingPageTexts.reportTab })).toHaveAttribute('aria-selected', 'true');
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Billie Monitored', '2026-10-01 – 2026-10-30', '18', '45', BillingTexts.yes, '99454, 99457, 99458', '']);
    expect(rows[2]).toHaveTextContent(
      '3 more days of readings for 99454; 8 more minutes for 99457; an interactive contact is needed',
    );
    expect(screen.getByTestId('billing-totals')).toHaveTextContent(`${BillingTexts.totals}: 99454, 99457, 99458`);
    expect(calls).toEqual(['?month=2026-10']);
    // The totals are the server's, over every row; the pager says which of them are shown.
    const pager = screen.getByRole('navigation', { name: BillingPageTexts.pager });
    expect(within(pager).getByRole('status')).toHaveTextContent(BillingPageTexts.showing(1, 2, 2));
    expect(within(pager).getByRole('button', { name: BillingPageTexts.pageButton.next })).toBeDisabled();
    // Providers see their own organization: no filter, no closing; the export keeps the month.
    expect(screen.queryByLabelText(BillingTexts.organization)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: BillingTexts.closeMonth })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: BillingTexts.exportCsv })).toHaveAttribute(
      'href',
      '/api/billing/export.csv?month=2026-10',
    );
  });

  it('gives admins the organization filter and the month closing', async () => {
    todayIs('2026-11-15T12:00:00Z');
    answer([]);
    signInForTest(makeUser({ role: 'admin', organization_id: null }));
    renderApp('/billing?month=2026-10&organization_id=1');
    await findReport();
    expect(screen.getByRole('button', { name: BillingTexts.closeMonth })).toBeInTheDocument();
    expect(await screen.findByRole('combobox', { name: BillingTexts.organization })).toHaveTextContent('North Clinic');
    expect(screen.getByRole('link', { name: BillingTexts.exportCsv })).toHaveAttribute(
      'href',
      '/api/billing/export.csv?month=2026-10&organization_id=1',
    );
  });

  it('asks before closing, naming every organization the close covers, whatever the filter shows', async () => {
    todayIs('2026-11-15T12:00:00Z');
    answer([]);
    const closed: string[] = [];
    server.use(
      http.post('/api/billing/:month/close', ({ params }) => {
        closed.push(String(params.month));
        return HttpResponse.json({
          month: '2026-10',
          closed: true,
          closed_at: '2026-11-15T12:00:00Z',
        } satisfies BillingClosing);
      }),
    );
    signInForTest(makeUser({ role: 'admin', organization_id: null }));
    const user = userEvent.setup();
    renderApp('/billing?month=2026-10&organization_id=1');
    await findReport();
    await user.click(screen.getByRole('button', { name: BillingTexts.closeMonth }));
    const dialog = await screen.findByRole('dialog', { name: BillingTexts.closeMonthTitle });
    expect(dialog).toHaveTextContent(BillingPageTexts.closeMonthCovers);
    const list = await within(dialog).findByRole('list', { name: BillingTexts.allOrganizations });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['North Clinic', 'South Clinic']);
    await user.click(within(dialog).getByRole('button', { name: BillingTexts.closeMonth }));
    expect(await screen.findByText(BillingTexts.monthClosedToast)).toBeInTheDocument();
    expect(closed).toEqual(['2026-10']);
  });

  it('does not offer to close a month that has not ended', async () => {
    todayIs('2026-11-15T12:00:00Z');
    answer([], { ...report, month: '2026-11', rows: [], totals: [], total: 0 });
    signInForTest(makeUser({ role: 'admin', organization_id: null }));
    renderApp('/billing?view=report&month=2026-11');
    expect(await screen.findByText(BillingTexts.noRows, {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: BillingTexts.exportCsv })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: BillingTexts.closeMonth })).not.toBeInTheDocument();
  });

  it('shows when a closed month was closed, and reopens it with a required reason', async () => {
    todayIs('2026-11-15T12:00:00Z');
    answer([], { ...report, closed: true, closed_at: '2026-11-02T14:05:00Z' });
    const bodies: unknown[] = [];
    let refuse = true;
    server.use(
      http.post('/api/billing/:month/reopen', async ({ request }) => {
        bodies.push(await request.json());
        if (refuse) return HttpResponse.json({ message: BillingErrors.claimsSent }, { status: 409 });
        return HttpResponse.json({
          month: '2026-10',
          closed: false,
          reopened_at: '2026-11-15T12:00:00Z',
        } satisfies BillingReopening);
      }),
    );
    signInForTest(makeUser({ role: 'admin', organization_id: null }));
    const user = userEvent.setup();
    renderApp('/billing?month=2026-10');
    await findReport();
    expect(screen.getByText(/^Closed 2026-11-0[12] \d\d:05$/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: BillingTexts.closeMonth })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: BillingPageTexts.reopenMonth }));
    const dialog = await screen.findByRole('dialog', { name: BillingPageTexts.reopenTitle });
    const submit = within(dialog).getByRole('button', { name: BillingPageTexts.reopenMonth });
    // No reason, no request.
    await user.click(submit);
    expect(await within(dialog).findByText(BillingPageTexts.reopenReasonRequired)).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: BillingPageTexts.reopenReason }), '   ');
    await user.click(submit);
    expect(bodies).toEqual([]);

    // The server's refusal is said in the dialog, which keeps the reason.
    await user.clear(within(dialog).getByRole('textbox', { name: BillingPageTexts.reopenReason }));
    await user.type(
      within(dialog).getByRole('textbox', { name: BillingPageTexts.reopenReason }),
      'Wrong minutes for one patient',
    );
    await user.click(submit);
    expect(await within(dialog).findByText(BillingErrors.claimsSent)).toBeInTheDocument();
    refuse = false;
    await user.click(submit);
    expect(await screen.findByText(BillingPageTexts.reopenedToast)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([{ reason: 'Wrong minutes for one patient' }, { reason: 'Wrong minutes for one patient' }]);
  });

  it('marks a closed month’s claims sent after asking; then the month can no longer be reopened', async () => {
    todayIs('2026-11-15T12:00:00Z');
    let shown: BillingReport = { ...report, closed: true, closed_at: '2026-11-02T14:05:00Z' };
    const sent: string[] = [];
    server.use(
      http.get('/api/billing', () => HttpResponse.json(shown)),
      http.get('/api/organizations', () => HttpResponse.json(organizations)),
      http.post('/api/billing/:month/claims-sent', ({ params }) => {
        sent.push(String(params.month));
        shown = { ...shown, claims_sent_at: '2026-11-15T12:00:00Z' };
        return HttpResponse.json({
          month: '2026-10',
          claims_sent_at: '2026-11-15T12:00:00Z',
        } satisfies BillingClaimsSent);
      }),
    );
    signInForTest(makeUser({ role: 'admin', organization_id: null }));
    const user = userEvent.setup();
    renderApp('/billing?month=2026-10');
    await findReport();
    await user.click(screen.getByRole('button', { name: BillingPageTexts.markClaimsSent }));
    const dialog = await screen.findByRole('dialog', { name: BillingPageTexts.claimsSentTitle });
    expect(dialog).toHaveTextContent(BillingPageTexts.claimsSentBody);
    await user.click(within(dialog).getByRole('button', { name: Labels.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent).toEqual([]);
    await user.click(screen.getByRole('button', { name: BillingPageTexts.markClaimsSent }));
    const again = await screen.findByRole('dialog', { name: BillingPageTexts.claimsSentTitle });
    await user.click(within(again).getByRole('button', { name: BillingPageTexts.markClaimsSent }));
    expect(await screen.findByText(BillingPageTexts.claimsSentToast)).toBeInTheDocument();
    expect(sent).toEqual(['2026-10']);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText(/^Claims sent 2026-11-1[45] \d\d:00$/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: BillingPageTexts.reopenMonth })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: BillingPageTexts.markClaimsSent })).not.toBeInTheDocument();
  });

  it('shows a provider the month’s state but none of the admin’s steps', async () => {
    todayIs('2026-11-15T12:00:00Z');
    answer([], { ...report, closed: true, closed_at: '2026-11-02T14:05:00Z' });
    signInForTest(makeUser({ role: 'provider' }));
    renderApp('/billing?month=2026-10');
    await findReport();
    expect(screen.getByText(/^Closed 2026-11-0[12]/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: BillingPageTexts.reopenMonth })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: BillingPageTexts.markClaimsSent })).not.toBeInTheDocument();
  });
});
