import { BillingTexts, type BillingReport, type Organization } from '@rpm/contracts';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser, runPortalTestServer, server, signInForTest } from '../../lib/testing/portal-test-server.ts';
import { renderApp } from '../../lib/testing/render-app.tsx';

runPortalTestServer();

const report: BillingReport = {
  month: '2026-10',
  closed: false,
  closed_at: null,
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
};

function answer(calls: string[]) {
  server.use(
    http.get('/api/billing', ({ request }) => {
      calls.push(new URL(request.url).search);
      return HttpResponse.json(report);
    }),
    http.get('/api/organizations', () => HttpResponse.json([{ id: 1, name: 'North Clinic' }] satisfies Organization[])),
  );
}

describe('billing page', { timeout: 30_000 }, () => {
  it('shows each patient’s days, minutes, contact, codes and what is missing, with totals', async () => {
    const calls: string[] = [];
    answer(calls);
    signInForTest(makeUser({ role: 'provider' }));
    renderApp('/billing?month=2026-10');
    const table = await screen.findByRole('table', { name: BillingTexts.title }, { timeout: 15_000 });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'Billie Monitored',
      '2026-10-01 – 2026-10-30',
      '18',
      '45',
      BillingTexts.yes,
      '99454, 99457, 99458',
      '',
    ]);
    expect(rows[2]).toHaveTextContent('3 more days of readings for 99454; 8 more minutes for 99457; an interactive contact is needed');
    expect(screen.getByTestId('billing-totals')).toHaveTextContent(`${BillingTexts.totals}: 99454, 99457, 99458`);
    expect(calls).toEqual(['?month=2026-10']);
    // Providers see their own organization: no filter, no closing; the export keeps the month.
    expect(screen.queryByLabelText(BillingTexts.organization)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: BillingTexts.closeMonth })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: BillingTexts.exportCsv })).toHaveAttribute('href', '/api/billing/export.csv?month=2026-10');
  });

  it('gives admins the organization filter and the month closing', async () => {
    answer([]);
    signInForTest(makeUser({ role: 'admin', organization_id: null }));
    renderApp('/billing?month=2026-10&organization_id=1');
    await screen.findByRole('table', { name: BillingTexts.title }, { timeout: 15_000 });
    expect(screen.getByRole('button', { name: BillingTexts.closeMonth })).toBeInTheDocument();
    expect(await screen.findByRole('combobox', { name: BillingTexts.organization })).toHaveTextContent('North Clinic');
    expect(screen.getByRole('link', { name: BillingTexts.exportCsv })).toHaveAttribute(
      'href',
      '/api/billing/export.csv?month=2026-10&organization_id=1',
    );
  });
});
