import { AdminErrors, type Organization, type Provider } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrganization,
  createStaff,
  signIn,
  startTestServer,
  type ApiClient,
  type TestServer,
  signInNewStaff,
} from '../../../test/support/http.ts';

let server: TestServer;
let admin: ApiClient;
let provider: ApiClient;
let orgA: { id: number; name: string };
let orgB: { id: number; name: string };
let providerId: number;

beforeAll(async () => {
  server = await startTestServer();
  orgA = await createOrganization(server, 'Alpha Clinic');
  orgB = await createOrganization(server, 'Beta Clinic');
  admin = await signInNewStaff(server, 'admin', orgA.id);
  const staff = await createStaff(server, { role: 'provider', organizationId: orgA.id });
  providerId = staff.id;
  provider = await signIn(server, staff);
  await createStaff(server, { role: 'provider', organizationId: orgA.id, status: 'disabled' });
});
afterAll(async () => server?.close());

describe('POST /api/organizations', () => {
  it('creates an organization with a trimmed name and audits it', async () => {
    const res = await admin.post<Organization>('/api/organizations', { name: '  Gamma Health  ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), name: 'Gamma Health', timer_start: 'open' });
    const { rows } = await server.db.pool.query(
      `SELECT outcome, resource_id FROM audit_logs WHERE action = 'organization.create' ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0]).toEqual({ outcome: 'success', resource_id: String(res.body.id) });
  });

  it('answers 409 for a name already taken, whatever its case and spaces', async () => {
    const res = await admin.post('/api/organizations', { name: 'gamma HEALTH ' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ message: AdminErrors.organizationExists });
  });

  it('refuses a blank name', async () => {
    expect((await admin.post('/api/organizations', { name: '   ' })).status).toBe(400);
    expect((await admin.post('/api/organizations', { name: '' })).status).toBe(400);
    expect((await admin.post('/api/organizations', {})).status).toBe(400);
  });
});

describe('GET /api/organizations', () => {
  it('gives an admin every organization as a bare array', async () => {
    const res = await admin.get<Organization[]>('/api/organizations');
    expect(res.status).toBe(200);
    expect(res.body.map((o) => o.name)).toEqual(['Alpha Clinic', 'Beta Clinic', 'Gamma Health']);
  });

  it('gives a provider only their own organization', async () => {
    const res = await provider.get<Organization[]>('/api/organizations');
    expect(res.body).toEqual([{ id: orgA.id, name: 'Alpha Clinic', timer_start: 'open' }]);
  });
});

describe('GET /api/organizations/{id}/providers', () => {
  it('lists the active providers by name', async () => {
    const res = await provider.get<Provider[]>(`/api/organizations/${orgA.id}/providers`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: providerId, name: 'Test provider' }]);
  });

  it('is 404 for a provider asking about another organization, and for an unknown one', async () => {
    expect((await provider.get(`/api/organizations/${orgB.id}/providers`)).status).toBe(404);
    expect((await admin.get(`/api/organizations/999999/providers`)).status).toBe(404);
    expect((await admin.get(`/api/organizations/${orgB.id}/providers`)).body).toEqual([]);
  });
});
