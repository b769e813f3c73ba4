import { Labels, PatientTexts, type PatientDetail } from '@rpm/contracts';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TIMEZONE_STORAGE_KEY } from '@rpm/contracts';
import { renderPage } from '../../lib/testing/render-page.tsx';
import PatientDetailPage from './patient-detail-page.tsx';

const patient: PatientDetail = {
  id: 4,
  first_name: 'Ada',
  middle_name: null,
  last_name: 'Lovelace',
  date_of_birth: '1950-12-10',
  gender: 'female',
  organization_id: 1,
  primary_provider_id: 7,
  enrolled_rpm: false,
  enrollment_status: null,
  enrollment_status_legacy: null,
  organization_name: 'North Clinic',
  primary_provider_name: 'Grace Hopper, MD',
  devices: [],
  device_ids: [],
  insurances: [
    { id: 1, type: 'Private', provider_name: 'Acme', policy_number: 'P-1', policyholder: 'Charles Babbage', policyholder_birthdate: '1940-01-02' },
    { id: 2, type: 'Medicare', provider_name: 'CMS', policy_number: 'M-1', policyholder: null, policyholder_birthdate: null },
  ],
};

const server = setupServer(
  http.get('/api/patients/4', () => HttpResponse.json(patient)),
  http.get('/api/patients/4/vitals', () =>
    HttpResponse.json({
      items: [
        { created_at: '2026-01-10T12:00:00.000Z', systolic: 141, diastolic: 91, pulse: 70 },
        { created_at: '2026-01-09T12:00:00.000Z', systolic: 140, diastolic: 90, pulse: 70 },
        { created_at: '2026-01-08T12:00:00.000Z', systolic: 181, diastolic: 80, pulse: 70 },
      ],
      total: 3,
    }),
  ),
  http.get('/api/patients/4/notes', () =>
    HttpResponse.json({
      items: [{ id: 1, content: 'Reviewed', created_at: '2026-01-10T23:30:00.000Z', author: 'Grace Hopper, MD' }],
      total: 1,
    }),
  ),
  http.get('/api/patients/4/sessions', () =>
    HttpResponse.json({
      items: [{ id: 1, date: '2026-01-05', duration_minutes: 25, notes: null }],
      total: 1,
      month_totals: [
        { month: '2026-01', minutes: 25 },
        { month: '2025-12', minutes: 40 },
      ],
    }),
  ),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const renderDetailPage = () =>
  renderPage(
    <Routes>
      <Route path="/patients/:id" element={<PatientDetailPage />} />
    </Routes>,
    '/patients/4',
  );

describe('patient detail', { timeout: 20_000 }, () => {
  it("shows 'N/A' for an empty status, and policyholder fields for Private insurance only", async () => {
    renderDetailPage();
    await screen.findByRole('heading', { name: 'Ada Lovelace' });
    const status = screen.getByText(PatientTexts.status, { selector: 'dt' });
    expect(status.nextElementSibling).toHaveTextContent(Labels.notAvailable);
    const [privateCard, medicareCard] = screen.getAllByTestId('insurance-card');
    expect(within(privateCard!).getByText('Charles Babbage')).toBeInTheDocument();
    expect(within(privateCard!).getByText('1940-01-02')).toBeInTheDocument();
    expect(within(medicareCard!).queryByText(PatientTexts.policyholder)).not.toBeInTheDocument();
    expect(screen.getAllByText('Grace Hopper, MD')).not.toHaveLength(0);
  });

  it('shows age and gender, marks high and critical readings with a legend, note authors and monthly totals', async () => {
    renderDetailPage();
    await screen.findByRole('heading', { name: 'Ada Lovelace' });
    const term = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling;
    const today = new Date();
    const expectedAge = today.getFullYear() - 1950 - (today.getMonth() < 11 || (today.getMonth() === 11 && today.getDate() < 10) ? 1 : 0);
    expect(term(PatientTexts.age)).toHaveTextContent(`${expectedAge} ${PatientTexts.years}`);
    expect(term(PatientTexts.gender)).toHaveTextContent(PatientTexts.gender_female);

    const vitals = await screen.findByRole('table', { name: PatientTexts.vitals });
    const rows = within(vitals).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-level'))).toEqual(['high', 'normal', 'critical']);
    // A word, not only a colour: high above 140/90 (140/90 itself is not), critical above 180/120.
    expect(within(rows[0]!).getByText(PatientTexts.readingHigh)).toBeInTheDocument();
    expect(within(rows[1]!).queryByText(PatientTexts.readingHigh)).not.toBeInTheDocument();
    expect(within(rows[2]!).getByText(PatientTexts.readingCritical)).toBeInTheDocument();
    const legend = screen.getByRole('note', { name: PatientTexts.readingLegend });
    expect(legend).toHaveTextContent(`${PatientTexts.readingHigh} ${PatientTexts.readingHighRule}`);
    expect(legend).toHaveTextContent(`${PatientTexts.readingCritical} ${PatientTexts.readingCriticalRule}`);

    const notes = await screen.findByRole('list', { name: PatientTexts.clinicalNotes });
    expect(within(notes).getByText('Grace Hopper, MD')).toBeInTheDocument();
    expect(await screen.findByTestId('tracking-month-totals')).toHaveTextContent(
      `${PatientTexts.monthlyTotals}: 2026-01: 25 ${PatientTexts.minutesShort} · 2025-12: 40 ${PatientTexts.minutesShort}`,
    );
  });

  it('shows vitals and note times in the chosen timezone', async () => {
    localStorage.setItem(TIMEZONE_STORAGE_KEY, 'Asia/Tokyo');
    renderDetailPage();
    const vitals = await screen.findByRole('table', { name: PatientTexts.vitals });
    expect(within(vitals).getByText('2026-01-10 21:00')).toBeInTheDocument();
    // 23:30 UTC is the next morning in Tokyo.
    expect(await screen.findByText('2026-01-11 08:30')).toBeInTheDocument();
  });
});
