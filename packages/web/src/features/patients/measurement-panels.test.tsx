import {
  ALERT_THRESHOLD_KEYS,
  DEFAULT_ALERT_THRESHOLDS,
  ORGANIZATION_ONLY_THRESHOLDS,
  ObservationTexts,
  PatientTexts,
  TIMEZONE_STORAGE_KEY,
  type Observation,
  type ObservationSummary,
} from '@rpm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import { MeasurementPanels } from './measurement-panels.tsx';
import { PatientPrograms } from './patient-programs.tsx';

// uPlot draws on a canvas, which jsdom does not have: the chart stands in as its accessible image.
vi.mock('./measurement-chart.tsx', () => ({
  default: ({ label, t }: { label: string; t: number[] }) => (
    <div role="img" aria-label={label} data-points={t.length} />
  ),
}));

const obs = (id: number, kind: string, created_at: string, components: Record<string, number>, unit: string): Observation => ({
  id,
  kind,
  created_at,
  components,
  unit,
  source: id % 2 ? 'manual' : 'SCALE-1',
});

// Heart failure (patient 5, organization 1 shows weight in lb): weight and a heart rate alone.
const weights = [
  obs(11, 'weight', '2026-01-10T12:00:00.000Z', { weight: 81.65 }, 'kg'),
  obs(12, 'weight', '2026-01-09T12:00:00.000Z', { weight: 80.74 }, 'kg'),
];
const heartRates = [obs(13, 'heart_rate', '2026-01-10T12:05:00.000Z', { pulse: 131 }, '/min')];
// Diabetes (patient 6, organization 2 shows glucose in mmol/L).
const glucoses = [
  obs(21, 'glucose', '2026-01-10T07:00:00.000Z', { glucose: 100.8 }, 'mg/dL'),
  obs(22, 'glucose', '2026-01-09T07:00:00.000Z', { glucose: 50 }, 'mg/dL'),
];
const byPatient: Record<string, { programs: string[]; observations: Observation[] }> = {
  '5': { programs: ['heart_failure'], observations: [...heartRates, ...weights] },
  '6': { programs: ['diabetes'], observations: glucoses },
  '7': { programs: [], observations: [] },
};

let programsSent: unknown = null;
/** The patients' effective thresholds: the defaults, unless a test sets its own. */
let effective = DEFAULT_ALERT_THRESHOLDS;
const server = setupTestServer(
  http.get('/api/patients/:id/thresholds', ({ params }) =>
    HttpResponse.json({
      patient_id: Number(params.id),
      overrides: Object.fromEntries(
        ALERT_THRESHOLD_KEYS.filter((k) => !ORGANIZATION_ONLY_THRESHOLDS.includes(k)).map((k) => [k, null]),
      ),
      effective,
    }),
  ),
  http.get('/api/patients/:id/observations/summary', ({ params }) => {
    const all = byPatient[String(params.id)]!.observations;
    const kinds = [...new Set(['blood_pressure', ...all.map((o) => o.kind)])].map((kind) => {
      const of = all.filter((o) => o.kind === kind);
      return { kind, total: kind === 'blood_pressure' ? 3 : of.length, latest: of[0] ?? null };
    });
    return HttpResponse.json({ kinds } satisfies ObservationSummary);
  }),
  http.get('/api/patients/:id/observations', ({ params, request }) => {
    const kind = new URL(request.url).searchParams.get('kind');
    const items = byPatient[String(params.id)]!.observations.filter((o) => o.kind === kind);
    return HttpResponse.json({ items, total: items.length });
  }),
  http.get('/api/patients/:id/programs', ({ params }) =>
    HttpResponse.json({ programs: byPatient[String(params.id)]!.programs }),
  ),
  http.put('/api/patients/:id/programs', async ({ request }) => {
    programsSent = await request.json();
    return HttpResponse.json(programsSent as { programs: string[] });
  }),
  http.get('/api/programs', () =>
    HttpResponse.json({
      items: [
        { id: 'hypertension', label: 'Hypertension', kinds: ['blood_pressure', 'heart_rate'], built_in: true },
        { id: 'heart_failure', label: 'Heart failure', kinds: ['weight', 'blood_pressure', 'heart_rate'], built_in: true },
        { id: 'diabetes', label: 'Diabetes', kinds: ['glucose', 'blood_pressure'], built_in: true },
      ],
    }),
  ),
  http.get('/api/organizations/1/display-units', () => HttpResponse.json({ display_units: { weight: '[lb_av]' } })),
  http.get('/api/organizations/2/display-units', () => HttpResponse.json({ display_units: { glucose: 'mmol/L' } })),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => localStorage.setItem(TIMEZONE_STORAGE_KEY, 'UTC'));
afterEach(() => {
  server.resetHandlers();
  localStorage.clear();
  programsSent = null;
});
afterAll(() => server.close());

const cellsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell').map((c) => c.textContent));

describe('measurement panels', { timeout: 30_000 }, () => {
  it('shows a heart-failure patient’s weight first, in lb, with its chart and table, and no blood-pressure panel', async () => {
    renderPage(<MeasurementPanels patientId={5} organizationId={1} />);
    const weight = await screen.findByRole('table', { name: 'Weight' }, { timeout: 10_000 });
    await waitFor(() => expect(screen.getByRole('heading', { level: 3, name: 'Weight' })).toBeInTheDocument());
    // Heart failure's kinds come first (weight before heart rate, unlike the registry's order).
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Weight', 'Heart rate']);
    expect(within(weight).getAllByRole('columnheader').map((c) => c.textContent)).toEqual([
      ObservationTexts.time,
      'Weight (lb)',
      ObservationTexts.source,
    ]);
    expect(cellsOf(weight)).toEqual([
      ['2026-01-10 12:00', '180.0', 'manual'],
      ['2026-01-09 12:00', '178.0', 'SCALE-1'],
    ]);
    const panel = weight.closest('section')!;
    expect(within(panel).getByTestId('measurement-latest')).toHaveTextContent('180.0 lb');
    expect(within(panel).getByTestId('measurement-latest')).toHaveTextContent('2026-01-10 12:00');
    expect(await within(panel).findByRole('img', { name: ObservationTexts.chartLabel('Weight') })).toBeInTheDocument();
    // The heart rate alone is marked high, in words as well as colour.
    const heartRate = await screen.findByRole('table', { name: 'Heart rate' });
    const [row] = within(heartRate).getAllByRole('row').slice(1);
    expect(row).toHaveAttribute('data-level', 'high');
    expect(screen.queryByRole('heading', { name: 'Blood pressure' })).toBeNull();
  });

  it('shows a diabetes patient’s glucose in mmol/L with its classification marks', async () => {
    renderPage(<MeasurementPanels patientId={6} organizationId={2} />);
    const glucose = await screen.findByRole('table', { name: 'Blood glucose' }, { timeout: 10_000 });
    expect(within(glucose).getAllByRole('columnheader')[1]).toHaveTextContent('Glucose (mmol/L)');
    await waitFor(() => expect(cellsOf(glucose).map((r) => r[1])).toEqual(['5.6', '2.8']));
    const rows = within(glucose).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-level'))).toEqual(['normal', 'critical']);
    expect(within(rows[1]!).getByText(/Level 2 hypoglycemia/)).toBeInTheDocument();
    expect(screen.getByTestId('measurement-latest')).toHaveTextContent('5.6 mmol/L');
  });

  it("marks glucose by the patient's own thresholds, and says them in the legend", async () => {
    // A provider set the patient's level 1 line above 100.8 mg/dL (5.6 mmol/L): that reading is low now.
    effective = { ...DEFAULT_ALERT_THRESHOLDS, glucose_low: 110 };
    try {
      renderPage(<MeasurementPanels patientId={6} organizationId={2} />);
      const glucose = await screen.findByRole('table', { name: 'Blood glucose' }, { timeout: 10_000 });
      const rows = within(glucose).getAllByRole('row').slice(1);
      expect(rows.map((r) => r.getAttribute('data-level'))).toEqual(['low', 'critical']);
      expect(screen.getByRole('note', { name: PatientTexts.readingLegend })).toHaveTextContent('110');
    } finally {
      effective = DEFAULT_ALERT_THRESHOLDS;
    }
  });

  it('says so when the patient has no measurements beside blood pressure', async () => {
    renderPage(<MeasurementPanels patientId={7} organizationId={1} />);
    expect(await screen.findByText(ObservationTexts.noMeasurements, {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: ObservationTexts.addMeasurement })).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('programs', { timeout: 30_000 }, () => {
  it('shows the patient’s programs as chips and saves the checked ones', async () => {
    const user = userEvent.setup();
    renderPage(<PatientPrograms patientId={5} />);
    expect(await screen.findByText('Heart failure', {}, { timeout: 10_000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: ObservationTexts.editPrograms }));
    const dialog = await screen.findByRole('dialog', { name: ObservationTexts.editPrograms });
    expect(within(dialog).getByRole('checkbox', { name: 'Heart failure' })).toBeChecked();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Diabetes' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(programsSent).toEqual({ programs: ['heart_failure', 'diabetes'] }));
    expect(await screen.findByText(ObservationTexts.programsSaved)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('Diabetes')).toBeInTheDocument();
  });
});
