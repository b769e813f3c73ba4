/** The printable summary page against an answer of the summary call (MSW), as a provider sees it. */
import { screen, within } from '@testing-library/react';
import { SummaryTexts, summaryMonthLabel, type MonthlySummary } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { renderApp } from '../../lib/testing/render-app.tsx';
import { makeUser, runPortalTestServer, server, signInForTest } from '../../lib/testing/portal-test-server.ts';

runPortalTestServer();

const summary: MonthlySummary = {
  month: '2026-03',
  time_zone: 'America/New_York',
  period_start: '2026-03-01T05:00:00.000Z',
  period_end: '2026-04-01T04:00:00.000Z',
  complete: true,
  patient: { id: 7, name: 'Ada Newyork', date_of_birth: '1950-02-03' },
  organization: { id: 1, name: 'North Clinic' },
  programs: [{ id: 'hypertension', label: 'Hypertension' }],
  kinds: [
    {
      kind: 'blood_pressure',
      label: 'Blood pressure',
      count: 4,
      days_measured: 2,
      in_target: 3,
      in_target_share: 0.75,
      components: [
        { code: 'systolic', label: 'Systolic', ucum: 'mm[Hg]', unit: 'mmHg', decimals: 0, count: 4, mean: 128, min: 118, max: 142 },
        { code: 'diastolic', label: 'Diastolic', ucum: 'mm[Hg]', unit: 'mmHg', decimals: 0, count: 4, mean: 81, min: 76, max: 92 },
      ],
    },
  ],
  alerts: { raised: 3, open: 1, resolved: [{ reason: 'reached_patient', count: 2 }] },
  notes: [],
  tracking: { minutes: 27, live_contacts: 1, entries: [{ date: '2026-03-31', minutes: 15, activity: 'phone_call', interactive: true, contact_type: 'phone' }] },
  codes: [{ code: '99457', units: 1, period_start: '2026-03-01', period_end: '2026-03-31' }],
};

const answer = (status: number, body: unknown) =>
  server.use(http.get('/api/patients/7/summary', () => HttpResponse.json(body as object, { status })));

describe('monthly summary page', { timeout: 30_000 }, () => {
  it('shows the month, the patient and each kind’s figures, with the downloads', async () => {
    answer(200, summary);
    signInForTest(makeUser({ role: 'provider' }));
    renderApp('/patients/7/summary/2026-03');
    const heading = await screen.findByRole('heading', { level: 1 }, { timeout: 15_000 });
    await within(document.body).findByText('Ada Newyork', undefined, { timeout: 15_000 });
    expect(screen.getByRole('heading', { level: 1, name: `${SummaryTexts.title}: ${summaryMonthLabel('2026-03')}` })).toBeDefined();
    expect(heading).toBeDefined();
    const table = screen.getByRole('table', { name: SummaryTexts.readings });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]!.textContent).toContain('128');
    expect(rows[1]!.textContent).toContain('75 %');
    expect(screen.getByText(SummaryTexts.noNotes)).toBeDefined();
    expect(screen.getByRole('link', { name: SummaryTexts.downloadPdf }).getAttribute('href')).toBe(
      '/api/patients/7/summary.pdf?month=2026-03',
    );
    expect(screen.getByRole('link', { name: SummaryTexts.downloadLetter }).getAttribute('href')).toBe(
      '/api/patients/7/summary.pdf?month=2026-03&paper=letter',
    );
    expect(screen.getByRole('link', { name: SummaryTexts.previousMonth }).getAttribute('href')).toBe('/patients/7/summary/2026-02');
  });

  it('says so when the summary cannot be loaded', async () => {
    answer(500, {});
    signInForTest(makeUser({ role: 'provider' }));
    renderApp('/patients/7/summary/2026-03');
    expect(await screen.findByRole('alert', undefined, { timeout: 15_000 })).toHaveTextContent(SummaryTexts.loadFailed);
  });
});
