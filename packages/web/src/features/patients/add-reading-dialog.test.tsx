import { IngestionTexts } from '@rpm/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import { AddReadingButton } from './add-reading-button.tsx';

let sent: Record<string, unknown> | null = null;
const server = setupTestServer(
  http.post('/api/patients/7/vitals', async ({ request }) => {
    sent = (await request.json()) as Record<string, unknown>;
    return HttpResponse.json({ ...sent, created_at: sent.measured_at, source: 'manual' }, { status: 201 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

// Generous timeout: the dialog's code is imported on first open, slow on a shared, busy machine.
describe('Add Reading', { timeout: 20_000 }, () => {
  it('refuses values out of range on the spot, then sends the reading and says so', async () => {
    const user = userEvent.setup();
    renderPage(<AddReadingButton patientId={7} />);
    await user.click(screen.getByRole('button', { name: IngestionTexts.addReading }));
    // The dialog's code loads when it is first opened.
    await screen.findByRole('dialog');
    await user.type(screen.getByLabelText(IngestionTexts.systolic), '400');
    await user.type(screen.getByLabelText(IngestionTexts.diastolic), '80');
    await user.click(screen.getByRole('button', { name: IngestionTexts.save }));
    expect(await screen.findByText('40–300')).toBeTruthy();
    expect(sent).toBeNull();
    await user.clear(screen.getByLabelText(IngestionTexts.systolic));
    await user.type(screen.getByLabelText(IngestionTexts.systolic), '128');
    await user.type(screen.getByLabelText(IngestionTexts.pulse), '70');
    await user.click(screen.getByRole('button', { name: IngestionTexts.save }));
    expect(await screen.findByText(IngestionTexts.readingAdded)).toBeTruthy();
    expect(sent).toMatchObject({ systolic: 128, diastolic: 80, pulse: 70 });
    expect(new Date(String(sent!.measured_at)).toISOString()).toBe(sent!.measured_at);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('opens from the keyboard with focus kept inside the dialog', async () => {
    const user = userEvent.setup();
    renderPage(<AddReadingButton patientId={7} />);
    const button = screen.getByRole('button', { name: IngestionTexts.addReading });
    button.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog');
    await user.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(document.activeElement).toBe(screen.getByLabelText(IngestionTexts.measuredAt));
  });
});
