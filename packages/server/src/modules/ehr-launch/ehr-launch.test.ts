import {
  EhrLaunchErrors,
  EhrLaunchPaths,
  type EhrLaunchResolved,
  type EhrLaunchSettings,
  type PatientDetail,
} from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastAuditOf } from '../../../test/support/audit.ts';
import {
  apiClient,
  createOrganization,
  createStaff,
  signIn,
  startTestServer,
  type ApiClient,
  type TestServer,
} from '../../../test/support/http.ts';
import { startTestEhr, type TestEhr } from '../../../test/support/test-ehr.ts';
import { expireEhrLaunches } from '../../../test/support/factories.ts';

const CLIENT_ID = 'rpm-portal-test';
const MRN_SYSTEM = 'urn:oid:1.2.36.146.595.217.0.1';

let server: TestServer;
let ehr: TestEhr;
let orgA: { id: number };
let orgB: { id: number };
let admin: ApiClient;
let providerA: ApiClient;
let providerB: ApiClient;
let patientId: number;

beforeAll(async () => {
  server = await startTestServer();
  ehr = await startTestEhr({
    clientId: CLIENT_ID,
    redirectUri: `${server.url}${EhrLaunchPaths.callback}`,
    patients: [
      { id: 'ehr-1', identifiers: [{ system: 'http://other.example/ids', value: 'X9' }, { system: MRN_SYSTEM, value: 'MRN-1001' }] },
      { id: 'ehr-2', identifiers: [{ system: MRN_SYSTEM, value: 'MRN-NOT-IN-PORTAL' }] },
    ],
  });
  orgA = await createOrganization(server);
  orgB = await createOrganization(server);
  admin = await signIn(server, await createStaff(server, { role: 'admin', organizationId: orgA.id }));
  providerA = await signIn(server, await createStaff(server, { role: 'provider', organizationId: orgA.id }));
  providerB = await signIn(server, await createStaff(server, { role: 'provider', organizationId: orgB.id }));
  const created = await providerA.post<PatientDetail>('/api/patients', {
    first_name: 'Ehr',
    last_name: 'Launched',
    organization_id: orgA.id,
    mrn: '  MRN-1001 ',
  });
  expect(created.status).toBe(201);
  expect(created.body.mrn).toBe('MRN-1001');
  patientId = created.body.id;
});
afterAll(async () => {
  await ehr?.close();
  await server?.close();
});

const settingsBody = (over: Record<string, unknown> = {}) => ({
  iss: ehr.iss,
  client_id: CLIENT_ID,
  patient_identifier_system: MRN_SYSTEM,
  ...over,
});

/** The EHR opens the portal: launch, the EHR's authorize step, and the callback. The launch cookie and where the callback sent the browser. */
async function launchFromEhr(launch: string, ehrPatient: string): Promise<{ cookie: string; location: string; status: number }> {
  ehr.launchFor(launch, ehrPatient);
  const start = await apiClient(server).get(`${EhrLaunchPaths.launch}?${new URLSearchParams({ iss: ehr.iss, launch })}`);
  expect(start.status).toBe(302);
  const setCookie = String(start.headers['set-cookie']);
  expect(setCookie).toMatch(/HttpOnly/);
  expect(setCookie).toMatch(/SameSite=Lax/);
  const cookie = setCookie.split(';')[0]!;
  const authorizeUrl = String(start.headers.location);
  expect(authorizeUrl.startsWith(ehr.iss.replace(/\/fhir$/, '/authorize'))).toBe(true);
  const atEhr = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(atEhr.status).toBe(302);
  const back = new URL(atEhr.headers.get('location')!);
  const callback = await apiClient(server, cookie).get(`${back.pathname}${back.search}`);
  return { cookie, location: String(callback.headers.location ?? ''), status: callback.status };
}

const launchIdOf = (location: string) => new URL(location, server.url).searchParams.get('launch')!;
const withLaunchCookie = (client: ApiClient, cookie: string) => apiClient(server, `${client.cookie}; ${cookie}`);

describe('EHR launch settings', () => {
  it('are read and saved by admins only, audited, with the URLs to register in the EHR', async () => {
    expect((await providerA.get(EhrLaunchPaths.settings(orgA.id))).status).toBe(403);
    expect((await providerA.put(EhrLaunchPaths.settings(orgA.id), settingsBody())).status).toBe(403);
    const saved = await admin.put<EhrLaunchSettings>(EhrLaunchPaths.settings(orgA.id), settingsBody());
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      organization_id: orgA.id,
      iss: ehr.iss,
      client_id: CLIENT_ID,
      patient_identifier_system: MRN_SYSTEM,
      launch_url: `${server.url}${EhrLaunchPaths.launch}`,
      redirect_url: `${server.url}${EhrLaunchPaths.callback}`,
    });
    const update = await lastAuditOf(server.db.pool, 'launch.settings_update', String(orgA.id));
    expect(update.outcome).toBe('success');
    expect(update.details).toMatchObject({ iss: { from: null, to: ehr.iss } });
    const read = await admin.get<EhrLaunchSettings>(EhrLaunchPaths.settings(orgA.id));
    expect(read.body.client_id).toBe(CLIENT_ID);
    expect((await lastAuditOf(server.db.pool, 'launch.settings_read', String(orgA.id))).outcome).toBe('success');
  });

  it('refuses a bad URL, a client id without its EHR, a bad identifier system, and another organization\'s EHR', async () => {
    const bad = async (body: Record<string, unknown>, status: number, message: string) => {
      const res = await admin.put<{ message: string }>(EhrLaunchPaths.settings(orgB.id), settingsBody(body));
      expect(res.status).toBe(status);
      expect(res.body.message).toBe(message);
    };
    await bad({ iss: 'http://ehr.example/fhir' }, 400, EhrLaunchErrors.issNotHttps);
    await bad({ iss: 'https://ehr.example/fhir?x=1' }, 400, EhrLaunchErrors.issInvalid);
    await bad({ client_id: '' }, 400, EhrLaunchErrors.clientIdRequired);
    await bad({ iss: null }, 400, EhrLaunchErrors.issWithoutClientId);
    await bad({ iss: 'https://ehr-b.example/fhir', patient_identifier_system: 'not a uri' }, 400, EhrLaunchErrors.identifierSystemInvalid);
    await bad({}, 409, EhrLaunchErrors.issTaken);
    const settings = await admin.get<EhrLaunchSettings>(EhrLaunchPaths.settings(orgB.id));
    expect(settings.body.iss).toBeNull();
  });
});

describe('MRN', () => {
  it('is unique within an organization (409 with a clear message) and may repeat across organizations', async () => {
    const dup = await providerA.post<{ message: string }>('/api/patients', { first_name: 'Dup', last_name: 'Mrn', organization_id: orgA.id, mrn: 'MRN-1001' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(EhrLaunchErrors.mrnTaken);
    const other = await providerB.post('/api/patients', { first_name: 'Other', last_name: 'Org', organization_id: orgB.id, mrn: 'MRN-1001' });
    expect(other.status).toBe(201);
    const tooLong = await providerA.post('/api/patients', { first_name: 'Long', last_name: 'Mrn', organization_id: orgA.id, mrn: 'x'.repeat(65) });
    expect(tooLong.status).toBe(400);
  });
});

describe('launch from the EHR', () => {
  it('completes the code flow with PKCE and opens the matching patient for a provider of the organization, once', async () => {
    const { cookie, location, status } = await launchFromEhr('launch-a', 'ehr-1');
    expect(status).toBe(302);
    expect(location.startsWith(`${EhrLaunchPaths.complete}?launch=`)).toBe(true);
    expect(ehr.events).toEqual(expect.arrayContaining(['authorize: code issued', 'token: issued', 'patient: read']));
    const launch = launchIdOf(location);

    // Bound to the browser: the same id without the launch cookie is worthless.
    const noCookie = await providerA.post<{ message: string }>(EhrLaunchPaths.resolve, { launch });
    expect(noCookie.status).toBe(410);
    expect(noCookie.body.message).toBe(EhrLaunchErrors.expired);

    const resolved = await withLaunchCookie(providerA, cookie).post<EhrLaunchResolved>(EhrLaunchPaths.resolve, { launch });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toEqual({ patient_id: patientId });
    const record = await lastAuditOf(server.db.pool, 'launch.resolve', String(patientId));
    expect(record.outcome).toBe('success');

    const again = await withLaunchCookie(providerA, cookie).post(EhrLaunchPaths.resolve, { launch });
    expect(again.status).toBe(410);
    // Nothing of the EHR's tokens or the PKCE verifier is kept once the launch is used.
    const { rows } = await server.db.pool.query('SELECT count(*)::int AS n FROM ehr_launch_states');
    expect(rows[0].n).toBe(0);
    expect(server.logs()).not.toMatch(/code_verifier|access_token/);
  });

  it('answers a provider of another organization as if no patient matched, audited as denied', async () => {
    const { cookie, location } = await launchFromEhr('launch-b', 'ehr-1');
    const res = await withLaunchCookie(providerB, cookie).post<{ message: string }>(EhrLaunchPaths.resolve, { launch: launchIdOf(location) });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(EhrLaunchErrors.noMatch);
    const record = await lastAuditOf(server.db.pool, 'launch.resolve', String(patientId));
    expect(record.outcome).toBe('denied');
  });

  it('says so when no portal patient has the EHR patient\'s MRN', async () => {
    const { cookie, location } = await launchFromEhr('launch-c', 'ehr-2');
    const res = await withLaunchCookie(providerA, cookie).post<{ message: string }>(EhrLaunchPaths.resolve, { launch: launchIdOf(location) });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(EhrLaunchErrors.noMatch);
    expect((await lastAuditOf(server.db.pool, 'launch.resolve')).reason).toBe('no patient with this MRN');
  });

  it('refuses an expired launch', async () => {
    const { cookie, location } = await launchFromEhr('launch-d', 'ehr-1');
    await expireEhrLaunches(server.db.pool);
    const res = await withLaunchCookie(providerA, cookie).post<{ message: string }>(EhrLaunchPaths.resolve, { launch: launchIdOf(location) });
    expect(res.status).toBe(410);
    expect(res.body.message).toBe(EhrLaunchErrors.expired);
  });

  it('never contacts an EHR that is not configured, and audits the attempt', async () => {
    const before = ehr.events.length;
    const res = await apiClient(server).get(`${EhrLaunchPaths.launch}?${new URLSearchParams({ iss: 'http://169.254.169.254/latest', launch: 'x' })}`);
    expect(res.status).toBe(400);
    expect(res.body).toBe(EhrLaunchErrors.unknownIss);
    expect(ehr.events.length).toBe(before);
    const record = await lastAuditOf(server.db.pool, 'launch.resolve');
    expect(record).toMatchObject({ outcome: 'failure', reason: 'unknown iss' });
  });

  it('answers a clear message when the EHR does not answer, and launches again once it does', async () => {
    const down = await startTestEhr({ clientId: CLIENT_ID, redirectUri: `${server.url}${EhrLaunchPaths.callback}`, patients: [] });
    const iss = down.iss;
    await down.close();
    const orgC = await createOrganization(server);
    expect((await admin.put(EhrLaunchPaths.settings(orgC.id), settingsBody({ iss }))).status).toBe(200);
    const res = await apiClient(server).get(`${EhrLaunchPaths.launch}?${new URLSearchParams({ iss, launch: 'l' })}`);
    expect(res.status).toBe(502);
    expect(res.body).toBe(EhrLaunchErrors.launchFailed);
    expect((await lastAuditOf(server.db.pool, 'launch.resolve')).reason).toBe('EHR discovery document unreachable');
    // The EHR is back (the same address): the earlier failure is not remembered.
    const port = Number(new URL(iss).port);
    const { createServer } = await import('node:http');
    const back = createServer((req, reply) => {
      reply.writeHead(200, { 'content-type': 'application/json' });
      reply.end(JSON.stringify({ authorization_endpoint: `http://127.0.0.1:${port}/authorize`, token_endpoint: `http://127.0.0.1:${port}/token`, code_challenge_methods_supported: ['S256'] }));
    });
    await new Promise<void>((resolve) => back.listen(port, '127.0.0.1', resolve));
    try {
      const again = await apiClient(server).get(`${EhrLaunchPaths.launch}?${new URLSearchParams({ iss, launch: 'l' })}`);
      expect(again.status).toBe(302);
      expect(String(again.headers.location)).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/authorize\\?`));
    } finally {
      back.closeAllConnections();
      await new Promise((resolve) => back.close(resolve));
    }
  });

  it('refuses a callback without the browser\'s launch cookie, or with a state that is not its own', async () => {
    ehr.launchFor('launch-e', 'ehr-1');
    const start = await apiClient(server).get(`${EhrLaunchPaths.launch}?${new URLSearchParams({ iss: ehr.iss, launch: 'launch-e' })}`);
    const cookie = String(start.headers['set-cookie']).split(';')[0]!;
    const back = new URL((await fetch(String(start.headers.location), { redirect: 'manual' })).headers.get('location')!);
    const stranger = await apiClient(server).get(`${back.pathname}${back.search}`);
    expect(stranger.status).toBe(400);
    expect(stranger.body).toBe(EhrLaunchErrors.expired);
    back.searchParams.set('state', 'not-the-state');
    const forged = await apiClient(server, cookie).get(`${back.pathname}${back.search}`);
    expect(forged.status).toBe(400);
    expect(forged.body).toBe(EhrLaunchErrors.launchFailed);
    expect(ehr.events.at(-1)).toBe('authorize: code issued');
  });
});
