import { GuidelineSources, ObservationTexts, glucose, weight } from '@rpm/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import { DisplayUnitsSection } from './display-units-section.tsx';

let sent: unknown = null;
const server = setupTestServer(
  http.get('/api/organizations', () => HttpResponse.json([{ id: 5, name: 'Harbor' }])),
  http.get('/api/organizations/5/display-units', () => HttpResponse.json({ display_units: { glucose: 'mmol/L' } })),
  http.put('/api/organizations/5/display-units', async ({ request }) => {
    sent = await request.json();
    return HttpResponse.json(sent as { display_units: Record<string, string> });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('display units', { timeout: 30_000 }, () => {
  it('shows each kind’s unit with its guidance, and saves a new choice', async () => {
    const user = userEvent.setup();
    renderPage(<DisplayUnitsSection />);
    const weightSelect = await screen.findByRole('combobox', { name: ObservationTexts.displayUnitFor(weight.label, 'Harbor') });
    await waitFor(() => expect(weightSelect).toBeEnabled());
    expect(weightSelect).toHaveValue('kg');
    expect(screen.getByRole('combobox', { name: ObservationTexts.displayUnitFor(glucose.label, 'Harbor') })).toHaveValue('mmol/L');
    expect(screen.getByText(weight.guidance.map((s) => GuidelineSources[s]).join(' '))).toBeInTheDocument();
    await user.selectOptions(weightSelect, 'lb');
    await waitFor(() => expect(sent).toEqual({ display_units: { glucose: 'mmol/L', weight: '[lb_av]' } }));
    expect(await screen.findByText(ObservationTexts.displayUnitsSaved)).toBeInTheDocument();
  });
});
