import { ApiErrors, PatientErrors, latestToday } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createStaff, signIn, startTestServer, type ApiClient, type TestServer } from './support/http.ts';

let server: TestServer;
let orgId: number;
let provider: ApiClient;
let providerId: number;

beforeAll(async () => {
  server = await startTestServer();
  orgId = (await createOrganization(server)).id;
  const staff = await createStaff(server, { role: 'provider', organizationId: orgId });
  providerId = staff.id;
  provider = await signIn(server, staff);
});
afterAll(async () => server?.close());

/** Every field of the patient itself, as PUT requires. */
const fullPatient = (overrides: Record<string, unknown> = {}) => ({
  first_name: 'Vera',
  middle_name: null,
  last_name: 'Lidation',
  date_of_birth: '1950-01-01',
  gender: 'female',
  organization_id: orgId,
  primary_provider_id: null,
  enrolled_rpm: true,
  enrollment_status: 'Active',
  ...overrides,
});

const addDays = (date: string, days: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

async function newPatient(): Promise<number> {
  const res = await provider.post<{ id: number }>('/api/patients', fullPatient());
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('dates of birth', () => {
  it.each(['0000-01-01', '1899-12-31', addDays(latestToday(), 1), '9999-12-31'])('refuses %s with 400 and says why', async (date) => {
    const res = await provider.post('/api/patients', fullPatient({ date_of_birth: date }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: PatientErrors.dateOfBirthOutOfRange });
  });

  it('accepts 1900-01-01 and today, and refuses a policyholder birthdate of year 0', async () => {
    expect((await provider.post('/api/patients', fullPatient({ date_of_birth: '1900-01-01' }))).status).toBe(201);
    const today = new Date().toISOString().slice(0, 10);
    expect((await provider.post('/api/patients', fullPatient({ date_of_birth: today }))).status).toBe(201);
    const res = await provider.post(
      '/api/patients',
      fullPatient({ insurances: [{ type: 'Private', provider_name: 'Acme', policyholder_birthdate: '0000-01-01' }] }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: PatientErrors.policyholderBirthdateOutOfRange });
  });
});

describe('tracking time', () => {
  it('refuses a date in the future and 0 minutes', async () => {
    const id = await newPatient();
    const future = await provider.post(`/api/patients/${id}/sessions`, { date: '2099-01-01', duration_minutes: 10 });
    expect(future.status).toBe(400);
    expect(future.body).toMatchObject({ message: PatientErrors.trackingDateInFuture });
    const zero = await provider.post(`/api/patients/${id}/sessions`, { date: '2026-01-05', duration_minutes: 0 });
    expect(zero.status).toBe(400);
    const missing = await provider.post(`/api/patients/${id}/sessions`, { date: '2026-01-05' });
    expect(missing.status).toBe(400);
  });

  it('allows at most 1,440 minutes per patient per day, all entries together', async () => {
    const id = await newPatient();
    const other = await newPatient();
    const day = '2025-03-04';
    expect((await provider.post(`/api/patients/${id}/sessions`, { date: day, duration_minutes: 1000 })).status).toBe(201);
    const over = await provider.post(`/api/patients/${id}/sessions`, { date: day, duration_minutes: 441 });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ message: PatientErrors.trackingDayFull });
    expect((await provider.post(`/api/patients/${id}/sessions`, { date: day, duration_minutes: 440 })).status).toBe(201);
    // Another day, and another patient the same day, have their own allowance.
    expect((await provider.post(`/api/patients/${id}/sessions`, { date: '2025-03-05', duration_minutes: 1440 })).status).toBe(201);
    expect((await provider.post(`/api/patients/${other}/sessions`, { date: day, duration_minutes: 1440 })).status).toBe(201);
  });

  it('counts two entries saved at the same moment one after the other', async () => {
    const id = await newPatient();
    const results = await Promise.all(
      [1, 2, 3].map(() => provider.post(`/api/patients/${id}/sessions`, { date: '2025-06-07', duration_minutes: 700 })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 400]);
  });
});

describe('primary provider', () => {
  it('must be an active provider of the patient’s organization', async () => {
    const admin = await createStaff(server, { role: 'admin', organizationId: orgId });
    const disabled = await createStaff(server, { role: 'provider', organizationId: orgId, status: 'disabled' });
    const elsewhere = await createStaff(server, { role: 'provider', organizationId: (await createOrganization(server)).id });
    for (const candidate of [admin.id, disabled.id, elsewhere.id, 2147483647]) {
      const res = await provider.post('/api/patients', fullPatient({ primary_provider_id: candidate }));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: PatientErrors.providerNotInOrganization });
    }
    expect((await provider.post('/api/patients', fullPatient({ primary_provider_id: providerId }))).status).toBe(201);
  });
});

describe('ids', () => {
  it.each(['0x10', '1e3', '+5', '05', '%205', '5.0', '-1', '0'])('refuses /api/patients/%s with 400', async (raw) => {
    const res = await provider.get(`/api/patients/${raw}`);
    expect(res.status).toBe(400);
  });

  it.each(['limit=1e1', 'limit=0x5', 'offset=+1', 'offset=01'])('refuses the query %s with 400', async (query) => {
    const id = await newPatient();
    expect((await provider.get(`/api/patients/${id}/sessions?${query}`)).status).toBe(400);
  });

  // JSON Schema counts 1e308 as an integer: without a maximum it reached PostgreSQL and failed there.
  it.each([1e308, 2147483648])('refuses %s as an id in a body with 400, and saves nothing', async (huge) => {
    const admin = await signIn(server, await createStaff(server, { role: 'admin', organizationId: null }));
    const id = await newPatient();
    const attach = await admin.post('/api/unmatched-readings/attach', { reading_ids: [1], patient_id: huge });
    expect(attach.status).toBe(400);
    expect((await admin.post('/api/unmatched-readings/attach', { reading_ids: [huge], patient_id: id })).status).toBe(
      huge > Number.MAX_SAFE_INTEGER ? 400 : 409, // a bigint id: valid, and no such unmatched reading
    );
    expect((await provider.post('/api/patients', fullPatient({ organization_id: huge }))).status).toBe(400);
    expect((await provider.put(`/api/patients/${id}`, fullPatient({ primary_provider_id: huge }))).status).toBe(400);
    const typed = await provider.post(`/api/patients/${id}/observations`, {
      kind: 'weight',
      created_at: new Date().toISOString(),
      components: { weight: huge * 1e300 },
    });
    expect(typed.status).toBe(400);
    expect((await provider.get(`/api/patients/${id}/observations?kind=weight`)).body).toMatchObject({ total: 0 });
  });

  it('still reads plain decimal ids and page numbers', async () => {
    const id = await newPatient();
    expect((await provider.get(`/api/patients/${id}`)).status).toBe(200);
    expect((await provider.get(`/api/patients/${id}/sessions?limit=10&offset=0`)).status).toBe(200);
  });
});

describe('NUL characters', () => {
  it('are refused with 400 by the user pool’s endpoint too', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/cognito',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
      },
      payload: JSON.stringify({
        AuthFlow: 'USER_SRP_AUTH',
        ClientId: server.identity.appConfig.clientId,
        AuthParameters: { USERNAME: 'someone\u0000@example.com', SRP_A: 'ab' },
      }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: ApiErrors.nulCharacter });
  });
});

describe('PUT /api/patients/{id}', () => {
  it('requires every field of the patient, and names the one missing', async () => {
    const id = await newPatient();
    for (const field of Object.keys(fullPatient())) {
      const body: Record<string, unknown> = fullPatient();
      delete body[field];
      const res = await provider.put<{ message: string }>(`/api/patients/${id}`, body);
      expect(res.status, field).toBe(400);
      expect(res.body.message).toContain(field);
    }
    const unchanged = await provider.get<{ gender: string; enrollment_status: string }>(`/api/patients/${id}`);
    expect(unchanged.body).toMatchObject({ gender: 'female', enrollment_status: 'Active' });
  });

  it('keeps insurances and devices when they are left out', async () => {
    const created = await provider.post<{ id: number }>(
      '/api/patients',
      fullPatient({ insurances: [{ type: 'Medicare', provider_name: 'CMS', policy_number: 'M-1' }] }),
    );
    const id = created.body.id;
    const saved = await provider.put<{ first_name: string; insurances: unknown[] }>(`/api/patients/${id}`, fullPatient({ first_name: 'Renamed' }));
    expect(saved.status).toBe(200);
    expect(saved.body.first_name).toBe('Renamed');
    expect(saved.body.insurances).toHaveLength(1);
  });
});
