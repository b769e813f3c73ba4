import { ApiErrors } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createOrganization,
  startTestServer,
  type ApiClient,
  type TestServer,
  signInNewStaff,
} from '../../../test/support/http.ts';

/** Every administration route, with a body that would be valid for an admin. */
const ADMIN_ROUTES: Array<[method: 'GET' | 'POST', path: string, body?: unknown]> = [
  ['GET', '/api/roles'],
  ['GET', '/api/admin/users'],
  ['POST', '/api/admin/users', { email: 'x@example.com', first_name: 'A', last_name: 'B', role: 'provider', organization_id: 1 }],
  ['POST', '/api/admin/users/1/resend-invite'],
  ['POST', '/api/admin/users/1/enable'],
  ['POST', '/api/admin/users/1/disable'],
  ['POST', '/api/organizations', { name: 'Sneaky Clinic' }],
  ['POST', '/api/devices', { device_id: 'SNEAKY-1' }],
  ['GET', '/api/audit-logs?limit=10&offset=0'],
  ['GET', '/api/db/tables'],
  ['GET', '/api/db/schema/users'],
  ['GET', '/api/db/sample/users'],
];

let server: TestServer;
let provider: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  const org = await createOrganization(server);
  provider = await signInNewStaff(server, 'provider', org.id);
});
afterAll(async () => server?.close());

describe('administration routes', () => {
  it.each(ADMIN_ROUTES)('%s %s: 403 for a provider, 401 without a session', async (method, path, body) => {
    const asProvider = await provider.request(method, path, body === undefined ? {} : { body });
    expect(asProvider.status).toBe(403);
    expect(asProvider.body).toMatchObject({ message: ApiErrors.forbidden });
    const anonymous = await apiClient(server).request(method, path, body === undefined ? {} : { body });
    expect(anonymous.status).toBe(401);
  });

  it('changed nothing and audited every refusal', async () => {
    const { rows } = await server.db.pool.query(
      `SELECT (SELECT count(*)::int FROM organizations WHERE name = 'Sneaky Clinic') AS orgs,
              (SELECT count(*)::int FROM devices) AS devices,
              (SELECT count(*)::int FROM users WHERE email = 'x@example.com') AS users,
              (SELECT count(*)::int FROM audit_logs WHERE action = 'access.denied' AND outcome = 'denied') AS denied`,
    );
    expect(rows[0]).toEqual({ orgs: 0, devices: 0, users: 0, denied: ADMIN_ROUTES.length });
  });
});
