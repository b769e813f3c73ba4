import {
  BillingPageTexts,
  BillingTexts,
  ContactTypeLabels,
  TrackingActivityLabels,
  type PatientBilling,
} from '@rpm/contracts';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser, runPortalTestServer, server, signInForTest } from '../../lib/testing/portal-test-server.ts';
import { renderApp } from '../../lib/testing/render-app.tsx';

runPortalTestServer();

// A period that starts in the month and runs into the next: 3 of the month's 4 days with readings fall in it.
const evidence: PatientBilling = {
  month: '2026-10',
  closed: true,
  time_zone: 'America/New_York',
  patient: {
    name: 'Billie Monitored',
    date_of_birth: '1948-05-06',
    insurances: [{ type: 'Medicare', policy_number: '1EG4-TE5-MK73' }],
    devices: [
      { name: 'BP cuff', serial: 'CUFF-E2E' },
      { name: 'Scale', serial: null },
    ],
    ordering_provider: 'Dana Doctor',
    consent_date: '2026-09-28',
    diagnosis_codes: ['I10', 'E11.9'],
  },
  row: {
    patient_id: 7,
    patient_name: 'Billie Monitored',
    organization_id: 1,
    period_start: '2026-10-12',
    period_end: '2026-11-10',
    device_days: 17,
    minutes: 25,
    interactive: true,
    codes: [{ code: '99457', units: 1, period_start: '2026-10-01', period_end: '2026-10-31' }],
    missing: [],
  },
  reading_days: [
    { day: '2026-10-03', readings: 2 },
    { day: '2026-10-12', readings: 1 },
    { day: '2026-10-20', readings: 2 },
    { day: '2026-10-31', readings: 1 },
  ],
  entries: [
    {
      id: 1,
      date: '2026-10-03',
      duration_minutes: 10,
      interactive: false,
      contact_type: null,
      activity: 'review_readings',
      notes: null,
      logged_by: 'Pat Provider',
    },
    {
      id: 2,
      date: '2026-10-09',
      duration_minutes: 15,
      interactive: true,
      contact_type: 'phone',
      activity: 'phone_call',
      notes: 'Talked through the readings',
      logged_by: 'Pat Provider',
    },
  ],
};

const cellsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );

describe('billing evidence page', { timeout: 30_000 }, () => {
  it('shows who the claim is for, counts that say what they count, the days and the entries with activity and contact', async () => {
    const asked: string[] = [];
    server.use(
      http.get('/api/patients/7/billing', ({ request }) => {
        asked.push(new URL(request.url).search);
        return HttpResponse.json(evidence);
      }),
    );
    signInForTest(makeUser({ role: 'provider' }));
    renderApp('/billing/patients/7?month=2026-10');
    expect(await screen.findByRole('heading', { level: 1 }, { timeout: 15_000 })).toHaveTextContent(
      `${BillingTexts.evidenceTitle}: Billie Monitored`,
    );
    expect(asked).toEqual(['?month=2026-10']);

    const facts = screen.getByTestId('evidence-patient');
    const terms = within(facts)
      .getAllByRole('term')
      .map((t) => t.textContent);
    const values = within(facts)
      .getAllByRole('definition')
      .map((d) => d.textContent);
    expect(Object.fromEntries(terms.map((t, i) => [t, values[i]]))).toEqual({
      [BillingPageTexts.dateOfBirth]: '1948-05-06',
      [BillingPageTexts.insurance]: 'Medicare (1EG4-TE5-MK73)',
      [BillingPageTexts.devices]: `BP cuff (CUFF-E2E); Scale (${BillingPageTexts.notRecorded})`,
      [BillingPageTexts.orderingProvider]: 'Dana Doctor',
      [BillingPageTexts.consentDate]: '2026-09-28',
      [BillingPageTexts.diagnosisCodes]: 'I10; E11.9',
    });

    // The period's device days and the calendar month's days are different counts, each named.
    const counts = within(screen.getByTestId('evidence-counts'))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(counts).toEqual([
      BillingPageTexts.evidencePeriodDays(17, '2026-10-12', '2026-11-10'),
      BillingPageTexts.evidenceMonthMinutes(25, '2026-10'),
      BillingPageTexts.evidenceLiveContact(true),
      `${BillingTexts.codes}: 99457 (2026-10-01 – 2026-10-31)`,
    ]);
    expect(counts[0]).toContain('17 days (16 needed for 99454');
    expect(document.body).not.toHaveTextContent(/\d+ of 16/);

    expect(
      screen.getByRole('heading', { level: 2, name: BillingPageTexts.evidenceMonthDays(4, '2026-10') }),
    ).toBeInTheDocument();
    expect(cellsOf(screen.getByRole('table', { name: BillingTexts.evidenceReadingDays }))).toEqual([
      ['2026-10-03', '2', BillingTexts.no],
      ['2026-10-12', '1', BillingTexts.yes],
      ['2026-10-20', '2', BillingTexts.yes],
      ['2026-10-31', '1', BillingTexts.yes],
    ]);

    expect(
      screen.getByRole('heading', { level: 2, name: BillingPageTexts.evidenceEntriesCount(2, 25) }),
    ).toBeInTheDocument();
    expect(cellsOf(screen.getByRole('table', { name: `${BillingTexts.evidenceEntries} 2026-10` }))).toEqual([
      ['2026-10-03', '10', TrackingActivityLabels.review_readings, BillingTexts.no, 'Pat Provider', ''],
      [
        '2026-10-09',
        '15',
        TrackingActivityLabels.phone_call,
        ContactTypeLabels.phone,
        'Pat Provider',
        'Talked through the readings',
      ],
    ]);
  });

  it('says what is not recorded and that no period has started', async () => {
    server.use(
      http.get('/api/patients/8/billing', () =>
        HttpResponse.json({
          ...evidence,
          closed: false,
          patient: {
            name: 'Nolan Readings',
            date_of_birth: null,
            insurances: [],
            devices: [],
            ordering_provider: null,
            consent_date: null,
            diagnosis_codes: [],
          },
          row: {
            ...evidence.row,
            patient_id: 8,
            patient_name: 'Nolan Readings',
            period_start: null,
            period_end: null,
            device_days: 0,
            codes: [],
          },
          reading_days: [],
          entries: [],
        } satisfies PatientBilling),
      ),
    );
    signInForTest(makeUser({ role: 'provider' }));
    renderApp('/billing/patients/8?month=2026-10');
    const facts = await screen.findByTestId('evidence-patient', {}, { timeout: 15_000 });
    expect(
      within(facts)
        .getAllByRole('definition')
        .map((d) => d.textContent),
    ).toEqual(Array(6).fill(BillingPageTexts.notRecorded));
    expect(screen.getByTestId('evidence-counts')).toHaveTextContent(BillingPageTexts.evidenceNoPeriod);
    expect(screen.getByText(BillingTexts.evidenceNoDays)).toBeInTheDocument();
    expect(screen.getByText(BillingTexts.evidenceNoEntries)).toBeInTheDocument();
  });
});
