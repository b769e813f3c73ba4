import { ApiErrors } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createOrganization,
  createStaff,
  poolAccessToken,
  signIn,
  startTestServer,
  type Staff,
  type TestServer,
} from '../../../test/support/http.ts';
import { disableUser, expireSessions, idleSessions } from '../../../test/support/factories.ts';

let server: TestServer;
let provider: Staff;

beforeAll(async () => {
  server = await startTestServer();
  const org = await createOrganization(server);
  provider = await createStaff(server, { role: 'provider', organizationId: org.id });
});
afterAll(async () => server?.close());

describe('the session', () => {
  it('answers /api/me, and 401 without a cookie', async () => {
    const client = await signIn(server, provider);
    const me = await client.get('/api/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user: { email: provider.email, role: 'provider' } });
    expect((await apiClient(server).get('/api/me')).status).toBe(401);
  });

  it('expires after 15 idle minutes, on the server clock', async () => {
    const client = await signIn(server, provider);
    await idleSessions(server.db.pool, { userId: provider.id }, '14 minutes 50 seconds');
    // Still inside the window: the call succeeds and slides it.
    expect((await client.get('/api/me')).status).toBe(200);
    await idleSessions(server.db.pool, { userId: provider.id }, '15 minutes 1 second');
    expect((await client.get('/api/me')).status).toBe(401);
  });

  it('expires after its absolute lifetime even when active', async () => {
    const client = await signIn(server, provider);
    await expireSessions(server.db.pool, { userId: provider.id });
    expect((await client.get('/api/me')).status).toBe(401);
  });

  it('ends at once when the user is disabled, and a disabled user cannot get a new one', async () => {
    const org = await createOrganization(server);
    const user = await createStaff(server, { role: 'provider', organizationId: org.id });
    const client = await signIn(server, user);
    await disableUser(server.db.pool, user.id);
    expect((await client.get('/api/me')).status).toBe(401);
    const token = await poolAccessToken(server, user.email, user.password);
    const res = await apiClient(server).post('/api/token', { token });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ message: ApiErrors.userDisabled });
  });
});

describe('POST /api/me/mfa', () => {
  it('refuses to set the flag when the user pool disagrees', async () => {
    const client = await signIn(server, provider);
    const res = await client.post('/api/me/mfa', { enabled: true });
    expect(res.status).toBe(409);
    const me = await client.get<{ user: { mfa_enabled: boolean } }>('/api/me');
    expect(me.body.user.mfa_enabled).toBe(false);
  });

  it('refuses unknown fields and wrong types', async () => {
    const client = await signIn(server, provider);
    expect((await client.post('/api/me/mfa', { enabled: 'yes' })).status).toBe(400);
    expect((await client.post('/api/me/mfa', { enabled: false, admin: true })).status).toBe(400);
  });
});
