import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import type { CurrentUser } from '@rpm/contracts';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from './test-server.ts';

/** The answers a test portal gives: who is signed in (null = nobody), and which calls arrived. */
export interface TestPortalState {
  user: CurrentUser | null;
  calls: string[];
}

export const testPortal: TestPortalState = { user: null, calls: [] };

export const USER_POOL_ENDPOINT = 'http://localhost:3000/cognito';

export function makeUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 1,
    email: 'pat.provider@example.com',
    role: 'provider',
    first_name: 'Pat',
    last_name: 'Provider',
    organization_id: 1,
    status: 'active',
    mfa_enabled: false,
    ...overrides,
  };
}

/** Signs a user in as far as the API is concerned: the session cookie exists and /api/me answers. */
export function signInForTest(user: CurrentUser): void {
  testPortal.user = user;
  localStorage.setItem('rpm.hasSession', '1');
}

export const server = setupTestServer(
  http.get('/app-config.json', () =>
    HttpResponse.json({
      userPoolId: 'local_test',
      clientId: 'testclient',
      region: 'local',
      userPoolEndpoint: USER_POOL_ENDPOINT,
    }),
  ),
  http.get('/api/me', () => {
    testPortal.calls.push('GET /api/me');
    return testPortal.user
      ? HttpResponse.json({ user: testPortal.user })
      : HttpResponse.json({ message: 'Authentication required' }, { status: 401 });
  }),
  http.post('/api/logout', () => {
    testPortal.calls.push('POST /api/logout');
    testPortal.user = null;
    return new HttpResponse(null, { status: 204 });
  }),
  // The sidebar badge and the dashboard ask for the active alerts.
  http.get('/api/alerts/summary', () =>
    HttpResponse.json({
      open: 0,
      patients: 0,
      by_severity: { critical: 0, warning: 0, info: 0 },
      escalated: 0,
      stale_patients: 0,
    }),
  ),
);

export function resetTestPortal(): void {
  testPortal.user = null;
  testPortal.calls = [];
}

/**
 * Runs the fake portal for the calling test file: unknown requests and answers that break the
 * contract fail the test, and after each test the handlers, the signed-in user, the call log and
 * the clock are back to normal.
 */
export function runPortalTestServer(): void {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    vi.useRealTimers();
    server.resetHandlers();
    resetTestPortal();
  });
  afterAll(() => server.close());
}
