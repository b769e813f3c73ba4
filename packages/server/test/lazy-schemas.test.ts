import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyCompilationOf, type LazyCompilation } from '../src/plugins/lazy-compile.ts';
import {
  createOrganization,
  createStaff,
  signIn,
  startTestServer,
  type ApiClient,
  type TestServer,
} from './support/http.ts';

// Route validators and response serializers are compiled on a route's first request, not at
// start-up (plugins/lazy-compile.ts). The first request must be checked exactly as every later one.
let server: TestServer;
let lazy: LazyCompilation;
let provider: ApiClient;
let patientId: number;

beforeAll(async () => {
  server = await startTestServer();
  lazy = lazyCompilationOf(server.app)!;
  const orgId = (await createOrganization(server)).id;
  provider = await signIn(server, await createStaff(server, { role: 'provider', organizationId: orgId }));
  const created = await provider.post<{ id: number }>('/api/patients', {
    first_name: 'Lazy',
    middle_name: null,
    last_name: 'Compile',
    date_of_birth: '1950-01-01',
    gender: 'female',
    organization_id: orgId,
    primary_provider_id: null,
    enrolled_rpm: true,
    enrollment_status: 'Active',
  });
  expect(created.status).toBe(201);
  patientId = created.body.id;
});
afterAll(async () => server?.close());

describe('route schemas compiled on first use', () => {
  it('leaves the schemas of routes not yet called uncompiled after start-up', () => {
    const { registered, compiled } = lazy.counts();
    // Every route with a schema registered its validators and serializers...
    expect(registered).toBeGreaterThan(200);
    // ...and only those of the few routes the set-up above called were built.
    expect(compiled).toBeLessThan(registered / 4);
  });

  it('refuses bad input on the first request to a route, with the coercion guard, then serves good input', async () => {
    const before = lazy.counts().compiled;
    // This route's query validator is built by this very request: "0x10" must not be coerced to 16.
    const hex = await provider.get(`/api/patients/${patientId}/vitals?limit=0x10`);
    expect(hex.status).toBe(400);
    expect(hex.body).toMatchObject({ message: expect.stringMatching(/whole number written in digits/) });
    expect(lazy.counts().compiled).toBeGreaterThan(before);

    const tooBig = await provider.get(`/api/patients/${patientId}/vitals?limit=100000`);
    expect(tooBig.status).toBe(400);
    const unknown = await provider.get(`/api/patients/${patientId}/vitals?limit=10&colour=red`);
    expect(unknown.status).toBe(400);

    const ok = await provider.get<{ items: unknown[]; total: number }>(`/api/patients/${patientId}/vitals?limit=10`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ items: [], total: 0 });
  });

  it('refuses a bad body on the first request to a route (strict types: a string is not a number)', async () => {
    const res = await provider.post(`/api/patients/${patientId}/vitals`, {
      systolic: '120',
      diastolic: 80,
      pulse: 70,
      measured_at: new Date().toISOString(),
    });
    expect(res.status).toBe(400);
  });

  it('answers a first request through its response schema', async () => {
    const res = await provider.get<Record<string, unknown>>(`/api/patients/${patientId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: patientId, first_name: 'Lazy', last_name: 'Compile' });
  });

  it('compiles every schema of every route without error (what start-up compilation used to prove)', () => {
    const built = lazy.compilePending();
    expect(built).toBeGreaterThan(0);
    const { registered, compiled } = lazy.counts();
    expect(compiled).toBe(registered);
    expect(lazy.compilePending()).toBe(0);
  });
});
