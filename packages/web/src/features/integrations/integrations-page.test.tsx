import { IngestionTexts, SmartTexts, Validation, type IngestionSource } from '@rpm/contracts';
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
  organization_id: 1,
  expires_at: null,
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

const ORGANIZATIONS = [
  { id: 1, name: 'North Clinic' },
  { id: 2, name: 'South Clinic' },
];
/** A source made before sources had an organization: refused until an admin assigns one. */
const ORPHAN: IngestionSource = {
  ...SOURCE,
  id: '22222222-3333-4444-8555-666666666666',
  name: 'Old cuffs',
  // Made before the header rule too.
  auth_header: 'cookie',
  organization_id: null,
  recent_rejections: [],
};

const SOURCE_OF_CLIENT: IngestionSource = {
  ...SOURCE,
  id: '33333333-4444-4555-8666-777777777777',
  name: 'Epic backend',
  kind: 'fhir',
  auth_header: null,
  organization_id: 2,
  recent_rejections: [],
};

let created: unknown = null;
let assigned: unknown = null;
const server = setupTestServer(
  http.get('/api/integrations', () => HttpResponse.json([SOURCE, ORPHAN, SOURCE_OF_CLIENT])),
  http.get('/api/organizations', () => HttpResponse.json(ORGANIZATIONS)),
  // The SMART client writing through SOURCE_OF_CLIENT: its source has no secret to rotate.
  http.get('/api/smart-clients', () =>
    HttpResponse.json({
      clients: [
        {
          id: '3f2a1b0c-1111-4222-8333-444455556666',
          name: 'Epic backend',
          organization_id: 2,
          jwks_url: 'https://ehr.example/jwks.json',
          key_ids: [],
          scopes: ['system/Observation.c'],
          source_id: SOURCE_OF_CLIENT.id,
          created_at: '2026-01-01T00:00:00.000Z',
          revoked_at: null,
        },
      ],
    }),
  ),
  http.put('/api/integrations/:id/organization', async ({ request, params }) => {
    assigned = { id: params.id, ...((await request.json()) as object) };
    return HttpResponse.json({ ...ORPHAN, organization_id: 2 });
  }),
  http.post('/api/integrations', async ({ request }) => {
    created = await request.json();
    return HttpResponse.json(
      {
        ...SOURCE,
        id: '11111111-2222-4333-8444-555555555555',
        name: 'EHR',
        kind: 'fhir',
        auth_header: null,
        organization_id: 2,
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
    expect(within(table).getByText('North Clinic')).toBeTruthy();
    expect(within(table).getAllByText(IngestionTexts.noExpiry)).toHaveLength(3);
    const row = within(table).getByText('Tenovi cloud').closest('tr')!;
    expect(within(row).getByText(IngestionTexts.unmatchedQuotaUse(12, 10_000))).toBeTruthy();
    // A SMART client's write source: no secret to rotate, it goes with its client.
    const clientRow = (await within(table).findByText(SmartTexts.clientSourceNote)).closest('tr')!;
    expect(within(clientRow).getByText('Epic backend')).toBeTruthy();
    expect(within(clientRow).queryByRole('button', { name: IngestionTexts.rotate })).toBeNull();
  });

  it('shows a notice on a source without an organization, and assigns one only after confirmation', async () => {
    const user = userEvent.setup();
    renderPage(<IntegrationsPage />);
    const table = await screen.findByRole('table', { name: IngestionTexts.integrationsTitle });
    const row = within(table).getByText('Old cuffs').closest('tr')!;
    expect(within(row).getByText(IngestionTexts.noOrganization)).toBeTruthy();
    expect(within(row).getByText(IngestionTexts.headerNotAllowed)).toBeTruthy();
    expect(within(table).getAllByText(IngestionTexts.headerNotAllowed)).toHaveLength(1);
    const assign = within(row).getByRole('button', { name: IngestionTexts.assignOrganization });
    expect(assign.hasAttribute('disabled')).toBe(true);
    await user.click(within(row).getByLabelText(IngestionTexts.organization));
    await user.click(await screen.findByRole('option', { name: 'South Clinic' }));
    await user.click(assign);
    const dialog = await screen.findByRole('dialog', { name: IngestionTexts.assignConfirmTitle });
    expect(within(dialog).getByText(IngestionTexts.assignConfirm('Old cuffs', 'South Clinic'))).toBeTruthy();
    // Cancel first: nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: /cancel/i }));
    expect(assigned).toBeNull();
    await user.click(assign);
    await user.click(
      within(await screen.findByRole('dialog', { name: IngestionTexts.assignConfirmTitle })).getByRole('button', {
        name: IngestionTexts.assign,
      }),
    );
    expect(await screen.findByText(IngestionTexts.organizationAssigned)).toBeTruthy();
    expect(assigned).toEqual({ id: ORPHAN.id, organization_id: 2 });
  });

  it('creates a FHIR write source (no read option any more) and shows its secret once; rotating shows the new one', async () => {
    const user = userEvent.setup();
    renderPage(<IntegrationsPage />);
    await screen.findByRole('table', { name: IngestionTexts.integrationsTitle });
    const sourceForm = screen.getByRole('form', { name: IngestionTexts.createSource });
    await user.type(within(sourceForm).getByLabelText(new RegExp(IngestionTexts.sourceName)), 'EHR');
    await user.click(screen.getByLabelText(IngestionTexts.sourceKind));
    await user.click(await screen.findByRole('option', { name: 'FHIR' }));
    // EHRs read as SMART clients: the form offers no read key.
    expect(screen.queryByLabelText(IngestionTexts.canRead)).toBeNull();
    // The organization is required: without it nothing is sent.
    await user.click(screen.getByRole('button', { name: IngestionTexts.createSource }));
    expect(await screen.findByText(Validation.organizationRequired)).toBeTruthy();
    expect(created).toBeNull();
    const form = screen.getByRole('form', { name: IngestionTexts.createSource });
    await user.click(within(form).getByLabelText(new RegExp(IngestionTexts.organization)));
    await user.click(await screen.findByRole('option', { name: 'South Clinic' }));
    await user.click(screen.getByRole('button', { name: IngestionTexts.createSource }));
    expect((await screen.findByTestId('source-secret')).textContent).toBe('rpms_new_secret');
    expect(created).toEqual({ name: 'EHR', kind: 'fhir', organization_id: 2 });
    const tenovi = within(screen.getByRole('table', { name: IngestionTexts.integrationsTitle }))
      .getByText('Tenovi cloud')
      .closest('tr')!;
    await user.click(within(tenovi).getByRole('button', { name: IngestionTexts.rotate }));
    expect((await screen.findByText('rpms_rotated_secret')).getAttribute('data-testid')).toBe('source-secret');
  });
});
