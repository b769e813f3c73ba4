import { AdminErrors, ApiErrors, type AdminUser, type AdminUsersResponse, type CreateUserResponse } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrganization,
  createStaff,
  poolAccessToken,
  signIn,
  startTestServer,
  type ApiClient,
  type Staff,
  type TestServer,
} from '../../../test/support/http.ts';
import { readOutbox } from '../identity/index.ts';
import { callPool } from '../identity/test-support/harness.ts';
import { totpCode } from '../identity/totp.ts';
import { auditRecordsOf } from '../../../test/support/audit.ts';

let server: TestServer;
let admin: Staff;
let adminClient: ApiClient;
let orgId: number;

beforeAll(async () => {
  server = await startTestServer();
  orgId = (await createOrganization(server)).id;
  admin = await createStaff(server, { role: 'admin', organizationId: orgId });
  adminClient = await signIn(server, admin);
});
afterAll(async () => server?.close());

const auditOf = (action: string) => auditRecordsOf(server, { action }, ['user_id', 'target_user_id', 'outcome', 'reason']);

const registration = (email: string, extra: Record<string, unknown> = {}) => ({
  email,
  first_name: 'Dana',
  last_name: 'Scully',
  role: 'provider',
  organization_id: orgId,
  ...extra,
});

describe('POST /api/admin/users', () => {
  it('creates the pool account and the portal row, and answers the temporary password', async () => {
    const res = await adminClient.post<CreateUserResponse>('/api/admin/users', registration('dana@example.com', { middle_name: '', title: '  ' }));
    expect(res.status).toBe(201);
    expect(res.body.temp_password.length).toBeGreaterThanOrEqual(8);
    expect(res.body.user).toMatchObject({ email: 'dana@example.com', role: 'provider', status: 'active', cognito_status: 'FORCE_CHANGE_PASSWORD' });
    const { rows } = await server.db.pool.query(
      `SELECT middle_name, title, organization_id, cognito_username, cognito_sub FROM users WHERE id = $1`,
      [res.body.user.id],
    );
    expect(rows[0]).toMatchObject({ middle_name: null, title: null, organization_id: orgId });
    expect(rows[0].cognito_username).toBeTruthy();
    expect(rows[0].cognito_sub).toBeTruthy();
    const poolUser = await server.identity.directory.getUser(rows[0].cognito_username);
    expect(poolUser?.status).toBe('FORCE_CHANGE_PASSWORD');
    expect(await auditOf('user.create')).toContainEqual(
      expect.objectContaining({ user_id: admin.id, target_user_id: res.body.user.id, outcome: 'success' }),
    );
    // The temporary password is never in an audit record. (Without SMTP the pool logs the
    // invitation for an operator to deliver, by design; that is the pool's outbox, not ours.)
    const audits = await server.db.pool.query(`SELECT row_to_json(a)::text AS r FROM audit_logs a`);
    expect(JSON.stringify(audits.rows)).not.toContain(res.body.temp_password);
  });

  it('answers 409 with a clear message for an email already in the portal, in any case', async () => {
    const res = await adminClient.post('/api/admin/users', registration('DANA@example.com'));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ message: AdminErrors.emailTaken });
    expect((await auditOf('user.create')).at(-1)).toMatchObject({ outcome: 'failure', reason: 'duplicate email' });
  });

  it('refuses an unknown role or organization, a missing name and unknown fields', async () => {
    expect((await adminClient.post('/api/admin/users', registration('r@example.com', { role: 'root' }))).status).toBe(400);
    expect((await adminClient.post('/api/admin/users', registration('o@example.com', { organization_id: 999999 }))).status).toBe(400);
    expect((await adminClient.post('/api/admin/users', registration('n@example.com', { first_name: '' }))).status).toBe(400);
    expect((await adminClient.post('/api/admin/users', registration('x@example.com', { is_admin: true }))).status).toBe(400);
    expect((await adminClient.post('/api/admin/users', registration('not-an-email'))).status).toBe(400);
    const { rows } = await server.db.pool.query(`SELECT count(*)::int AS n FROM users WHERE email LIKE '_@example.com'`);
    expect(rows[0].n).toBe(0);
  });
});

describe('GET /api/admin/users', () => {
  it('lists users with the pool status joined in (one pool call), never the subject', async () => {
    const res = await adminClient.get<AdminUsersResponse>('/api/admin/users');
    expect(res.status).toBe(200);
    const byEmail = new Map(res.body.users.map((u) => [u.email, u]));
    expect(byEmail.get(admin.email)).toMatchObject({ id: admin.id, role: 'admin', status: 'active', cognito_status: 'CONFIRMED', mfa_enabled: false });
    expect(byEmail.get('dana@example.com')?.cognito_status).toBe('FORCE_CHANGE_PASSWORD');
    expect(byEmail.get('dana@example.com')?.password_changed_at).toBeNull();
    // createStaff set a permanent password in the pool: the pool's date is shown.
    expect(Date.parse(byEmail.get(admin.email)!.password_changed_at!)).toBeGreaterThan(Date.now() - 10 * 60_000);
    const first = res.body.users[0]!;
    expect(Object.keys(first).sort()).toEqual(
      ['cognito_status', 'created_at', 'email', 'first_name', 'id', 'last_name', 'mfa_enabled', 'organization_id', 'password_changed_at', 'role', 'status', 'updated_at'],
    );
  });
});

describe('disable and enable', () => {
  let provider: Staff;
  let providerClient: ApiClient;

  beforeAll(async () => {
    provider = await createStaff(server, { role: 'provider', organizationId: orgId });
    providerClient = await signIn(server, provider);
  });

  it('disabling ends the user’s sessions at once and stops sign-in', async () => {
    expect((await providerClient.get('/api/me')).status).toBe(200);
    const res = await adminClient.post<{ user: AdminUser }>(`/api/admin/users/${provider.id}/disable`);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: provider.id, status: 'disabled' });
    const after = await providerClient.get('/api/me');
    expect(after.status).toBe(401);
    // Ended, not merely blocked while the status says disabled.
    const live = await server.db.pool.query(`SELECT 1 FROM sessions WHERE user_id = $1 AND revoked_at IS NULL`, [provider.id]);
    expect(live.rowCount).toBe(0);
    await expect(signIn(server, provider)).rejects.toThrow();
    const poolUser = await server.identity.directory.getUser(provider.cognitoUsername);
    expect(poolUser?.enabled).toBe(false);
    expect((await auditOf('user.disable')).at(-1)).toMatchObject({ user_id: admin.id, target_user_id: provider.id, outcome: 'success' });
  });

  it('enabling restores sign-in', async () => {
    const res = await adminClient.post<{ user: AdminUser }>(`/api/admin/users/${provider.id}/enable`);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: provider.id, status: 'active' });
    // The session ended by Disable stays ended; a new sign-in is needed.
    expect((await providerClient.get('/api/me')).status).toBe(401);
    const again = await signIn(server, provider);
    expect((await again.get('/api/me')).status).toBe(200);
    expect((await auditOf('user.enable')).at(-1)).toMatchObject({ target_user_id: provider.id, outcome: 'success' });
  });

  it('an admin cannot disable themselves', async () => {
    const res = await adminClient.post(`/api/admin/users/${admin.id}/disable`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: AdminErrors.cannotDisableSelf });
    expect((await adminClient.get('/api/me')).status).toBe(200);
  });

  it('an unknown user is 404', async () => {
    expect((await adminClient.post('/api/admin/users/999999/disable')).status).toBe(404);
    expect((await adminClient.post('/api/admin/users/999999/enable')).status).toBe(404);
    expect((await adminClient.post('/api/admin/users/999999/resend-invite')).status).toBe(404);
  });
});

describe('resend invite', () => {
  it('resends the invitation of a user who has not signed in yet', async () => {
    const created = await adminClient.post<CreateUserResponse>('/api/admin/users', registration('invitee@example.com'));
    const res = await adminClient.post<{ user: AdminUser }>(`/api/admin/users/${created.body.user.id}/resend-invite`);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: created.body.user.id, cognito_status: 'FORCE_CHANGE_PASSWORD' });
    expect((await auditOf('user.resend_invite')).at(-1)).toMatchObject({ target_user_id: created.body.user.id, outcome: 'success' });
    // The new temporary password went to the invitee only: never into a log line.
    const invitation = (await readOutbox(server.db.pool, 'invitee@example.com'))?.text ?? '';
    const password = /password:\s*(\S+)/i.exec(invitation)?.[1];
    expect(password).toBeTruthy();
    expect(server.logs()).not.toContain(password);
    expect(server.logs()).not.toContain(created.body.temp_password);
  });

  it('refuses with 409 for a user who has set a password, whose password and sessions stay', async () => {
    const staff = await createStaff(server, { role: 'provider', organizationId: orgId });
    const staffClient = await signIn(server, staff);
    const res = await adminClient.post(`/api/admin/users/${staff.id}/resend-invite`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ message: AdminErrors.inviteNotPending });
    expect((await server.identity.directory.getUser(staff.cognitoUsername))?.status).toBe('CONFIRMED');
    expect((await staffClient.get('/api/me')).status).toBe(200);
    await expect(signIn(server, staff)).resolves.toBeDefined(); // the old password still works
    expect((await auditOf('user.resend_invite')).at(-1)).toMatchObject({ target_user_id: staff.id, outcome: 'failure' });
  });
});

describe('MFA in the users list', () => {
  it('shows the pool’s MFA state, also when the portal was not told', async () => {
    const staff = await createStaff(server, { role: 'provider', organizationId: orgId });
    const listed = async () =>
      (await adminClient.get<AdminUsersResponse>('/api/admin/users')).body.users.find((u) => u.id === staff.id)?.mfa_enabled;
    expect(await listed()).toBe(false);
    const access = await poolAccessToken(server, staff.email, staff.password);
    const endpoint = `${server.url}/cognito`;
    const secret = String((await callPool(endpoint, 'AssociateSoftwareToken', { AccessToken: access })).json.SecretCode);
    await callPool(endpoint, 'VerifySoftwareToken', { AccessToken: access, UserCode: await totpCode(secret) });
    await callPool(endpoint, 'SetUserMFAPreference', { AccessToken: access, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } });
    expect(await listed()).toBe(true);
  });
});

describe('GET /api/roles', () => {
  it('answers the roles from the roles table', async () => {
    const res = await adminClient.get('/api/roles');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ roles: ['admin', 'provider'] });
  });

  it('needs a session', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/roles' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ message: ApiErrors.unauthorized });
  });
});
