import { IngestionTexts, type IngestionSource } from '@rpm/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from '../../lib/testing/test-server.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderPage } from '../../lib/testing/render-page.tsx';
import IntegrationsPage from './integrations-page.tsx';

const SOURCE: IngestionSource = {
  id: '7d0c2f3e-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
  name: 'Tenovi cloud',
  kind: 'tenovi',
  auth_header: 'x-rpm-ingest-secret',
  can_read: false,
  created_at: '2026-01-01T00:00:00.000Z',
  rotated_at: null,
  revoked_at: null,
  recent_rejections: [
    { reason: 'value_1 must be between 40 and 300 mmHg', device_id: 'CUFF-9', created_at: '2026-01-02T00:00:00.000Z' },
  ],
  unmatched_count: 12,
  unmatched_quota: 10_000,
  unmatched_retention_days: 30,
};

let created: unknown = null;
const server = setupTestServer(
  http.get('/api/integrations', () => HttpResponse.json([SOURCE])),
  http.post('/api/integrations', async ({ request }) => {
    created = await request.json();
    return HttpResponse.json(
      {
        ...SOURCE,
        id: '11111111-2222-4333-8444-555555555555',
        name: 'EHR',
        kind: 'fhir',
        auth_header: null,
        secret: 'rpms_new_secret',
      },
      { status: 201 },
    );
  }),
  http.post('/api/integrations/:id/rotate', () => HttpResponse.json({ ...SOURCE, secret: 'rpms_rotated_secret' })),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

// Generous timeout: these drive forms and dialogs with user-event on a shared, busy machine.
describe('integrations', { timeout: 20_000 }, () => {
  it('lists sources with their recent rejections', async () => {
    renderPage(<IntegrationsPage />);
    const table = await screen.findByRole('table', { name: IngestionTexts.integrationsTitle });
    expect(within(table).getByText('Tenovi cloud')).toBeTruthy();
    expect(within(table).getByText(/CUFF-9: value_1 must be between 40 and 300 mmHg/)).toBeTruthy();
    expect(within(table).getByText(IngestionTexts.unmatchedQuotaUse(12, 10_000))).toBeTruthy();
  });

  it('creates a FHIR source with a read key and shows its secret once; rotating shows the new one', async () => {
    const user = userEvent.setup();
    renderPage(<IntegrationsPage />);
    await screen.findByRole('table', { name: IngestionTexts.integrationsTitle });
    await user.type(screen.getByLabelText(new RegExp(IngestionTexts.sourceName)), 'EHR');
    await user.click(screen.getByLabelText(IngestionTexts.sourceKind));
    await user.click(await screen.findByRole('option', { name: 'FHIR' }));
    await user.click(screen.getByLabelText(IngestionTexts.canRead));
    await user.click(screen.getByRole('button', { name: IngestionTexts.createSource }));
    expect((await screen.findByTestId('source-secret')).textContent).toBe('rpms_new_secret');
    expect(created).toEqual({ name: 'EHR', kind: 'fhir', can_read: true });
    await user.click(screen.getByRole('button', { name: IngestionTexts.rotate }));
    expect((await screen.findByText('rpms_rotated_secret')).getAttribute('data-testid')).toBe('source-secret');
  });
});
