import { ObservationTexts, TIMEZONE_STORAGE_KEY } from '@rpm/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import { AddObservationButton } from './add-observation-button.tsx';

let sent: Record<string, unknown> | null = null;
const server = setupTestServer(
  http.post('/api/patients/7/observations', async ({ request }) => {
    sent = (await request.json()) as Record<string, unknown>;
    return HttpResponse.json(
      { id: 1, kind: sent.kind, created_at: sent.created_at, components: sent.components, unit: 'kg', source: 'manual' },
      { status: 201 },
    );
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => localStorage.setItem(TIMEZONE_STORAGE_KEY, 'UTC'));
afterEach(() => {
  server.resetHandlers();
  localStorage.clear();
  sent = null;
});
afterAll(() => server.close());

const openDialog = async () => {
  const user = userEvent.setup();
  renderPage(<AddObservationButton patientId={7} kind="weight" displayUnits={{ weight: '[lb_av]' }} />);
  await user.click(screen.getByRole('button', { name: ObservationTexts.addReadingOf('Weight') }));
  await screen.findByRole('dialog', {}, { timeout: 15_000 });
  return user;
};

// Generous timeout: the dialog's code is imported on first open, slow on a shared, busy machine.
describe('Add measurement', { timeout: 30_000 }, () => {
  it('takes the weight in lb, sends it in kg at the time typed, and says so', async () => {
    const user = await openDialog();
    await user.type(screen.getByLabelText(/Weight \(lb\)/), 'heavy');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(ObservationTexts.enterNumber('Weight'))).toBeInTheDocument();
    expect(sent).toBeNull();
    await user.clear(screen.getByLabelText(/Weight \(lb\)/));
    await user.type(screen.getByLabelText(/Weight \(lb\)/), '180');
    const at = screen.getByLabelText(ObservationTexts.measuredAt);
    await user.clear(at);
    await user.type(at, '2026-01-10T08:30');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(ObservationTexts.readingAdded)).toBeInTheDocument();
    // 180 lb is 81.6466 kg, kept to the 2 decimals the server stores.
    expect(sent).toEqual({ kind: 'weight', components: { weight: 81.65 }, unit: 'kg', created_at: '2026-01-10T08:30:00.000Z' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the server’s refusal in the dialog and keeps what was typed', async () => {
    const message = 'Weight 589.67 kg is outside the plausible range 20–350 kg.';
    server.use(http.post('/api/patients/7/observations', () => HttpResponse.json({ message }, { status: 400 })));
    const user = await openDialog();
    await user.type(screen.getByLabelText(/Weight \(lb\)/), '1300');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(screen.getByLabelText(/Weight \(lb\)/)).toHaveValue('1300');
  });
});
