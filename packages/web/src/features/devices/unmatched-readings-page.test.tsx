import {
  IngestionTexts,
  UNKNOWN_METRIC_KIND,
  UNKNOWN_METRIC_UNIT,
  UnmatchedTexts,
  bloodPressure,
  unmatchedAttachPath,
  weight,
} from '@rpm/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import UnmatchedReadingsPage from './unmatched-readings-page.tsx';

let bodies: unknown[] = [];
const reading = (id: number, device: string, at: string) => ({
  id,
  device_id: device,
  measured_at: at,
  kind: bloodPressure.kind,
  metric: null,
  components: { systolic: 128, diastolic: 84, pulse: 70 },
  unit: 'mm[Hg]',
  systolic: 128,
  diastolic: 84,
  pulse: 70,
  received_at: at,
});
const other = (id: number, device: string, at: string, kind: string, components: Record<string, number>) => ({
  ...reading(id, device, at),
  kind,
  metric: kind === UNKNOWN_METRIC_KIND ? 'peak_flow' : null,
  components,
  unit: kind === UNKNOWN_METRIC_KIND ? UNKNOWN_METRIC_UNIT : 'kg',
  systolic: null,
  diastolic: null,
  pulse: null,
});
const server = setupTestServer(
  http.get('/api/unmatched-readings', () =>
    HttpResponse.json({
      items: [
        reading(11, 'LOANER-1', '2026-10-21T16:00:00Z'),
        reading(12, 'LOANER-2', '2026-10-22T16:00:00Z'),
        other(13, 'SCALE-1', '2026-10-22T17:00:00Z', weight.kind, { weight: 81.83 }),
        other(14, 'SPIRO-1', '2026-10-22T18:00:00Z', UNKNOWN_METRIC_KIND, { value_1: 410 }),
      ],
      total: 4,
    }),
  ),
  http.post(unmatchedAttachPath, async ({ request }) => {
    bodies.push(await request.json());
    return HttpResponse.json({ attached: 1 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  bodies = [];
});
afterAll(() => server.close());

describe('unmatched readings', () => {
  it("shows each reading's kind and its values with their units", async () => {
    renderPage(<UnmatchedReadingsPage />);
    const row = (device: string) => screen.getAllByRole('row').find((r) => r.textContent?.includes(device))!;
    await screen.findByText('SCALE-1');
    expect(row('LOANER-1')).toHaveTextContent(bloodPressure.label);
    expect(row('LOANER-1')).toHaveTextContent('Systolic 128 mmHg, Diastolic 84 mmHg, Pulse 70 /min');
    expect(row('SCALE-1')).toHaveTextContent(weight.label);
    // Shown to the display unit's decimals.
    expect(row('SCALE-1')).toHaveTextContent('Weight 81.8 kg');
    expect(row('SPIRO-1')).toHaveTextContent(IngestionTexts.unknownMetric('peak_flow'));
    expect(row('SPIRO-1')).toHaveTextContent('value_1 410');
  });

  it('attaches the chosen readings to a patient only after a confirmation', async () => {
    const user = userEvent.setup();
    renderPage(<UnmatchedReadingsPage />);
    const attach = await screen.findByRole('button', { name: UnmatchedTexts.attach });
    expect(attach).toBeDisabled();
    const [first] = screen.getAllByRole('checkbox', { name: /LOANER-1/ });
    await user.click(first!);
    await user.type(screen.getByLabelText(UnmatchedTexts.patientId), '7');
    expect(attach).toBeEnabled();
    await user.click(attach);

    const dialog = await screen.findByRole('dialog', { name: UnmatchedTexts.attachTitle });
    expect(dialog).toHaveTextContent(UnmatchedTexts.attachConfirm(1));
    expect(bodies).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: UnmatchedTexts.attach }));
    expect(await screen.findByText(UnmatchedTexts.attached(1))).toBeInTheDocument();
    expect(bodies).toEqual([{ reading_ids: [11], patient_id: 7 }]);
  });
});
