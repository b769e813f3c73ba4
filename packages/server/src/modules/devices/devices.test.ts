import { AdminErrors, type Device } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrganization,
  startTestServer,
  type ApiClient,
  type TestServer,
  signInNewStaff,
} from '../../../test/support/http.ts';
import { buildDevice, buildPatient } from '../../../test/support/factories.ts';

let server: TestServer;
let admin: ApiClient;
let provider: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  const orgA = await createOrganization(server);
  const orgB = await createOrganization(server);
  admin = await signInNewStaff(server, 'admin', orgA.id);
  provider = await signInNewStaff(server, 'provider', orgA.id);
  const own = await buildPatient(server.db.pool, { firstName: 'Ann', lastName: 'Own', dateOfBirth: '1950-02-03', organizationId: orgA.id });
  const other = await buildPatient(server.db.pool, { firstName: 'Bob', lastName: 'Other', dateOfBirth: '1960-04-05', organizationId: orgB.id });
  await buildDevice(server.db.pool, { deviceId: 'OWN-1', model: 'BP5', type: 'cuff', patientId: own });
  await buildDevice(server.db.pool, { deviceId: 'OTHER-1', model: 'BP5', type: 'cuff', patientId: other });
});
afterAll(async () => server?.close());

describe('POST /api/devices', () => {
  it('creates a device, blank model and type stored as null', async () => {
    const res = await admin.post<Device>('/api/devices', { device_id: ' FREE-1 ', model: '', type: 'scale' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      device_id: 'FREE-1',
      model: null,
      type: 'scale',
      patient_id: null,
      battery_level: null,
      battery_at: null,
      patient: null,
    });
  });

  it('answers 409 for a device id already taken, whatever its case', async () => {
    const res = await admin.post('/api/devices', { device_id: 'free-1' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ message: AdminErrors.deviceExists });
    const { rows } = await server.db.pool.query(
      `SELECT outcome FROM audit_logs WHERE action = 'device.create' ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0].outcome).toBe('failure');
  });

  it('requires a device id', async () => {
    expect((await admin.post('/api/devices', { device_id: '  ' })).status).toBe(400);
    expect((await admin.post('/api/devices', { model: 'X' })).status).toBe(400);
  });
});

describe('GET /api/devices', () => {
  it('gives an admin every device with its patient', async () => {
    const res = await admin.get<Device[]>('/api/devices');
    expect(res.status).toBe(200);
    expect(res.body.map((d) => d.device_id)).toEqual(['FREE-1', 'OTHER-1', 'OWN-1']);
    expect(res.body.find((d) => d.device_id === 'OWN-1')?.patient).toEqual({ first_name: 'Ann', last_name: 'Own', date_of_birth: '1950-02-03' });
  });

  it('gives a provider only free devices and those of their own patients', async () => {
    const res = await provider.get<Device[]>('/api/devices');
    expect(res.body.map((d) => d.device_id)).toEqual(['FREE-1', 'OWN-1']);
    expect(JSON.stringify(res.body)).not.toContain('Bob');
  });
});
