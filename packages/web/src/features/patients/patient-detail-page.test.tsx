import {
  BillingTexts,
  Labels,
  OutreachTexts,
  PatientTexts,
  type Alert,
  type OutreachInput,
  type PatientBilling,
  type PatientDetail,
} from '@rpm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ALERT_THRESHOLD_KEYS,
  AlertSettingsTexts, AlertTexts,
  BloodPressureTexts,
  DEFAULT_ALERT_THRESHOLDS,
  GuidelineSources,
  ORGANIZATION_ONLY_THRESHOLDS,
  TIMEZONE_STORAGE_KEY,
} from '@rpm/contracts';
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
  ordering_provider_id: 8,
  ordering_provider_name: 'Alan Turing, MD',
  consent_date: '2025-11-03',
  diagnosis_codes: ['I10', 'E11.9'],
  devices: [],
  device_ids: [],
  insurances: [
    {
      id: 1,
      type: 'Private',
      provider_name: 'Acme',
      policy_number: 'P-1',
      policyholder: 'Charles Babbage',
      policyholder_birthdate: '1940-01-02',
    },
    {
      id: 2,
      type: 'Medicare',
      provider_name: 'CMS',
      policy_number: 'M-1',
      policyholder: null,
      policyholder_birthdate: null,
    },
  ],
};

/** A patient with none of their own thresholds (the organization-only ones are never a patient's). */
const NO_OVERRIDES = Object.fromEntries(
  ALERT_THRESHOLD_KEYS.filter((k) => !ORGANIZATION_ONLY_THRESHOLDS.includes(k)).map((k) => [k, null]),
);

const openAlert = {
  id: 9,
  patient_id: 4,
  patient_name: 'Ada Lovelace',
  rule: 'bp_crisis',
  severity: 'critical',
  status: 'open',
  count: 2,
  first_at: '2026-01-08T12:00:00.000Z',
  last_at: '2026-01-10T12:00:00.000Z',
  last_values: { systolic: 181, diastolic: 80, pulse: 70 },
  primary_provider_id: 7,
  confirmed: true,
  cleared_at: null,
  acknowledged_at: null,
  acknowledged_by_name: null,
  snoozed_until: null,
  escalated_at: null,
  resolved_at: null,
  resolution_reason: null,
} satisfies Alert;

// The patient's alerts and thresholds (shown above the vitals).
const alertHandlers = [
  http.get('/api/alerts', ({ request }) => {
    const status = new URL(request.url).searchParams.get('status');
    return HttpResponse.json(
      status === 'open'
        ? {
            items: [
              openAlert,
            ],
            total: 1,
          }
        : { items: [], total: 0 },
    );
  }),
  http.get('/api/patients/4/thresholds', () =>
    HttpResponse.json({
      patient_id: 4,
      overrides: NO_OVERRIDES,
      effective: DEFAULT_ALERT_THRESHOLDS,
    }),
  ),
  http.get('/api/patients/4/alert-marks', () => HttpResponse.json({ t: [] })),
];

const server = setupTestServer(
  ...alertHandlers,
  http.get('/api/patients/4', () => HttpResponse.json(patient)),
  // The measurement panels and programs (their own tests are in measurement-panels.test.tsx).
  http.get('/api/patients/4/observations/summary', () => HttpResponse.json({ kinds: [] })),
  http.get('/api/patients/4/programs', () => HttpResponse.json({ programs: [] })),
  http.get('/api/programs', () => HttpResponse.json({ items: [] })),
  http.get('/api/organizations/1/display-units', () => HttpResponse.json({ display_units: {} })),
  http.get('/api/patients/4/vitals', () =>
    HttpResponse.json({
      items: [
        { created_at: '2026-01-10T12:00:00.000Z', systolic: 135, diastolic: 85, pulse: 70, source: 'manual' },
        { created_at: '2026-01-09T12:00:00.000Z', systolic: 134, diastolic: 84, pulse: 70, source: 'manual' },
        { created_at: '2026-01-08T12:00:00.000Z', systolic: 181, diastolic: 80, pulse: 70, source: 'manual' },
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
      items: [
        {
          id: 1,
          date: '2026-01-05',
          duration_minutes: 25,
          notes: null,
          interactive: true,
          activity: 'phone_call',
          contact_type: 'phone',
          measured_minutes: null,
          adjustment_reason: null,
        },
      ],
      total: 1,
      month_totals: [
        { month: '2026-01', minutes: 25 },
        { month: '2025-12', minutes: 40 },
      ],
    }),
  ),
  http.get('/api/patients/4/outreach', () =>
    HttpResponse.json({
      items: [
        {
          id: 3,
          patient_id: 4,
          outcome: 'device_problem',
          notes: 'Cuff does not pair',
          user_id: 7,
          user_name: 'Grace Hopper, MD',
          created_at: '2026-01-09T15:00:00.000Z',
        },
      ],
      total: 1,
    }),
  ),
  http.get('/api/patients/4/billing', () =>
    HttpResponse.json({
      month: '2026-01',
      closed: false,
      time_zone: 'America/New_York',
      patient: {
        name: 'Ada Lovelace',
        date_of_birth: '1950-12-10',
        insurances: [],
        devices: [],
        ordering_provider: 'Alan Turing, MD',
        consent_date: '2025-11-03',
        diagnosis_codes: ['I10', 'E11.9'],
      },
      row: {
        patient_id: 4,
        patient_name: 'Ada Lovelace',
        organization_id: 1,
        period_start: '2026-01-01',
        period_end: '2026-01-30',
        device_days: 13,
        minutes: 25,
        interactive: true,
        codes: [],
        missing: ['3 more days of readings for 99454'],
      },
      reading_days: [],
      entries: [],
    } satisfies PatientBilling),
  ),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const renderDetailPage = (path = '/patients/4') =>
  renderPage(
    <Routes>
      <Route path="/patients/:id" element={<PatientDetailPage />} />
    </Routes>,
    path,
  );

describe('patient detail', { timeout: 20_000 }, () => {
  it("shows 'N/A' for an empty status, and policyholder fields for Private insurance only", async () => {
    renderDetailPage();
    // The details follow the first screen (drawn in a transition of their own).
    await screen.findByRole('heading', { name: PatientTexts.details });
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
    // The details follow the first screen (drawn in a transition of their own).
    await screen.findByRole('heading', { name: PatientTexts.details });
    const term = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling;
    const today = new Date();
    const expectedAge =
      today.getFullYear() - 1950 - (today.getMonth() < 11 || (today.getMonth() === 11 && today.getDate() < 10) ? 1 : 0);
    expect(term(PatientTexts.age)).toHaveTextContent(`${expectedAge} ${PatientTexts.years}`);
    expect(term(PatientTexts.gender)).toHaveTextContent(PatientTexts.gender_female);

    const vitals = await screen.findByRole('table', { name: PatientTexts.vitals });
    const rows = within(vitals).getAllByRole('row').slice(1);
    // The blood-pressure classifier the alert rules use: 135/85 is at or above stage 2 (high),
    // 134/84 stage 1 (elevated), 181/80 above the crisis line.
    expect(rows.map((r) => r.getAttribute('data-level'))).toEqual(['high', 'elevated', 'critical']);
    const t = DEFAULT_ALERT_THRESHOLDS;
    expect(rows[0]).toHaveTextContent(`${AlertTexts.levels.high}: ${BloodPressureTexts.stage2(t)}`);
    expect(rows[1]).toHaveTextContent(`${AlertTexts.levels.elevated}: ${BloodPressureTexts.stage1(t)}`);
    expect(rows[2]).toHaveTextContent(`${AlertTexts.levels.critical}: ${BloodPressureTexts.crisis(t)}`);
    const legend = screen.getByRole('note', { name: PatientTexts.readingLegend });
    expect(legend).toHaveTextContent(`${AlertTexts.levels.high} ${BloodPressureTexts.stage2(t)}`);
    expect(legend).toHaveTextContent(`${AlertTexts.levels.critical} ${BloodPressureTexts.crisis(t)}`);

    const notes = await screen.findByRole('list', { name: PatientTexts.clinicalNotes });
    expect(within(notes).getByText('Grace Hopper, MD')).toBeInTheDocument();
    expect(await screen.findByTestId('tracking-month-totals')).toHaveTextContent(
      `${PatientTexts.monthlyTotals}: 2026-01: 25 ${PatientTexts.minutesShort} · 2025-12: 40 ${PatientTexts.minutesShort}`,
    );
  });

  it("marks readings by the patient's own thresholds when a provider set them", async () => {
    const effective = { ...DEFAULT_ALERT_THRESHOLDS, stage2_systolic: 134, stage2_diastolic: 84 };
    server.use(
      http.get('/api/patients/4/thresholds', () =>
        HttpResponse.json({
          patient_id: 4,
          overrides: { ...NO_OVERRIDES, stage2_systolic: 134, stage2_diastolic: 84 },
          effective,
        }),
      ),
    );
    renderDetailPage();
    const vitals = await screen.findByRole('table', { name: PatientTexts.vitals });
    const rows = within(vitals).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-level'))).toEqual(['high', 'high', 'critical']);
    expect(rows[1]).toHaveTextContent(BloodPressureTexts.stage2(effective));
    expect(screen.getByRole('note', { name: PatientTexts.readingLegend })).toHaveTextContent('At or above 134/84 (stage 2)');
  });

  it('shows a heart rate measured alone with no pressures and no reading mark', async () => {
    server.use(
      http.get('/api/patients/4/vitals', () =>
        HttpResponse.json({
          items: [
            { created_at: '2026-01-10T12:00:00.000Z', systolic: null, diastolic: null, pulse: 131, source: 'HR-1' },
            { created_at: '2026-01-09T12:00:00.000Z', systolic: 141, diastolic: 91, pulse: 70, source: 'manual' },
          ],
          total: 2,
        }),
      ),
    );
    renderDetailPage();
    const vitals = await screen.findByRole('table', { name: PatientTexts.vitals });
    const rows = within(vitals).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-level'))).toEqual(['normal', 'high']);
    const cells = within(rows[0]!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(1)).toEqual([PatientTexts.noValue, PatientTexts.noValue, '131', 'HR-1']);
  });

  it('shows vitals and note times in the chosen timezone', async () => {
    localStorage.setItem(TIMEZONE_STORAGE_KEY, 'Asia/Tokyo');
    renderDetailPage();
    const vitals = await screen.findByRole('table', { name: PatientTexts.vitals });
    expect(within(vitals).getByText('2026-01-10 21:00')).toBeInTheDocument();
    // 23:30 UTC is the next morning in Tokyo.
    expect(await screen.findByText('2026-01-11 08:30')).toBeInTheDocument();
  });

  it('shows the patient’s open alerts and the thresholds their readings are checked against', async () => {
    renderDetailPage();
    const list = await screen.findByRole('list', { name: AlertTexts.patientAlertsTitle });
    expect(await within(list).findByText(`${AlertTexts.rules.bp_crisis} · 181/80 mmHg, pulse 70`)).toBeInTheDocument();
    expect(await screen.findByTestId('patient-thresholds')).toHaveTextContent('Above 180/120 (crisis)');
  });

  it('saves nothing while a threshold is out of range or has too many decimals, then saves the values', async () => {
    const user = userEvent.setup();
    const saved: unknown[] = [];
    server.use(
      http.put('/api/patients/4/thresholds', async ({ request }) => {
        saved.push(await request.json());
        return HttpResponse.json({
          patient_id: 4,
          overrides: NO_OVERRIDES,
          effective: DEFAULT_ALERT_THRESHOLDS,
        });
      }),
    );
    renderDetailPage();
    const edit = await screen.findByRole('button', { name: AlertTexts.thresholdsEdit });
    await waitFor(() => expect(edit).toBeEnabled());
    await user.click(edit);
    const dialog = await screen.findByRole('dialog', { name: AlertTexts.thresholdsTitle });
    const weight = within(dialog).getByRole('textbox', { name: `${AlertSettingsTexts.thresholdLabels.weight_gain_day} [kg]` });
    await user.type(weight, '1.25');
    await user.click(within(dialog).getByRole('button', { name: AlertSettingsTexts.thresholdsSave }));
    // The message comes first in the field's help, the source after it.
    await waitFor(() =>
      expect(weight).toHaveAccessibleDescription(expect.stringContaining(AlertTexts.thresholdRange(0.1, 20, 1))),
    );
    expect(weight).toHaveAttribute('aria-invalid', 'true');
    expect(saved).toHaveLength(0);
    await user.clear(weight);
    await user.type(weight, '1.2');
    await user.click(within(dialog).getByRole('button', { name: AlertSettingsTexts.thresholdsSave }));
    expect(await screen.findByText(AlertSettingsTexts.thresholdsSaved)).toBeInTheDocument();
    expect(saved[0]).toMatchObject({ weight_gain_day: 1.2, stage2_systolic: null });
    expect(saved[0]).not.toHaveProperty('spo2_target_copd');
  });

  it('opens the thresholds dialog, whose code loads when it is first asked for', async () => {
    renderDetailPage();
    const edit = await screen.findByRole('button', { name: AlertTexts.thresholdsEdit });
    await waitFor(() => expect(edit).toBeEnabled());
    await userEvent.click(edit);
    const dialog = await screen.findByRole('dialog', { name: AlertTexts.thresholdsTitle });
    // Every threshold but the organization-only ones, each with its unit and its source as help.
    expect(within(dialog).getAllByRole('textbox')).toHaveLength(ALERT_THRESHOLD_KEYS.length - ORGANIZATION_ONLY_THRESHOLDS.length);
    expect(within(dialog).queryByLabelText(new RegExp(AlertSettingsTexts.thresholdLabels.spo2_target_copd.replace(/[()]/g, '.')))).toBeNull();
    const stage2 = within(dialog).getByRole('textbox', { name: `${AlertSettingsTexts.thresholdLabels.stage2_systolic} [mmHg]` });
    expect(stage2).toHaveAccessibleDescription(`${AlertSettingsTexts.thresholdSource}: ${GuidelineSources.accAha2017}`);
    expect(stage2).toHaveAttribute('placeholder', AlertTexts.defaultPlaceholder(135));
    expect(within(dialog).getByRole('group', { name: AlertSettingsTexts.thresholdGroups.weight })).toBeInTheDocument();
  });

  it("shows this month's billing progress and links the evidence view", async () => {
    renderDetailPage();
    const progress = await screen.findByTestId('billing-progress');
    expect(progress).toHaveTextContent(BillingTexts.progressDeviceDays(13));
    expect(progress).toHaveTextContent('Days with device data: 13 of 16');
    expect(progress).toHaveTextContent(BillingTexts.progressMinutes(25));
    expect(progress).toHaveTextContent(BillingTexts.progressInteractive(true));
    expect(progress).toHaveTextContent('3 more days of readings for 99454');
    expect(screen.getByRole('link', { name: BillingTexts.evidenceLink })).toHaveAttribute(
      'href',
      '/billing/patients/4',
    );
  });
});

describe('patient detail: what needs attention first', { timeout: 20_000 }, () => {
  it('opens on the open alerts, the latest readings and this month, before the details', async () => {
    renderDetailPage();
    // Both load in chunks of their own.
    await screen.findByTestId('billing-progress');
    await screen.findByRole('heading', { name: OutreachTexts.title });
    const sections = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    const at = (title: string) => sections.indexOf(title);
    expect(at(AlertTexts.patientAlertsTitle)).toBe(0);
    expect(at(PatientTexts.vitals)).toBe(1);
    expect(at(BillingTexts.progressTitle)).toBe(2);
    expect(at(PatientTexts.details)).toBe(3);
    expect(at(PatientTexts.insurance)).toBeGreaterThan(at(PatientTexts.details));
    expect(at(OutreachTexts.title)).toBe(sections.length - 1);
  });

  it('shows the ordering provider, consent date and diagnosis codes', async () => {
    renderDetailPage();
    // The details follow the first screen (drawn in a transition of their own).
    await screen.findByRole('heading', { name: PatientTexts.details });
    const term = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling;
    expect(term(PatientTexts.orderingProvider)).toHaveTextContent('Alan Turing, MD');
    expect(term(PatientTexts.consentDate)).toHaveTextContent('2025-11-03');
    expect(term(PatientTexts.diagnosisCodes)).toHaveTextContent('I10, E11.9');
  });

  it('acknowledges an open alert from the page, and links to the worklist to resolve it', async () => {
    let acknowledged: number | null = null;
    server.use(
      http.post('/api/alerts/:id/acknowledge', ({ params }) => {
        acknowledged = Number(params.id);
        return HttpResponse.json({ ...openAlert, status: 'acknowledged', acknowledged_at: '2026-01-10T13:00:00.000Z' });
      }),
    );
    const user = userEvent.setup();
    renderDetailPage();
    const rule = AlertTexts.rules.bp_crisis;
    await user.click(await screen.findByRole('button', { name: `${AlertTexts.acknowledge}: ${rule}` }));
    await waitFor(() => expect(acknowledged).toBe(9));
    expect(screen.getByRole('link', { name: `${AlertTexts.resolve}: ${rule}` })).toHaveAttribute('href', '/alerts');
  });

  it('asks the server for the readings of the chosen dates, kept in the address', async () => {
    const asked: URLSearchParams[] = [];
    server.use(
      http.get('/api/patients/4/vitals', ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        return HttpResponse.json({ items: [], total: 0 });
      }),
    );
    localStorage.setItem(TIMEZONE_STORAGE_KEY, 'America/New_York');
    renderDetailPage('/patients/4?readings_from=2026-01-05&readings_to=2026-01-09');
    expect(await screen.findByText(PatientTexts.noVitalsInRange)).toBeInTheDocument();
    const last = asked.at(-1)!;
    // Whole days in the chosen zone: from midnight of the 5th to midnight after the 9th (EST).
    expect(last.get('from')).toBe('2026-01-05T05:00:00.000Z');
    expect(last.get('to')).toBe('2026-01-10T05:00:00.000Z');
    expect(screen.getByLabelText(PatientTexts.readingsFrom)).toHaveValue('2026-01-05');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: PatientTexts.clearDates }));
    await waitFor(() => expect(asked.at(-1)!.has('from')).toBe(false));
    localStorage.removeItem(TIMEZONE_STORAGE_KEY);
  });

  it('keeps wide tables inside a container that scrolls sideways (a phone shows every column)', async () => {
    renderDetailPage();
    for (const name of [PatientTexts.vitals, OutreachTexts.title]) {
      const table = await screen.findByRole('table', { name });
      const wrapper = table.closest('.MuiTableContainer-root');
      expect(wrapper).not.toBeNull();
      expect(getComputedStyle(wrapper!).overflowX).toBe('auto');
    }
  });

  it('records an outreach with its outcome and notes, and lists what is on the record', async () => {
    let body: OutreachInput | null = null;
    server.use(
      http.post('/api/patients/4/outreach', async ({ request }) => {
        body = (await request.json()) as OutreachInput;
        return HttpResponse.json(
          { id: 4, patient_id: 4, user_id: 7, user_name: 'Grace Hopper, MD', created_at: '2026-01-10T15:00:00.000Z', notes: null, ...body },
          { status: 201 },
        );
      }),
    );
    const user = userEvent.setup();
    renderDetailPage();
    const table = await screen.findByRole('table', { name: OutreachTexts.title });
    expect(within(table).getByText(OutreachTexts.outcomes.device_problem)).toBeInTheDocument();
    expect(within(table).getByText('Cuff does not pair')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: OutreachTexts.record }));
    const dialog = await screen.findByRole('dialog', { name: OutreachTexts.record });
    const save = within(dialog).getByRole('button', { name: Labels.save });
    expect(save).toBeDisabled();
    await user.click(within(dialog).getByRole('combobox', { name: OutreachTexts.outcome }));
    await user.click(await screen.findByRole('option', { name: OutreachTexts.outcomes.left_message }));
    await user.type(within(dialog).getByLabelText(OutreachTexts.notes), 'Voicemail, will call back');
    await user.click(save);
    expect(await screen.findByText(OutreachTexts.saved)).toBeInTheDocument();
    expect(body).toEqual({ outcome: 'left_message', notes: 'Voicemail, will call back' });
  });
});
