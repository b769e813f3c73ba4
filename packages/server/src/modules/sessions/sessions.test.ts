import {
  ApiErrors,
  IDLE_TIMEOUT_MS,
  LOGOUT_BEACON_PATH,
  MAX_SESSIONS_PER_USER,
  SESSION_ABSOLUTE_LIFETIME_MS,
  SESSION_COOKIE,
  TOKEN_EXCHANGE_FAILURES_PER_MINUTE,
} from '@rpm/contracts';
import { fetchAuthSession, signIn as amplifySignIn } from 'aws-amplify/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createOrganization,
  createStaff,
  newPassword,
  type ApiClient,
  type Staff,
  type TestServer,
  startTestServer,
} from '../../../test/support/http.ts';
import { readOutbox } from '../identity/index.ts';
import { callPool } from '../identity/test-support/harness.ts';
import { configureAmplify, storedRefreshToken } from '../identity/test-support/amplify-client.ts';
import { totpCode } from '../identity/totp.ts';
import { tokenExchangeFailureCounts } from '../token/exchange-failures.ts';
import { pruneEndedSessions } from './sessions.service.ts';
import { backdateSession, backdateSignIns, idleSessions } from '../../../test/support/factories.ts';

let server: TestServer;
let orgId: number;
let endpoint: string;
let clientId: string;

beforeAll(async () => {
  server = await startTestServer();
  orgId = (await createOrganization(server)).id;
  endpoint = `${server.url}/cognito`;
  clientId = server.identity.appConfig.clientId;
});
afterAll(async () => server?.close());

const newStaff = () => createStaff(server, { role: 'provider', organizationId: orgId });

/** A real SRP sign-in with the browser's client; answers the access and refresh tokens. */
async function poolSignIn(staff: Pick<Staff, 'email' | 'password'>): Promise<{ access: string; refresh: string }> {
  const store = configureAmplify(server.identity);
  const result = await amplifySignIn({ username: staff.email, password: staff.password });
  if (result.nextStep.signInStep !== 'DONE') throw new Error(`sign-in stopped at ${result.nextStep.signInStep}`);
  const access = (await fetchAuthSession()).tokens?.accessToken.toString();
  if (!access) throw new Error('no access token');
  const refresh = storedRefreshToken(store);
  store.clear(); // forget locally; never sign out (that would revoke the refresh token)
  return { access, refresh };
}

/** A new access token from a refresh token, or the pool's error type. */
async function refreshed(refresh: string): Promise<{ access?: string; error?: unknown }> {
  const r = await callPool(endpoint, 'InitiateAuth', {
    ClientId: clientId,
    AuthFlow: 'REFRESH_TOKEN_AUTH',
    AuthParameters: { REFRESH_TOKEN: refresh },
  });
  const result = r.json.AuthenticationResult as { AccessToken?: string } | undefined;
  return result?.AccessToken ? { access: result.AccessToken } : { error: r.json.__type };
}

/** POST /api/token; a client carrying the session cookie when it worked. */
async function exchange(token: string): Promise<{ status: number; body: unknown; client: ApiClient }> {
  const res = await apiClient(server).post('/api/token', { token });
  const raw = res.headers['set-cookie'];
  const cookie = raw ? String(Array.isArray(raw) ? raw[0] : raw).split(';')[0]! : null;
  return { status: res.status, body: res.body, client: apiClient(server, cookie) };
}

async function sessionOf(token: string): Promise<ApiClient> {
  const res = await exchange(token);
  expect(res.status).toBe(200);
  return res.client;
}

const meStatus = async (client: ApiClient) => (await client.get('/api/me')).status;

describe('account changes in the user pool end portal sessions', () => {
  it('a password reset ends every session of the user and revokes every refresh token', async () => {
    const staff = await newStaff();
    const first = await poolSignIn(staff);
    const second = await poolSignIn(staff);
    const a = await sessionOf(first.access);
    const b = await sessionOf(second.access);
    expect(await meStatus(a)).toBe(200);

    await callPool(endpoint, 'ForgotPassword', { ClientId: clientId, Username: staff.email });
    const code = /\b(\d{6})\b/.exec((await readOutbox(server.db.pool, staff.email))?.text ?? '')?.[1];
    expect(code).toBeDefined();
    const reset = await callPool(endpoint, 'ConfirmForgotPassword', {
      ClientId: clientId,
      Username: staff.email,
      ConfirmationCode: code,
      Password: newPassword(),
    });
    expect(reset.status).toBe(200);

    expect(await meStatus(a)).toBe(401);
    expect(await meStatus(b)).toBe(401);
    expect((await refreshed(first.refresh)).error).toBe('NotAuthorizedException');
    expect((await refreshed(second.refresh)).error).toBe('NotAuthorizedException');
    const { rows } = await server.db.pool.query(`SELECT DISTINCT end_reason FROM sessions WHERE user_id = $1`, [staff.id]);
    expect(rows).toEqual([{ end_reason: 'password_reset' }]);
  });

  it('a password change keeps the session that made it and ends the others, with their refresh tokens', async () => {
    const staff = await newStaff();
    const mine = await poolSignIn(staff);
    const other = await poolSignIn(staff);
    const kept = await sessionOf(mine.access);
    const ended = await sessionOf(other.access);

    const change = await callPool(endpoint, 'ChangePassword', {
      AccessToken: mine.access,
      PreviousPassword: staff.password,
      ProposedPassword: newPassword(),
    });
    expect(change.status).toBe(200);

    expect(await meStatus(kept)).toBe(200);
    expect(await meStatus(ended)).toBe(401);
    expect((await refreshed(other.refresh)).error).toBe('NotAuthorizedException');
    expect((await refreshed(mine.refresh)).access).toBeDefined();
  });

  it('a global sign-out, by the user or by an admin, ends every session', async () => {
    const staff = await newStaff();
    const own = await poolSignIn(staff);
    const a = await sessionOf(own.access);
    const b = await sessionOf((await poolSignIn(staff)).access);
    expect((await callPool(endpoint, 'GlobalSignOut', { AccessToken: own.access })).status).toBe(200);
    expect(await meStatus(a)).toBe(401);
    expect(await meStatus(b)).toBe(401);

    const c = await sessionOf((await poolSignIn(staff)).access);
    await server.identity.directory.signOutEverywhere(staff.cognitoUsername);
    expect(await meStatus(c)).toBe(401);
  });
});

describe('sessions keep to their limits', () => {
  it('an access token opens one session: a second exchange, also after logout, is refused', async () => {
    const staff = await newStaff();
    const { access } = await poolSignIn(staff);
    const client = await sessionOf(access);
    const again = await exchange(access);
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ message: ApiErrors.unauthorized });
    expect(again.client.cookie).toBeNull();
    await client.post('/api/logout');
    expect((await exchange(access)).status).toBe(401);
  });

  it('logout revokes the sign-in behind the session: its refresh token mints nothing more', async () => {
    const staff = await newStaff();
    const { access, refresh } = await poolSignIn(staff);
    const client = await sessionOf(access);
    const later = await refreshed(refresh);
    expect(later.access).toBeDefined();
    expect((await client.post('/api/logout')).status).toBe(204);
    expect((await refreshed(refresh)).error).toBe('NotAuthorizedException');
    expect((await exchange(later.access!)).status).toBe(401);
  });

  it('a reload that opens a new session from the same sign-in ends the one its cookie named', async () => {
    const staff = await newStaff();
    const { access, refresh } = await poolSignIn(staff);
    const first = await sessionOf(access);
    // The reloaded page asks the pool for a fresh token and exchanges it with the old cookie still set.
    const fresh = (await refreshed(refresh)).access!;
    const res = await first.post('/api/token', { token: fresh });
    expect(res.status).toBe(200);
    expect(await meStatus(first)).toBe(401);
    const raw = res.headers['set-cookie'];
    const second = apiClient(server, String(Array.isArray(raw) ? raw[0] : raw).split(';')[0]!);
    expect(await meStatus(second)).toBe(200);
    // Another user's cookie, or another sign-in's, is never ended this way.
    const other = await newStaff();
    const otherClient = await sessionOf((await poolSignIn(other)).access);
    const third = await poolSignIn(staff);
    expect((await apiClient(server, otherClient.cookie).post('/api/token', { token: third.access })).status).toBe(200);
    expect(await meStatus(otherClient)).toBe(200);
  });

  it('the page-close beacon ends the session but keeps the sign-in, so that a reload opens a new one', async () => {
    const staff = await newStaff();
    const { access, refresh } = await poolSignIn(staff);
    const client = await sessionOf(access);
    const beacon = await client.request('POST', LOGOUT_BEACON_PATH, { headers: { 'x-requested-with': '' } });
    expect(beacon.status).toBe(204);
    expect(await meStatus(client)).toBe(401);
    const reloaded = await refreshed(refresh);
    expect(reloaded.access).toBeDefined();
    expect(await meStatus(await sessionOf(reloaded.access!))).toBe(200);
    expect((await client.request('POST', '/api/logout?page_closed=yes')).status).toBe(400);
  });

  it('refuses a token whose sign-in is older than the absolute limit, and ends a session at sign-in + limit', async () => {
    const staff = await newStaff();
    const old = await poolSignIn(staff);
    await backdateSignIns(server.db.pool, staff.cognitoUsername!, `${SESSION_ABSOLUTE_LIFETIME_MS + 60000} milliseconds`);
    const tooOld = await refreshed(old.refresh);
    const res = await exchange(tooOld.access!);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ message: ApiErrors.signInTooOld });

    const recent = await poolSignIn(staff);
    await backdateSignIns(server.db.pool, staff.cognitoUsername!, '11 hours');
    const client = await sessionOf((await refreshed(recent.refresh)).access!);
    const { rows } = await server.db.pool.query<{ left_ms: number }>(
      `SELECT extract(epoch FROM expires_at - now()) * 1000 AS left_ms FROM sessions
        WHERE user_id = $1 AND revoked_at IS NULL`,
      [staff.id],
    );
    // One hour left of the sign-in's twelve, not twelve new ones for the new cookie.
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]!.left_ms)).toBeGreaterThan(3_500_000);
    expect(Number(rows[0]!.left_ms)).toBeLessThan(3_700_000);
    expect(await meStatus(client)).toBe(200);
  });

  it(`keeps at most ${MAX_SESSIONS_PER_USER} live sessions per user: the oldest ends`, async () => {
    const staff = await newStaff();
    const { refresh } = await poolSignIn(staff);
    const clients: ApiClient[] = [];
    for (let i = 0; i <= MAX_SESSIONS_PER_USER; i++) clients.push(await sessionOf((await refreshed(refresh)).access!));
    expect(await meStatus(clients[0]!)).toBe(401);
    for (const c of clients.slice(1)) expect(await meStatus(c)).toBe(200);
    const { rows } = await server.db.pool.query(
      `SELECT count(*)::int AS n FROM sessions WHERE user_id = $1 AND revoked_at IS NULL`,
      [staff.id],
    );
    expect(rows[0].n).toBe(MAX_SESSIONS_PER_USER);
  });

  it('prunes rows a day past their end, and keeps the recent ones', async () => {
    const staff = await newStaff();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      await sessionOf((await poolSignIn(staff)).access);
      const { rows } = await server.db.pool.query<{ h: string }>(
        `SELECT encode(id_hash, 'hex') AS h FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1`,
        [staff.id],
      );
      ids.push(rows[0]!.h);
    }
    await backdateSession(server.db.pool, ids[0]!, { revokedAt: { ago: '25 hours' } });
    await backdateSession(server.db.pool, ids[1]!, { expiresAt: { ago: '25 hours' } });
    await backdateSession(server.db.pool, ids[2]!, { lastSeenAt: { ago: '25 hours' } });
    await backdateSession(server.db.pool, ids[3]!, { revokedAt: { ago: '23 hours' } });
    expect(await pruneEndedSessions(server.db.pool)).toBeGreaterThanOrEqual(3);
    const { rows } = await server.db.pool.query<{ h: string }>(
      `SELECT encode(id_hash, 'hex') AS h FROM sessions WHERE user_id = $1`,
      [staff.id],
    );
    expect(rows.map((r) => r.h)).toEqual([ids[3]]);
  });
});

describe('the session row is written at most once a minute', () => {
  const lastSeen = async (userId: number) =>
    (
      await server.db.pool.query<{ age_ms: number }>(
        `SELECT extract(epoch FROM now() - last_seen_at) * 1000 AS age_ms FROM sessions WHERE user_id = $1 AND revoked_at IS NULL`,
        [userId],
      )
    ).rows[0]!.age_ms;
  const setLastSeen = (userId: number, interval: string) => idleSessions(server.db.pool, { userId }, interval);

  it('leaves last_seen_at alone within the minute and moves it after', async () => {
    const staff = await newStaff();
    const client = await sessionOf((await poolSignIn(staff)).access);
    await setLastSeen(staff.id, '30 seconds');
    expect(await meStatus(client)).toBe(200);
    expect(Number(await lastSeen(staff.id))).toBeGreaterThanOrEqual(30_000);
    await setLastSeen(staff.id, '61 seconds');
    expect(await meStatus(client)).toBe(200);
    expect(Number(await lastSeen(staff.id))).toBeLessThan(5_000);
  });

  it(`still ends a session after ${IDLE_TIMEOUT_MS / 60_000} idle minutes`, async () => {
    const staff = await newStaff();
    const client = await sessionOf((await poolSignIn(staff)).access);
    // Active 14 minutes 30 seconds ago (recorded), then a request: recorded as now.
    await setLastSeen(staff.id, '14 minutes 30 seconds');
    expect(await meStatus(client)).toBe(200);
    expect(Number(await lastSeen(staff.id))).toBeLessThan(5_000);
    // A request within the minute is not written; the next one after 15 idle minutes is refused.
    await setLastSeen(staff.id, '20 seconds');
    expect(await meStatus(client)).toBe(200);
    await setLastSeen(staff.id, '15 minutes 1 second');
    const res = await client.get('/api/me');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ message: ApiErrors.sessionExpired });
  });
});

describe('what failed exchanges and empty logouts cost', () => {
  const auditCount = async (sql: string, params: unknown[] = []) =>
    (await server.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_logs WHERE ${sql}`, params)).rows[0]!.n;

  it('an anonymous logout without a session writes no audit record', async () => {
    const before = await auditCount(`action = 'auth.logout'`);
    expect((await apiClient(server).post('/api/logout')).status).toBe(204);
    expect((await apiClient(server, `${SESSION_COOKIE}=${'x'.repeat(43)}`).post('/api/logout')).status).toBe(204);
    expect(await auditCount(`action = 'auth.logout'`)).toBe(before);
  });

  it('failed exchanges are counted and limited per address, not written one per request', async () => {
    const ip = '198.51.100.7';
    const post = () =>
      server.app.inject({
        method: 'POST',
        url: '/api/token',
        remoteAddress: ip,
        headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' },
        payload: JSON.stringify({ token: 'x'.repeat(40) }),
      });
    const before = tokenExchangeFailureCounts();
    const statuses: number[] = [];
    for (let i = 0; i <= TOKEN_EXCHANGE_FAILURES_PER_MINUTE; i++) statuses.push((await post()).statusCode);
    expect(statuses.slice(0, TOKEN_EXCHANGE_FAILURES_PER_MINUTE)).toEqual(Array(TOKEN_EXCHANGE_FAILURES_PER_MINUTE).fill(401));
    expect(statuses.at(-1)).toBe(429);
    const after = tokenExchangeFailureCounts();
    expect(after.invalid_token - before.invalid_token).toBe(TOKEN_EXCHANGE_FAILURES_PER_MINUTE);
    expect(after.rate_limited - before.rate_limited).toBe(1);
    expect(await auditCount(`action = 'auth.token_exchange' AND ip_address = $1`, [ip])).toBe(0);
    // Another address is not affected.
    const staff = await newStaff();
    expect((await exchange((await poolSignIn(staff)).access)).status).toBe(200);
  });

  it('a successful exchange and a logout are audited', async () => {
    const staff = await newStaff();
    const client = await sessionOf((await poolSignIn(staff)).access);
    await client.post('/api/logout');
    const { rows } = await server.db.pool.query(
      `SELECT action, outcome, details FROM audit_logs WHERE target_user_id = $1 AND action IN ('auth.token_exchange', 'auth.logout') ORDER BY id`,
      [staff.id],
    );
    expect(rows).toMatchObject([
      { action: 'auth.token_exchange', outcome: 'success' },
      { action: 'auth.logout', outcome: 'success', details: { sign_in_revoked: true } },
    ]);
  });
});

describe('MFA state follows the user pool', () => {
  it('a user who turned on MFA in the pool has it on in the portal at the next exchange', async () => {
    const staff = await newStaff();
    const { access, refresh } = await poolSignIn(staff);
    const assoc = await callPool(endpoint, 'AssociateSoftwareToken', { AccessToken: access });
    const secret = String(assoc.json.SecretCode);
    const verified = await callPool(endpoint, 'VerifySoftwareToken', { AccessToken: access, UserCode: await totpCode(secret) });
    expect(verified.json.Status).toBe('SUCCESS');
    await callPool(endpoint, 'SetUserMFAPreference', {
      AccessToken: access,
      SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
    });
    const res = await exchange((await refreshed(refresh)).access!);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: { mfa_enabled: true } });
    expect((await res.client.get('/api/me')).body).toMatchObject({ user: { mfa_enabled: true } });

    // Turned off with only an access token: a wrong claim to the portal still brings it in step.
    await callPool(endpoint, 'SetUserMFAPreference', { AccessToken: access, SoftwareTokenMfaSettings: { Enabled: false } });
    expect((await res.client.post('/api/me/mfa', { enabled: true })).status).toBe(409);
    expect((await res.client.get('/api/me')).body).toMatchObject({ user: { mfa_enabled: false } });
  });
});
