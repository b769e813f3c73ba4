import { CSRF_HEADER, CSRF_HEADER_VALUE, DevicesResponse } from '@rpm/contracts';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callApi, callPath, defineCall } from './client.ts';
import { ContractMismatchError } from './contract-check.ts';
import { getDevices } from './devices/get-devices.ts';
import { ApiError } from './errors.ts';

// A bare MSW server on purpose: these handlers break the contract, which the test server would refuse.
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const device = {
  id: 1,
  device_id: 'BP-1',
  model: null,
  type: null,
  patient_id: null,
  battery_level: null,
  battery_at: null,
  patient: null,
};

describe('the API client', () => {
  it('fills in path segments and leaves empty query values out', () => {
    const call = defineCall('GET', '/api/patients/:id/vitals', false);
    expect(callPath(call, { params: { id: 4 }, query: { limit: 10, offset: 0, q: '', sort: undefined } })).toBe(
      '/api/patients/4/vitals?limit=10&offset=0',
    );
    expect(callPath(defineCall('GET', '/api/db/schema/:table', false), { params: { table: 'a/b' } })).toBe(
      '/api/db/schema/a%2Fb',
    );
    expect(() => callPath(call)).toThrow(':id');
  });

  it('hands back an answer that keeps its contract', async () => {
    server.use(http.get('/api/devices', () => HttpResponse.json([device])));
    await expect(getDevices()).resolves.toEqual([device]);
  });

  it('in development and tests, refuses an answer that breaks its contract, naming the call and the field', async () => {
    const { battery_level: _dropped, ...withoutBattery } = device;
    server.use(http.get('/api/devices', () => HttpResponse.json([withoutBattery])));
    const failure = getDevices();
    await expect(failure).rejects.toBeInstanceOf(ContractMismatchError);
    await expect(failure).rejects.toThrow(/GET \/api\/devices .*\/0 .*battery_level/);
    // The same schema object the server serializes with.
    expect(DevicesResponse.type).toBe('array');
  });

  it('turns a refusal into an ApiError with the server message, or an empty one', async () => {
    server.use(
      http.get('/api/devices', () => HttpResponse.json({ message: 'Forbidden' }, { status: 403 }), { once: true }),
      http.get('/api/devices', () => new HttpResponse('<html>bad gateway</html>', { status: 502 })),
    );
    await expect(getDevices()).rejects.toEqual(new ApiError(403, 'Forbidden'));
    await expect(getDevices()).rejects.toEqual(new ApiError(502, ''));
  });

  it('sends the CSRF header and `{}` as the body of a POST without one', async () => {
    let seen: { csrf: string | null; body: string } | null = null;
    server.use(
      http.post('/api/thing', async ({ request }) => {
        seen = { csrf: request.headers.get(CSRF_HEADER), body: await request.text() };
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await callApi(defineCall('POST', '/api/thing', false));
    expect(seen).toEqual({ csrf: CSRF_HEADER_VALUE, body: '{}' });
  });
});
