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
    HttpResponse.json({ items: [{ created_at: '2026-01-10T12:00:00.000Z', systolic: 141, diastolic: 91, pulse: 70 }], total: 1 }),
  ),
  http.get('/api/patients/4/notes', () =>
    HttpResponse.json({ items: [{ id: 1, content: 'Reviewed', created_at: '2026-01-10T23:30:00.000Z' }], total: 1 }),
  ),
  http.get('/api/patients/4/sessions', () => HttpResponse.json({ items: [], total: 0 })),
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
    expect(screen.getByText('Grace Hopper, MD')).toBeInTheDocument();
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
