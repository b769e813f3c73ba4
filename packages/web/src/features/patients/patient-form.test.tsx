import {
  ENROLLMENT_STATUSES,
  Labels,
  PatientErrors,
  PatientTexts,
  Validation,
  type PatientInput,
} from '@rpm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import { PatientForm } from './patient-form-page.tsx';
import { emptyPatientForm } from './patient-form-values.ts';
import { PatientList } from './patients-page.tsx';

let lastBody: PatientInput | null = null;
const server = setupTestServer(
  http.get('/api/organizations', () => HttpResponse.json([{ id: 1, name: 'North Clinic' }])),
  http.get('/api/organizations/1/providers', () => HttpResponse.json([{ id: 7, name: 'Dr. Who' }])),
  http.get('/api/devices', () => HttpResponse.json([])),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  lastBody = null;
});
afterAll(() => server.close());

function wrap(ui: ReactNode, path = '/patients/add') {
  return renderPage(
    <Routes>
      <Route path="/patients/add" element={ui} />
      <Route path="/patients" element={ui} />
      <Route path="/patients/:id" element={<p>detail page</p>} />
    </Routes>,
    path,
  );
}

const renderForm = (isAdmin = false) =>
  wrap(<PatientForm patientId={null} initial={emptyPatientForm(1)} isAdmin={isAdmin} currentOrganizationName={null} />);

// Generous timeouts: these drive a whole form with user-event on a shared, busy machine.
describe('patient form', { timeout: 20_000 }, () => {
  it('shows the insurance messages only once a field loses focus', async () => {
    const user = userEvent.setup();
    renderForm();
    await user.click(screen.getByRole('button', { name: PatientTexts.addInsurance }));
    const type = screen.getByLabelText(`${PatientTexts.type} 1`);
    const provider = screen.getByLabelText(`${PatientTexts.insuranceProvider} 1`);
    const policy = screen.getByLabelText(`${PatientTexts.policyNumber} 1`);
    expect(screen.queryByText(Validation.insuranceType)).not.toBeInTheDocument();

    await user.click(type);
    await user.tab();
    expect(await screen.findByText(Validation.insuranceType)).toBeInTheDocument();
    expect(screen.queryByText(Validation.insuranceProvider)).not.toBeInTheDocument();

    await user.click(provider);
    await user.tab();
    expect(await screen.findByText(Validation.insuranceProvider)).toBeInTheDocument();
    expect(screen.queryByText(Validation.insurancePolicyNumber)).not.toBeInTheDocument();

    await user.click(policy);
    await user.tab();
    expect(await screen.findByText(Validation.insurancePolicyNumber)).toBeInTheDocument();

    await user.type(provider, 'Acme');
    await user.tab();
    await waitFor(() => expect(screen.queryByText(Validation.insuranceProvider)).not.toBeInTheDocument());
  });

  it('still checks fields as they are left after a first Save attempt (insurance added afterwards)', async () => {
    const user = userEvent.setup();
    renderForm();
    await user.click(screen.getByRole('button', { name: Labels.save }));
    expect(await screen.findByText(Validation.firstNameRequired)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: PatientTexts.addInsurance }));
    await user.click(screen.getByLabelText(`${PatientTexts.insuranceProvider} 1`));
    await user.tab();
    expect(await screen.findByText(Validation.insuranceProvider)).toBeInTheDocument();
  });

  it('shows policyholder fields only for Private insurance', async () => {
    const user = userEvent.setup();
    renderForm();
    await user.click(screen.getByRole('button', { name: PatientTexts.addInsurance }));
    const type = screen.getByLabelText(`${PatientTexts.type} 1`);
    expect(screen.queryByLabelText(`${PatientTexts.policyholder} 1`)).not.toBeInTheDocument();
    await user.selectOptions(type, 'Private');
    expect(screen.getByLabelText(`${PatientTexts.policyholder} 1`)).toBeInTheDocument();
    expect(screen.getByLabelText(`${PatientTexts.policyholderBirthdate} 1`)).toBeInTheDocument();
    await user.selectOptions(type, 'Medicare');
    expect(screen.queryByLabelText(`${PatientTexts.policyholder} 1`)).not.toBeInTheDocument();
  });

  it('sends empty strings as null, no device_ids for a provider, and keeps the input after a failed save', async () => {
    server.use(
      http.post('/api/patients', async ({ request }) => {
        lastBody = (await request.json()) as PatientInput;
        return HttpResponse.json({ statusCode: 400, error: 'Bad Request', message: 'Server says no' }, { status: 400 });
      }),
    );
    const user = userEvent.setup();
    renderForm();
    expect(screen.queryByRole('heading', { name: PatientTexts.devices })).not.toBeInTheDocument();
    await user.type(screen.getByLabelText(new RegExp(`^${PatientTexts.firstName}`)), 'Ada');
    await user.type(screen.getByLabelText(new RegExp(`^${PatientTexts.lastName}`)), 'Lovelace');
    await user.click(screen.getByRole('button', { name: PatientTexts.addInsurance }));
    await user.selectOptions(screen.getByLabelText(`${PatientTexts.type} 1`), 'Medicare');
    await user.type(screen.getByLabelText(`${PatientTexts.insuranceProvider} 1`), 'CMS');
    await user.type(screen.getByLabelText(`${PatientTexts.policyNumber} 1`), 'M-1');
    await user.click(screen.getByRole('button', { name: Labels.save }));

    expect(await screen.findByText('Server says no')).toBeInTheDocument();
    expect(lastBody).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      middle_name: null,
      date_of_birth: null,
      enrollment_status: null,
      organization_id: 1,
      insurances: [
        {
          type: 'Medicare',
          provider_name: 'CMS',
          policy_number: 'M-1',
          policyholder: null,
          policyholder_birthdate: null,
        },
      ],
    });
    expect(lastBody && 'device_ids' in lastBody).toBe(false);
    expect(screen.getByLabelText(new RegExp(`^${PatientTexts.firstName}`))).toHaveValue('Ada');
    expect(screen.getByLabelText(`${PatientTexts.insuranceProvider} 1`)).toHaveValue('CMS');
  });

  it('shows the device section to admins', async () => {
    renderForm(true);
    expect(screen.getByRole('heading', { name: PatientTexts.devices })).toBeInTheDocument();
  });

  it('offers the enrollment statuses of the list, and finds devices by typing instead of a wall of checkboxes', async () => {
    const devices = Array.from({ length: 60 }, (_, i) => ({
      id: i + 1,
      device_id: `CUFF-${String(i + 1).padStart(3, '0')}`,
      model: 'BP7250',
      type: 'cuff',
      patient_id: null,
      battery_level: null,
      battery_at: null,
      patient: null,
    }));
    server.use(
      http.get('/api/devices', () => HttpResponse.json(devices)),
      http.post('/api/patients', async ({ request }) => {
        lastBody = (await request.json()) as PatientInput;
        return HttpResponse.json({ message: 'stop here' }, { status: 400 });
      }),
    );
    const user = userEvent.setup();
    renderForm(true);
    const status = screen.getByLabelText(PatientTexts.enrollmentStatus);
    expect([...(status as HTMLSelectElement).options].map((o) => o.value)).toEqual(['', ...ENROLLMENT_STATUSES]);
    await user.selectOptions(status, 'Paused');
    expect(screen.queryAllByRole('checkbox', { name: /CUFF-/ })).toHaveLength(0);

    const picker = screen.getByRole('combobox', { name: PatientTexts.assignedDevices });
    await user.type(picker, 'cuff-04');
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(
      Array.from({ length: 10 }, (_, i) => `CUFF-04${i} · BP7250 · cuff`),
    );
    await user.click(screen.getByRole('option', { name: /CUFF-042/ }));
    await user.clear(picker);
    await user.type(picker, '057');
    await user.click(await screen.findByRole('option', { name: /CUFF-057/ }));

    await user.type(screen.getByLabelText(new RegExp(`^${PatientTexts.firstName}`)), 'Ada');
    await user.type(screen.getByLabelText(new RegExp(`^${PatientTexts.lastName}`)), 'Lovelace');
    await user.click(screen.getByRole('button', { name: Labels.save }));
    await screen.findByText('stop here');
    expect(lastBody).toMatchObject({ enrollment_status: 'Paused', device_ids: [42, 57] });
  });

  it('refuses to submit without first and last names', async () => {
    const user = userEvent.setup();
    renderForm();
    await user.click(screen.getByRole('button', { name: Labels.save }));
    expect(await screen.findByText(Validation.firstNameRequired)).toBeInTheDocument();
    expect(screen.getByText(Validation.lastNameRequired)).toBeInTheDocument();
    expect(lastBody).toBeNull();
  });
});

describe('editing', { timeout: 20_000 }, () => {
  it('keeps the saved primary provider selected while the provider list loads, and sends it', async () => {
    server.use(
      http.get('/api/organizations/1/providers', async () => {
        await new Promise((r) => setTimeout(r, 150));
        return HttpResponse.json([
          { id: 5, name: 'Dr. Five' },
          { id: 7, name: 'Dr. Who' },
        ]);
      }),
      http.put('/api/patients/3', async ({ request }) => {
        lastBody = (await request.json()) as PatientInput;
        return HttpResponse.json({ statusCode: 400, error: 'Bad Request', message: 'stop here' }, { status: 400 });
      }),
    );
    const user = userEvent.setup();
    const initial = { ...emptyPatientForm(1), first_name: 'Ada', last_name: 'Lovelace', primary_provider_id: '7' };
    wrap(
      <PatientForm
        patientId={3}
        initial={initial}
        isAdmin={false}
        currentOrganizationName="North Clinic"
        currentProviderName="Dr. Who"
      />,
    );
    const provider = screen.getByLabelText(PatientTexts.primaryProvider);
    expect(provider).toHaveValue('7');
    await within(provider).findByRole('option', { name: 'Dr. Five' }, { timeout: 5000 });
    expect(provider).toHaveValue('7');
    await user.click(screen.getByRole('button', { name: Labels.save }));
    await screen.findByText('stop here');
    expect(lastBody).toMatchObject({ primary_provider_id: 7, organization_id: 1 });
  });
});

/** A create answered with a refusal: the test sees what was sent, and the form stays. */
const refuseSave = (path: string) =>
  http.post(path, async ({ request }) => {
    lastBody = (await request.json()) as PatientInput;
    return HttpResponse.json({ message: 'stop here', statusCode: 400, error: 'Bad Request' }, { status: 400 });
  });

describe('patient form: evidence fields', { timeout: 20_000 }, () => {
  it('names each bad diagnosis code and a consent date in the future, and sends nothing', async () => {
    const user = userEvent.setup();
    renderForm();
    await user.type(screen.getByLabelText(new RegExp(`^${PatientTexts.firstName}`)), 'Ada');
    await user.type(screen.getByLabelText(new RegExp(`^${PatientTexts.lastName}`)), 'Lovelace');
    const codes = screen.getByLabelText(PatientTexts.diagnosisCodes);
    expect(screen.getByText(PatientTexts.diagnosisCodesHelp)).toBeInTheDocument();
    await user.type(codes, 'I10, u07.1, hypertension');
    await user.tab();
    const message = `${PatientErrors.diagnosisCodeInvalid('U07.1')} ${PatientErrors.diagnosisCodeInvalid('HYPERTENSION')}`;
    expect(await screen.findByText(message)).toBeInTheDocument();
    await user.type(screen.getByLabelText(PatientTexts.consentDate), '2999-01-01');
    await user.tab();
    expect(await screen.findByText(PatientErrors.consentDateOutOfRange)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: Labels.save }));
    expect(lastBody).toBeNull();
  });

  it('sends the ordering provider, consent date and normalized codes', async () => {
    server.use(refuseSave('/api/patients'));
    const user = userEvent.setup();
    renderForm();
    await user.type(screen.getByLabelText(new RegExp(`^${PatientTexts.firstName}`)), 'Ada');
    await user.type(screen.getByLabelText(new RegExp(`^${PatientTexts.lastName}`)), 'Lovelace');
    await screen.findAllByRole('option', { name: 'Dr. Who' });
    await user.selectOptions(screen.getByLabelText(PatientTexts.orderingProvider), '7');
    await user.type(screen.getByLabelText(PatientTexts.consentDate), '2025-11-03');
    await user.type(screen.getByLabelText(PatientTexts.diagnosisCodes), ' i10 ; e11.9,I10');
    await user.type(screen.getByLabelText(PatientTexts.mrn), ' MRN-77 ');
    await user.click(screen.getByRole('button', { name: Labels.save }));
    await screen.findByText('stop here');
    expect(lastBody).toMatchObject({
      ordering_provider_id: 7,
      consent_date: '2025-11-03',
      diagnosis_codes: ['I10', 'E11.9'],
      mrn: 'MRN-77',
    });
  });
});

describe('patients page', () => {
  it("shows 'N/A' for a patient without enrollment status", async () => {
    server.use(
      http.get('/api/patients', () =>
        HttpResponse.json({
          items: [
            {
              id: 1,
              first_name: 'Ada',
              middle_name: null,
              last_name: 'Lovelace',
              date_of_birth: null,
              organization_id: 1,
              organization_name: 'North Clinic',
              enrolled_rpm: false,
              enrollment_status: null,
              last_reading_at: null,
              open_alerts: 0,
              minutes_this_month: 0,
              device_days_this_month: 0,
            },
            {
              id: 2,
              first_name: 'Ben',
              middle_name: null,
              last_name: 'Franklin',
              date_of_birth: null,
              organization_id: 1,
              organization_name: 'North Clinic',
              enrolled_rpm: true,
              enrollment_status: 'Active',
              last_reading_at: null,
              open_alerts: 0,
              minutes_this_month: 0,
              device_days_this_month: 0,
            },
          ],
          total: 2,
        }),
      ),
    );
    wrap(<PatientList isAdmin={false} />, '/patients');
    const ada = (await screen.findByText('Lovelace')).closest('tr')!;
    expect(ada).toHaveTextContent(Labels.notAvailable);
    expect(screen.getByText('Franklin').closest('tr')).toHaveTextContent('Active');
    expect(screen.getByRole('link', { name: Labels.addPatient })).toHaveAttribute('href', '/patients/add');
  });
});
