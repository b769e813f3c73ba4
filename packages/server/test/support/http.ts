/**
 * HTTP test set-up: the real app on a free port (the local user pool's admin API is called
 * over HTTP, as in production), real pool users, and real sign-in through SRP with the Amplify
 * client the browser uses, then POST /api/token for a portal session.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { CSRF_HEADER, CSRF_HEADER_VALUE, type Role } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { freePort } from '../../src/free-port.ts';
import type { Identity } from '../../src/modules/identity/index.ts';
import { createPortalIdentity } from '../../src/identity-wiring.ts';
import { createTestDatabase, testKeys, type TestDatabase } from '../db.ts';
import { srpAccessToken } from '../srp-client.ts';
import { buildOrganization, buildPatient, buildStaff } from './factories.ts';

export interface TestServer {
  app: FastifyInstance;
  url: string;
  db: TestDatabase;
  identity: Identity;
  config: Config;
  /** Every log line the server wrote, for asserting that no secret ever appears in one. */
  logs(): string;
  close(): Promise<void>;
}

/** The portal on a database of its own (or on `database`, already migrated, which it then owns and drops). */
export async function startTestServer(env: Record<string, string> = {}, database?: TestDatabase): Promise<TestServer> {
  const db = database ?? (await createTestDatabase());
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '100000',
    ...env,
  });
  let logs = '';
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        logs += chunk.toString();
        cb();
      },
    }),
  );
  const identity = await createPortalIdentity({
    settings: { mode: 'local', publicUrl: config.publicUrl, localMfa: config.localMfa },
    db: db.pool,
    log,
    masterKey: testKeys.masterKey,
    // Tests sign in many times from 127.0.0.1; the production limit would throttle the suite.
    // The reset answers' timing floor is tested with the pool (modules/identity/account-safety.test.ts).
    localPoolOptions: { throttle: { ipPerMinute: 100_000 }, resetAnswerFloorMs: 0 },
  });
  const app = await buildApp({ config, pool: db.pool, identity, logger: log, auditHmacKey: testKeys.auditHmacKey });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    url: config.publicUrl,
    db,
    identity,
    config,
    logs: () => logs,
    async close() {
      await app.close();
      await identity.close();
      await db.drop();
    },
  };
}

export interface Staff {
  id: number;
  email: string;
  password: string;
  cognitoUsername: string;
  role: Role;
  organizationId: number | null;
}

/** A password that meets the policy, different every time. */
export const newPassword = () => `Pw-${randomBytes(6).toString('hex')}-A1!`;

export async function createOrganization(server: TestServer, name = `Clinic ${randomBytes(3).toString('hex')}`) {
  return buildOrganization(server.db.pool, { name });
}

/** A confirmed user-pool account with a permanent password, and its portal record. */
export async function createStaff(
  server: TestServer,
  opts: { role: Role; organizationId: number | null; email?: string; status?: 'active' | 'disabled' },
): Promise<Staff> {
  const email = opts.email ?? `${opts.role}-${randomBytes(4).toString('hex')}@example.com`;
  const password = newPassword();
  const { user } = await server.identity.directory.createUser({ email, suppressMessage: true });
  await server.identity.directory.setPassword(user.username, password, true);
  const staff = await buildStaff(server.db.pool, opts.role, {
    email,
    status: opts.status ?? 'active',
    firstName: 'Test',
    lastName: opts.role,
    organizationId: opts.organizationId,
    cognitoUsername: user.username,
    cognitoSub: user.sub,
  });
  return {
    id: staff.id,
    email,
    password,
    cognitoUsername: user.username,
    role: opts.role,
    organizationId: opts.organizationId,
  };
}

/** Signs in through the local pool with SRP, exactly as the browser does, and returns the access token. */
export function poolAccessToken(server: TestServer, email: string, password: string): Promise<string> {
  return srpAccessToken(server.identity.appConfig, email, password);
}

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
}

export interface ApiClient {
  cookie: string | null;
  request<T = unknown>(
    method: string,
    path: string,
    opts?: { body?: unknown; headers?: Record<string, string>; rawBody?: string },
  ): Promise<ApiResponse<T>>;
  get<T = unknown>(path: string): Promise<ApiResponse<T>>;
  post<T = unknown>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  put<T = unknown>(path: string, body?: unknown): Promise<ApiResponse<T>>;
}

/** A client with the CSRF header and, when given, a session cookie; requests go through inject. */
export function apiClient(server: TestServer, cookie: string | null = null): ApiClient {
  const client: ApiClient = {
    cookie,
    async request<T>(
      method: string,
      path: string,
      opts: { body?: unknown; headers?: Record<string, string>; rawBody?: string } = {},
    ) {
      const headers: Record<string, string> = { [CSRF_HEADER]: CSRF_HEADER_VALUE, ...opts.headers };
      if (client.cookie) headers.cookie = client.cookie;
      let payload: string | undefined = opts.rawBody;
      if (opts.body !== undefined) {
        payload = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await server.app.inject({
        method: method as 'GET',
        url: path,
        headers,
        payload,
        remoteAddress: '127.0.0.1',
      });
      let body: unknown = res.body;
      try {
        body = res.body ? JSON.parse(res.body) : undefined;
      } catch {
        /* not JSON */
      }
      return { status: res.statusCode, body: body as T, headers: res.headers };
    },
    get: (path) => client.request('GET', path),
    post: (path, body) => client.request('POST', path, { body: body ?? {} }),
    put: (path, body) => client.request('PUT', path, { body }),
  };
  return client;
}

/** Real sign-in: SRP against the pool, then POST /api/token; the client carries the session cookie. */
export async function signIn(server: TestServer, staff: Pick<Staff, 'email' | 'password'>): Promise<ApiClient> {
  const token = await poolAccessToken(server, staff.email, staff.password);
  const anonymous = apiClient(server);
  const res = await anonymous.post('/api/token', { token });
  if (res.status !== 200) throw new Error(`POST /api/token answered ${res.status}: ${JSON.stringify(res.body)}`);
  const setCookie = res.headers['set-cookie'];
  const raw = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  if (!raw) throw new Error('POST /api/token set no cookie');
  return apiClient(server, String(raw).split(';')[0]!);
}

/** A new staff member of that role and organization, signed in: all most route tests need of them. */
export async function signInNewStaff(
  server: TestServer,
  role: Role,
  organizationId: number | null,
): Promise<ApiClient> {
  return signIn(server, await createStaff(server, { role, organizationId }));
}

/** A running portal with a signed-in provider, a patient of their organization and one of another. */
export interface PatientFixture {
  server: TestServer;
  provider: ApiClient;
  /** The provider's organization, which `patientId` belongs to. */
  organizationId: number;
  patientId: number;
  otherPatientId: number;
}

/** Starts the portal and creates the fixture; `firstName` tells the suites' patients apart. */
export async function startPatientFixture(firstName: string): Promise<PatientFixture> {
  const server = await startTestServer();
  const org = await createOrganization(server);
  const other = await createOrganization(server);
  const provider = await signInNewStaff(server, 'provider', org.id);
  const insert = (organizationId: number) =>
    buildPatient(server.db.pool, { organizationId, firstName, lastName: 'Patient' });
  return {
    server,
    provider,
    organizationId: org.id,
    patientId: await insert(org.id),
    otherPatientId: await insert(other.id),
  };
}
