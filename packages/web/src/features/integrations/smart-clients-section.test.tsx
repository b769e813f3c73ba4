import { setupTestServer } from '../../lib/testing/test-server.ts';
import { renderPage } from '../../lib/testing/render-page.tsx';
import { SmartClientsSection } from './smart-clients-section.tsx';
import { SmartTexts, type CreateSmartClientBody, type IngestionSource, type SmartClient } from '@rpm/contracts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

const ORGANIZATIONS = [
  { id: 1, name: 'North Clinic' },
  { id: 2, name: 'South Clinic' },
];
const CLIENT: SmartClient = {
  id: '3f2a1b0c-1111-4222-8333-444455556666',
  name: 'Epic backend',
  organization_id: 1,
  jwks_url: 'https://ehr.example/jwks.json',
  key_ids: [],
  scopes: ['system/Patient.rs', 'system/Observation.rs'],
  source_id: null,
  created_at: '2026-01-01T00:00:00.000Z',
  revoked_at: null,
};
const LEGACY: IngestionSource = {
  id: '7d0c2f3e-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
  name: 'Old EHR read key',
  kind: 'fhir',
  auth_header: null,
  can_read: true,
  organization_id: 2,
  expires_at: '2026-06-01T00:00:00.000Z',
  created_at: '2026-01-01T00:00:00.000Z',
  rotated_at: null,
  revoked_at: null,
  recent_rejections: [],
  unmatched_count: 0,
  unmatched_quota: 10_000,
  unmatched_retention_days: 30,
};
const WRITER: IngestionSource = {
  ...LEGACY,
  id: '8d0c2f3e-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
  name: 'EHR writer',
  can_read: false,
};

let clients: SmartClient[] = [];
let created: CreateSmartClientBody | null = null;
let revoked: string | null = null;
const server = setupTestServer(
  http.get('/api/smart-clients', () => HttpResponse.json({ clients })),
  http.post('/api/smart-clients', async ({ request }) => {
    created = (await request.json()) as CreateSmartClientBody;
    const client: SmartClient = {
      ...CLIENT,
      id: '4f2a1b0c-1111-4222-8333-444455556666',
      name: created.name,
      organization_id: created.organization_id,
      jwks_url: created.jwks_url ?? null,
      key_ids: created.jwks?.keys.map((k) => k.kid ?? '') ?? [],
      scopes: created.scopes,
    };
    clients = [...clients, client];
    return HttpResponse.json(client, { status: 201 });
  }),
  http.post('/api/smart-clients/:id/revoke', ({ params }) => {
    revoked = String(params.id);
    clients = clients.map((c) => (c.id === revoked ? { ...c, revoked_at: '2026-02-01T00:00:00.000Z' } : c));
    return HttpResponse.json(clients.find((c) => c.id === revoked));
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  clients = [CLIENT];
  created = null;
  revoked = null;
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const form = () => screen.getByRole('form', { name: SmartTexts.register });
const scopeLabel = (scope: keyof typeof SmartTexts.scopeLabels) => `${SmartTexts.scopeLabels[scope]} (${scope})`;

describe('EHR system clients', { timeout: 20_000 }, () => {
  it('lists clients with their id and scopes, and the retired read keys to re-register', async () => {
    renderPage(<SmartClientsSection organizations={ORGANIZATIONS} sources={[LEGACY, WRITER]} />);
    const table = await screen.findByRole('table', { name: SmartTexts.title });
    const row = within(table).getByText('Epic backend').closest('tr')!;
    expect(within(row).getByText(CLIENT.id)).toBeTruthy();
    expect(within(row).getByText('North Clinic')).toBeTruthy();
    expect(within(row).getByText('system/Observation.rs')).toBeTruthy();
    const legacy = screen.getByRole('region', { name: SmartTexts.legacyTitle });
    expect(within(legacy).getByText('Old EHR read key')).toBeTruthy();
    expect(within(legacy).queryByText('EHR writer')).toBeNull();
    expect(within(legacy).getByText(SmartTexts.legacyIntro)).toBeTruthy();
  });

  it('registers a client with a pasted JWKS and chosen scopes; refuses text that is not a JWKS and no scope', async () => {
    const user = userEvent.setup();
    renderPage(<SmartClientsSection organizations={ORGANIZATIONS} sources={[]} />);
    await screen.findByRole('table', { name: SmartTexts.title });
    expect(screen.queryByRole('region', { name: SmartTexts.legacyTitle })).toBeNull();
    await user.type(within(form()).getByLabelText(new RegExp(SmartTexts.name)), 'Cerner backend');
    await user.click(within(form()).getByLabelText(new RegExp(SmartTexts.organization)));
    await user.click(await screen.findByRole('option', { name: 'South Clinic' }));
    await user.click(within(form()).getByLabelText(SmartTexts.keyPasted));
    await user.type(within(form()).getByLabelText(SmartTexts.jwks), 'not json');
    await user.click(within(form()).getByRole('button', { name: SmartTexts.register }));
    expect(await within(form()).findByText(SmartTexts.jwksInvalidJson)).toBeTruthy();
    expect(within(form()).getByText(SmartTexts.scopesRequired)).toBeTruthy();
    expect(created).toBeNull();

    const jwks = { keys: [{ kty: 'EC', crv: 'P-384', x: 'abc', y: 'def', kid: 'k1', alg: 'ES384' }] };
    await user.clear(within(form()).getByLabelText(SmartTexts.jwks));
    // user-event reads { and [ as key descriptors: paste the JSON instead.
    await user.click(within(form()).getByLabelText(SmartTexts.jwks));
    await user.paste(JSON.stringify(jwks));
    await user.click(within(form()).getByLabelText(scopeLabel('system/Patient.rs')));
    await user.click(within(form()).getByLabelText(scopeLabel('system/Observation.c')));
    await user.click(within(form()).getByRole('button', { name: SmartTexts.register }));
    expect(await screen.findByText(SmartTexts.created('Cerner backend'))).toBeTruthy();
    expect(created).toEqual({
      name: 'Cerner backend',
      organization_id: 2,
      jwks,
      scopes: ['system/Patient.rs', 'system/Observation.c'],
    });
    const table = screen.getByRole('table', { name: SmartTexts.title });
    expect(await within(table).findByText('Cerner backend')).toBeTruthy();
  });

  it('registers a client by JWKS URL', async () => {
    const user = userEvent.setup();
    renderPage(<SmartClientsSection organizations={[ORGANIZATIONS[0]!]} sources={[]} />);
    await screen.findByRole('table', { name: SmartTexts.title });
    await user.type(within(form()).getByLabelText(new RegExp(SmartTexts.name)), 'Meditech');
    await user.click(within(form()).getByRole('button', { name: SmartTexts.register }));
    expect(await within(form()).findByText(SmartTexts.jwksUrlRequired)).toBeTruthy();
    await user.type(within(form()).getByLabelText(SmartTexts.jwksUrl), 'https://meditech.example/jwks');
    await user.click(within(form()).getByLabelText(scopeLabel('system/Group.rs')));
    await user.click(within(form()).getByRole('button', { name: SmartTexts.register }));
    expect(await screen.findByText(SmartTexts.created('Meditech'))).toBeTruthy();
    // The only organization is chosen for the admin.
    expect(created).toEqual({
      name: 'Meditech',
      organization_id: 1,
      jwks_url: 'https://meditech.example/jwks',
      scopes: ['system/Group.rs'],
    });
  });

  it('revokes a client only after confirmation', async () => {
    const user = userEvent.setup();
    renderPage(<SmartClientsSection organizations={ORGANIZATIONS} sources={[]} />);
    const table = await screen.findByRole('table', { name: SmartTexts.title });
    const revoke = within(table).getByRole('button', { name: `${SmartTexts.revoke} Epic backend` });
    await user.click(revoke);
    const dialog = await screen.findByRole('dialog', { name: SmartTexts.revokeTitle });
    expect(within(dialog).getByText(SmartTexts.revokeConfirm('Epic backend'))).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: /cancel/i }));
    expect(revoked).toBeNull();
    await user.click(revoke);
    await user.click(
      within(await screen.findByRole('dialog', { name: SmartTexts.revokeTitle })).getByRole('button', {
        name: SmartTexts.revoke,
      }),
    );
    expect(await screen.findByText(SmartTexts.revokedToast('Epic backend'))).toBeTruthy();
    expect(revoked).toBe(CLIENT.id);
    expect(await within(table).findByText(`Epic backend (${SmartTexts.revoked})`)).toBeTruthy();
    expect(within(table).queryByRole('button', { name: `${SmartTexts.revoke} Epic backend` })).toBeNull();
  });
});
