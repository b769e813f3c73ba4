/**
 * FHIR Bulk Data export (Bulk Data Access 2.0) through the real server: kick-off, polling, the
 * manifest, the NDJSON files (every line checked against the official R4 schema), cancel and
 * expiry, and the refusals. The export runs as the real job on the job queue.
 */
import type { Bundle, Device, Group, Observation, OperationOutcome, Patient, Resource } from '@medplum/fhirtypes';
import {
  BULK_EXPORT_MAX_ACTIVE_PER_REQUESTER,
  BULK_EXPORT_PAGE_ROWS,
  BULK_EXPORT_RETENTION_HOURS,
  BULK_NDJSON_CONTENT_TYPE,
  BULK_STATUS_PATH,
  BulkExportErrors,
  BulkExportTexts,
  type BulkExportManifest,
} from '@rpm/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fhirSchemaErrors } from '../../../test/fhir-schema.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';
import {
  backdateArrivals,
  buildBulkExport,
  buildDevice,
  buildManyReadings,
  buildPatient,
  buildReadings,
  expireExport,
  failExport,
  stallExport,
} from '../../../test/support/factories.ts';
import {
  createOrganization,
  createStaff,
  signIn,
  startTestServer,
  type TestServer,
} from '../../../test/support/http.ts';
import { smartClient, smartToken, type SmartTestClient } from '../../../test/support/smart.ts';
import { purgeExpiredExports } from './bulk-export.jobs.ts';

type Caller = { cookie: string } | { bearer: string } | null;

let server: TestServer;
let orgA: number;
let orgB: number;
const who = {} as Record<'admin' | 'providerA' | 'providerA2' | 'providerB', Caller>;
let providerAId: number;
let providerBId: number;
/** A population-health system of organization A: a SMART backend client, its current token. */
let clientA: SmartTestClient;
const readKeyA = { secret: '' };
const patients = {} as Record<'enrolledPanel' | 'enrolled' | 'panelOnly' | 'otherOrg', number>;
/** The enrolled panel patient's readings: more than a page, several with the same time. */
const MANY = BULK_EXPORT_PAGE_ROWS + 250;

const ASYNC = { prefer: 'respond-async', accept: 'application/fhir+json' };

async function call(method: 'GET' | 'DELETE', url: string, caller: Caller, headers: Record<string, string> = {}) {
  const auth: Record<string, string> =
    caller === null
      ? {}
      : 'cookie' in caller
        ? { cookie: caller.cookie }
        : { authorization: `Bearer ${caller.bearer}` };
  const res = await server.app.inject({ method, url, headers: { ...auth, ...headers } });
  return {
    status: res.statusCode,
    headers: res.headers,
    text: res.body,
    json: <T = Resource>() => JSON.parse(res.body) as T,
  };
}

const diagnostics = (body: OperationOutcome) => body.issue?.[0]?.diagnostics;
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Kicks off and answers the status URL's path. */
async function kickoff(url: string, caller: Caller, headers: Record<string, string> = ASYNC) {
  const res = await call('GET', url, caller, headers);
  expect(res.status, res.text).toBe(202);
  expect(res.json<OperationOutcome>().resourceType).toBe('OperationOutcome');
  const location = String(res.headers['content-location']);
  expect(location).toMatch(new RegExp(`^${server.url}${BULK_STATUS_PATH}/[0-9a-f-]{36}$`));
  return pathOf(location);
}

/** Polls as a client would until the export is no longer in progress. */
async function finished(statusPath: string, caller: Caller) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await call('GET', statusPath, caller);
    if (res.status !== 202) return res;
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.headers['x-progress']).toBeTruthy();
    if (Date.now() > deadline) throw new Error('export did not finish');
    await sleep(200);
  }
}

/** Every file of a manifest, parsed line by line, each line checked against the R4 schema. */
async function download(manifest: BulkExportManifest, caller: Caller) {
  const byType: Record<string, Resource[]> = {};
  for (const file of manifest.output) {
    const res = await call('GET', pathOf(file.url), caller);
    expect(res.status, res.text).toBe(200);
    expect(String(res.headers['content-type'])).toContain(BULK_NDJSON_CONTENT_TYPE);
    expect(res.text.endsWith('\n')).toBe(true);
    const lines = res.text.split('\n').slice(0, -1);
    expect(lines).toHaveLength(file.count);
    for (const line of lines) {
      const resource = JSON.parse(line) as Resource;
      expect(resource.resourceType).toBe(file.type);
      expect(fhirSchemaErrors(resource), line.slice(0, 200)).toEqual([]);
      (byType[file.type] ??= []).push(resource);
    }
  }
  return byType;
}

async function exportOf(url: string, caller: Caller, headers: Record<string, string> = ASYNC) {
  const statusPath = await kickoff(url, caller, headers);
  const done = await finished(statusPath, caller);
  expect(done.status, done.text).toBe(200);
  const manifest = done.json<BulkExportManifest>();
  return { statusPath, manifest, resources: await download(manifest, caller) };
}

const ids = (rs: Resource[] | undefined) => (rs ?? []).map((r) => Number(r.id)).sort((a, b) => a - b);
const subjects = (rs: Resource[] | undefined) =>
  [...new Set((rs ?? []).map((r) => Number((r as Observation).subject!.reference!.split('/')[1])))].sort(
    (a, b) => a - b,
  );
const count = async (sql: string, params: unknown[] = []) =>
  (await server.db.pool.query<{ n: number }>(sql, params)).rows[0]!.n;

beforeAll(async () => {
  server = await startTestServer();
  orgA = (await createOrganization(server)).id;
  orgB = (await createOrganization(server)).id;
  const staff = {
    admin: await createStaff(server, { role: 'admin', organizationId: orgA }),
    providerA: await createStaff(server, { role: 'provider', organizationId: orgA }),
    providerA2: await createStaff(server, { role: 'provider', organizationId: orgA }),
    providerB: await createStaff(server, { role: 'provider', organizationId: orgB }),
  };
  for (const k of ['admin', 'providerA', 'providerA2', 'providerB'] as const) {
    who[k] = { cookie: (await signIn(server, staff[k])).cookie! };
  }
  providerAId = staff.providerA.id;
  providerBId = staff.providerB.id;
  const adminClient = await signIn(server, staff.admin);
  clientA = await smartClient(server, adminClient, {
    organizationId: orgA,
    name: 'Population health',
    scopes: ['system/Group.rs', 'system/Patient.rs', 'system/Observation.rs', 'system/Device.rs'],
  });

  const db = server.db.pool;
  patients.enrolledPanel = await buildPatient(db, {
    organizationId: orgA,
    firstName: 'Ena',
    lastName: 'Panel',
    gender: 'female',
    dateOfBirth: '1950-02-03',
    enrolledRpm: true,
    enrollmentStatus: 'Active',
    primaryProviderId: providerAId,
  });
  patients.enrolled = await buildPatient(db, { organizationId: orgA, firstName: 'Eno', enrolledRpm: true });
  patients.panelOnly = await buildPatient(db, {
    organizationId: orgA,
    firstName: 'Pan',
    primaryProviderId: providerAId,
  });
  patients.otherOrg = await buildPatient(db, { organizationId: orgB, firstName: 'Oth', enrolledRpm: true });

  // More readings than a page, two at each time: the keyset must neither skip nor repeat any.
  await buildManyReadings(db, patients.enrolledPanel, {
    count: MANY - 2,
    kind: 'blood_pressure',
    pairs: true,
    every: '7 minutes',
    from: new Date(Math.floor(Date.now() / 1000) * 1000 - 60 * 60 * 1000),
  });
  await buildReadings(db, patients.enrolledPanel, [
    { kind: 'weight', components: { weight: 82.5 }, unit: 'kg', at: { ago: '3 hours 1 second' } },
    { systolic: null, pulse: 71, at: { ago: '3 hours 2 seconds' } },
  ]);
  await buildReadings(db, patients.enrolled, [{ systolic: 131, diastolic: 85, pulse: 77, at: { ago: '1 day' } }]);
  await buildReadings(db, patients.panelOnly, [{ systolic: 140, diastolic: 90, at: { ago: '1 day' } }]);
  await buildReadings(db, patients.otherOrg, [{ systolic: 150, diastolic: 95, at: { ago: '1 day' } }]);
  await buildDevice(db, {
    deviceId: 'BULK-CUFF-1',
    model: 'BP7',
    type: 'blood pressure monitor',
    patientId: patients.enrolledPanel,
  });
  await buildDevice(db, { deviceId: 'BULK-CUFF-2', model: 'BP7', patientId: patients.otherOrg });
  // The warm-up compiles the schema once, outside any test's time.
  fhirSchemaErrors({ resourceType: 'Patient' });
}, 300_000);
afterAll(async () => server?.close());
// Access tokens live five minutes: each test starts with a fresh one of the same client.
beforeEach(async () => {
  readKeyA.secret = await smartToken(server, clientA);
});

describe('bulk export of a group', () => {
  it("exports an organization's RPM program: its enrolled patients, all their readings and devices, each line valid R4", async () => {
    const { statusPath, manifest, resources } = await exportOf(`/fhir/R4/Group/org-${orgA}/$export`, who.providerA);
    expect(manifest.requiresAccessToken).toBe(true);
    expect(manifest.request).toBe(`${server.url}/fhir/R4/Group/org-${orgA}/$export`);
    expect(new Date(manifest.transactionTime).getTime()).toBeLessThanOrEqual(Date.now());
    expect(manifest.error).toEqual([]);
    expect(manifest.output.map((o) => o.type)).toEqual(['Patient', 'Observation', 'Device']);

    expect(ids(resources.Patient)).toEqual([patients.enrolledPanel, patients.enrolled].sort((a, b) => a - b));
    const ena = resources.Patient!.find((p) => Number(p.id) === patients.enrolledPanel) as Patient;
    expect(ena.name?.[0]).toMatchObject({ family: 'Panel', given: ['Ena'] });
    expect(ena.birthDate).toBe('1950-02-03');

    const observations = resources.Observation as Observation[];
    expect(observations).toHaveLength(MANY + 1);
    expect(new Set(observations.map((o) => o.id)).size).toBe(observations.length);
    expect(subjects(observations)).toEqual([patients.enrolledPanel, patients.enrolled].sort((a, b) => a - b));
    const stored = await count(`SELECT count(*)::int AS n FROM observations WHERE patient_id = ANY($1::int[])`, [
      [patients.enrolledPanel, patients.enrolled],
    ]);
    expect(observations).toHaveLength(stored);
    expect(observations.some((o) => o.code.coding?.some((c) => c.code === '29463-7'))).toBe(true);

    expect((resources.Device as Device[]).map((d) => d.identifier?.[0]?.value)).toEqual(['BULK-CUFF-1']);

    const status = await lastAuditOf(server.db.pool, 'fhir.export.status', statusPath.split('/').at(-1)!);
    expect(status.outcome).toBe('success');
    const completed = await lastAuditOf(server.db.pool, 'fhir.export.complete', statusPath.split('/').at(-1)!);
    expect(completed.details).toMatchObject({ group: `org-${orgA}`, patient_count: 2 });
    const downloaded = await lastAuditOf(server.db.pool, 'fhir.export.download', statusPath.split('/').at(-1)!);
    expect(downloaded.details).toMatchObject({ patient_count: 2 });
  });

  it("exports a provider's panel: the patients whose primary provider they are, enrolled or not", async () => {
    const { resources } = await exportOf(
      `/fhir/R4/Group/provider-${providerAId}/$export?_type=Patient`,
      who.providerA2,
    );
    expect(ids(resources.Patient)).toEqual([patients.enrolledPanel, patients.panelOnly].sort((a, b) => a - b));
    expect(Object.keys(resources)).toEqual(['Patient']);
  });

  it('honours _type (one or several, comma list or repeated) and _since (readings received since then)', async () => {
    const panel = patients.enrolledPanel;
    await backdateArrivals(server.db.ownerPool, { patientId: panel, evenIdsOnly: true }, { ago: '10 days' });
    const recent = await count(
      `SELECT count(*)::int AS n FROM observations WHERE patient_id = ANY($1::int[]) AND received_at >= now() - interval '5 days'`,
      [[panel, patients.enrolled]],
    );
    const since = new Date(Date.now() - 5 * 86_400_000).toISOString();
    const { manifest, resources } = await exportOf(
      `/fhir/R4/Group/org-${orgA}/$export?_type=Observation&_since=${encodeURIComponent(since)}`,
      who.providerA,
    );
    expect(manifest.output.every((o) => o.type === 'Observation')).toBe(true);
    expect(resources.Observation).toHaveLength(recent);
    expect(recent).toBeLessThan(MANY);

    const both = await exportOf(`/fhir/R4/Group/org-${orgA}/$export?_type=Patient&_type=Device`, who.providerA);
    expect(Object.keys(both.resources).sort()).toEqual(['Device', 'Patient']);
    const comma = await exportOf(`/fhir/R4/Group/org-${orgA}/$export?_type=Patient,Device`, who.providerA);
    expect(Object.keys(comma.resources).sort()).toEqual(['Device', 'Patient']);

    // A _since after every change: nothing to write.
    const later = new Date(Date.now() + 1000).toISOString();
    const none = await exportOf(
      `/fhir/R4/Group/org-${orgA}/$export?_since=${encodeURIComponent(later)}`,
      who.providerA,
    );
    expect(none.manifest.output).toEqual([]);
  });

  it('takes the parameters in a POSTed Parameters resource too', async () => {
    const post = async (url: string, parameter: object[], prefer = 'respond-async') =>
      server.app.inject({
        method: 'POST',
        url,
        headers: {
          cookie: (who.providerA as { cookie: string }).cookie,
          prefer,
          'content-type': 'application/fhir+json',
        },
        payload: JSON.stringify({ resourceType: 'Parameters', parameter }),
      });
    const url = `/fhir/R4/Group/provider-${providerAId}/$export`;
    const res = await post(url, [
      { name: '_type', valueString: 'Patient' },
      { name: '_type', valueString: 'Device' },
      { name: '_since', valueInstant: '2000-01-01T00:00:00Z' },
      { name: '_outputFormat', valueString: 'application/fhir+ndjson' },
    ]);
    expect(res.statusCode, res.body).toBe(202);
    const statusPath = pathOf(String(res.headers['content-location']));
    const done = await finished(statusPath, who.providerA);
    const manifest = done.json<BulkExportManifest>();
    // A POST's request URL carries no parameters (they were in the body).
    expect(manifest.request).toBe(`${server.url}${url}`);
    const resources = await download(manifest, who.providerA);
    expect(ids(resources.Patient)).toEqual([patients.enrolledPanel, patients.panelOnly].sort((a, b) => a - b));
    expect(Object.keys(resources).sort()).toEqual(['Device', 'Patient']);

    const strict = await post(url, [{ name: 'patient', valueString: 'Patient/1' }], 'respond-async, handling=strict');
    expect(strict.statusCode).toBe(400);
    expect(diagnostics(JSON.parse(strict.body) as OperationOutcome)).toBe(BulkExportErrors.unknownParameter('patient'));
    const badType = await post(url, [{ name: '_type', valueString: 'Encounter' }]);
    expect(badType.statusCode).toBe(400);
    expect((await post(url, [], '')).statusCode).toBe(400);
  });

  it('Patient/$export takes every patient of the caller organization; an administrator names a group instead', async () => {
    const { resources } = await exportOf('/fhir/R4/Patient/$export?_type=Patient', { bearer: readKeyA.secret });
    expect(ids(resources.Patient)).toEqual(
      [patients.enrolledPanel, patients.enrolled, patients.panelOnly].sort((a, b) => a - b),
    );
    const admin = await call('GET', '/fhir/R4/Patient/$export', who.admin, ASYNC);
    expect(admin.status).toBe(403);
    expect(diagnostics(admin.json())).toBe(BulkExportErrors.patientExportNeedsOrganization);
    // An administrator exports any organization's group.
    const other = await exportOf(`/fhir/R4/Group/org-${orgB}/$export?_type=Patient`, who.admin);
    expect(ids(other.resources.Patient)).toEqual([patients.otherOrg]);
  });
});

describe('a SMART backend client', () => {
  it('kicks off, polls and downloads with its access token, exporting only its scopes and its organization', async () => {
    const { manifest, resources } = await exportOf(`/fhir/R4/Group/org-${orgA}/$export`, { bearer: readKeyA.secret });
    expect(manifest.requiresAccessToken).toBe(true);
    expect(Object.keys(resources).sort()).toEqual(['Device', 'Observation', 'Patient']);
    expect(ids(resources.Patient)).toEqual([patients.enrolledPanel, patients.enrolled].sort((a, b) => a - b));
    expect(subjects(resources.Observation)).not.toContain(patients.otherOrg);

    // A client granted Patient only: Observation is refused, and without _type it gets Patients only.
    const adminApi = await signIn(server, await createStaff(server, { role: 'admin', organizationId: orgA }));
    const narrow = await smartClient(server, adminApi, {
      organizationId: orgA,
      scopes: ['system/Group.rs', 'system/Patient.rs'],
    });
    const narrowToken = { bearer: await smartToken(server, narrow) };
    const refused = await call('GET', `/fhir/R4/Group/org-${orgA}/$export?_type=Observation`, narrowToken, ASYNC);
    expect(refused.status).toBe(403);
    expect(refused.json<OperationOutcome>().resourceType).toBe('OperationOutcome');
    const onlyPatients = await exportOf(`/fhir/R4/Group/org-${orgA}/$export`, narrowToken);
    expect(Object.keys(onlyPatients.resources)).toEqual(['Patient']);

    // Another client (even of the same organization) cannot follow this client's export.
    const { statusPath } = await exportOf(`/fhir/R4/Group/org-${orgA}/$export?_type=Patient`, {
      bearer: readKeyA.secret,
    });
    expect((await call('GET', statusPath, narrowToken)).status).toBe(404);
    // Without a token the files are not served.
    expect((await call('GET', statusPath, null)).status).toBe(401);
  });
});

describe('refusals', () => {
  it('without Prefer: respond-async, or with a bad _outputFormat, _type or _since: 400 OperationOutcome', async () => {
    const url = `/fhir/R4/Group/org-${orgA}/$export`;
    const cases: [string, Record<string, string>, string][] = [
      [url, { accept: 'application/fhir+json' }, BulkExportErrors.preferAsync],
      [`${url}?_outputFormat=text/csv`, ASYNC, BulkExportErrors.outputFormat('text/csv')],
      [`${url}?_type=Patient,Medication`, ASYNC, BulkExportErrors.type('Medication')],
      [`${url}?_since=2026-01-01`, ASYNC, BulkExportErrors.since('2026-01-01')],
      [`${url}?_since=2026-02-30T00:00:00Z`, ASYNC, BulkExportErrors.since('2026-02-30T00:00:00Z')],
      [
        `${url}?_typeFilter=x`,
        { ...ASYNC, prefer: 'respond-async, handling=strict' },
        BulkExportErrors.unknownParameter('_typeFilter'),
      ],
      [url, { ...ASYNC, accept: 'text/html' }, BulkExportErrors.accept],
    ];
    const before = await count(`SELECT count(*)::int AS n FROM bulk_exports`);
    for (const [u, headers, message] of cases) {
      const res = await call('GET', u, who.providerA, headers);
      expect(res.status, u).toBe(400);
      expect(res.json<OperationOutcome>().resourceType).toBe('OperationOutcome');
      expect(diagnostics(res.json()), u).toBe(message);
    }
    expect(await count(`SELECT count(*)::int AS n FROM bulk_exports`)).toBe(before);
    // Without strict handling an unknown parameter is ignored; every output format the spec names is accepted.
    for (const format of ['application/fhir+ndjson', 'application/ndjson', 'ndjson']) {
      const statusPath = await kickoff(
        `${url}?_typeFilter=x&_type=Device&_outputFormat=${encodeURIComponent(format)}`,
        who.providerA,
      );
      expect((await finished(statusPath, who.providerA)).status).toBe(200);
    }
  });

  it("another organization's program or provider panel, and unknown groups, answer 404", async () => {
    const cases: [string, Caller][] = [
      [`/fhir/R4/Group/org-${orgB}/$export`, who.providerA],
      [`/fhir/R4/Group/provider-${providerBId}/$export`, who.providerA],
      [`/fhir/R4/Group/org-${orgB}/$export`, { bearer: readKeyA.secret }],
      [`/fhir/R4/Group/provider-${providerBId}/$export`, { bearer: readKeyA.secret }],
      [`/fhir/R4/Group/org-${orgA}/$export`, who.providerB],
      ['/fhir/R4/Group/org-999999/$export', who.admin],
      // An administrator has no panel.
      [`/fhir/R4/Group/provider-${999_999}/$export`, who.admin],
    ];
    for (const [url, caller] of cases) {
      const res = await call('GET', url, caller, ASYNC);
      expect(res.status, url).toBe(404);
      expect(res.json<OperationOutcome>().resourceType).toBe('OperationOutcome');
    }
    const refusal = await lastAuditOf(server.db.pool, 'fhir.export.kickoff', `provider-${providerBId}`);
    expect(refusal.outcome).toBe('denied');
    expect((await call('GET', `/fhir/R4/Group/org-${orgA}/$export`, null, ASYNC)).status).toBe(401);
  });

  it('the status and files of an export answer only whoever asked for it (and administrators); unknown ids 404', async () => {
    const { statusPath, manifest } = await exportOf(`/fhir/R4/Group/org-${orgA}/$export?_type=Patient`, who.providerA);
    const file = pathOf(manifest.output[0]!.url);
    for (const caller of [who.providerA2, who.providerB, { bearer: readKeyA.secret }]) {
      expect((await call('GET', statusPath, caller)).status).toBe(404);
      expect((await call('GET', file, caller)).status).toBe(404);
      expect((await call('DELETE', statusPath, caller)).status).toBe(404);
    }
    expect((await call('GET', statusPath, null)).status).toBe(401);
    expect((await call('GET', statusPath, who.admin)).status).toBe(200);
    expect((await call('GET', file, who.admin)).status).toBe(200);
    const unknown = await call('GET', `${BULK_STATUS_PATH}/00000000-0000-4000-8000-000000000000`, who.providerA);
    expect(unknown.status).toBe(404);
    expect(unknown.json<OperationOutcome>().resourceType).toBe('OperationOutcome');
    expect((await call('GET', `${file.replace(/Patient-1/, 'Device-1')}`, who.providerA)).status).toBe(404);
    const denied = await lastAuditOf(server.db.pool, 'fhir.export.cancel', statusPath.split('/').at(-1)!);
    expect(denied.outcome).toBe('denied');
  });

  it('a failed export answers 500 with an OperationOutcome, and no files', async () => {
    const statusPath = await kickoff(`/fhir/R4/Group/org-${orgA}/$export?_type=Patient`, who.providerA);
    await finished(statusPath, who.providerA);
    await failExport(server.db.pool, statusPath.split('/').at(-1)!, 'disk full');
    const res = await call('GET', statusPath, who.providerA);
    expect(res.status).toBe(500);
    const outcome = res.json<OperationOutcome>();
    expect(outcome.issue?.[0]).toMatchObject({ severity: 'fatal', code: 'exception' });
    expect(diagnostics(outcome)).toBe(BulkExportErrors.failed);
    // What went wrong inside stays inside.
    expect(res.text).not.toContain('disk full');
  });

  it('a requester may have only a few exports in flight', async () => {
    const other = `/fhir/R4/Group/org-${orgB}/$export?_type=Patient`;
    // Exports of provider B held as running (rows only, no job takes them).
    const running: string[] = [];
    for (let i = 0; i < BULK_EXPORT_MAX_ACTIVE_PER_REQUESTER; i++) {
      const id = await buildBulkExport(server.db.pool, {
        organizationId: orgB,
        requesterKind: 'staff',
        requesterId: String(providerBId),
        status: 'running',
      });
      running.push(`${BULK_STATUS_PATH}/${id}`);
    }
    const refused = await call('GET', other, who.providerB, ASYNC);
    expect(refused.status).toBe(429);
    expect(refused.json<OperationOutcome>().resourceType).toBe('OperationOutcome');
    // Another requester is not held up by them; cancelling one frees a place.
    expect((await call('GET', `/fhir/R4/Group/org-${orgB}/$export?_type=Patient`, who.admin, ASYNC)).status).toBe(202);
    expect((await call('DELETE', running[0]!, who.providerB)).status).toBe(202);
    expect((await call('GET', other, who.providerB, ASYNC)).status).toBe(202);
    for (const p of running.slice(1)) expect((await call('DELETE', p, who.providerB)).status).toBe(202);
  });
});

describe('cancel and expiry', () => {
  it('DELETE cancels: the job stops, the files are deleted, the status answers 404', async () => {
    const statusPath = await kickoff(`/fhir/R4/Group/org-${orgA}/$export`, who.providerA);
    const id = statusPath.split('/').at(-1)!;
    const cancelled = await call('DELETE', statusPath, who.providerA);
    expect(cancelled.status).toBe(202);
    expect(diagnostics(cancelled.json())).toBe(BulkExportTexts.cancelled);
    expect((await call('GET', statusPath, who.providerA)).status).toBe(404);
    expect((await call('DELETE', statusPath, who.providerA)).status).toBe(404);
    // Whatever the job had reached, nothing of the export is left, and it stays so.
    await sleep(3000);
    expect(await count(`SELECT count(*)::int AS n FROM bulk_export_files WHERE export_id = $1`, [id])).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM bulk_export_chunks WHERE export_id = $1`, [id])).toBe(0);
    expect((await server.db.pool.query(`SELECT status FROM bulk_exports WHERE id = $1`, [id])).rows[0].status).toBe(
      'cancelled',
    );
    const audited = await server.db.pool.query(
      `SELECT outcome FROM audit_logs WHERE action = 'fhir.export.cancel' AND resource_id = $1 ORDER BY id`,
      [id],
    );
    expect(audited.rows.map((r) => r.outcome)).toEqual(['success', 'failure']);
  });

  it('a running export stops at its next write once cancelled', async () => {
    // Enough readings for many chunks, so that the export is seen mid-way.
    const big = await buildPatient(server.db.pool, { organizationId: orgB, firstName: 'Big', enrolledRpm: true });
    await buildManyReadings(server.db.pool, big, { count: 30000, kind: 'heart_rate', every: '1 minute' });
    const statusPath = await kickoff(`/fhir/R4/Group/org-${orgB}/$export?_type=Observation`, who.providerB);
    const id = statusPath.split('/').at(-1)!;
    const deadline = Date.now() + 60_000;
    while ((await count(`SELECT count(*)::int AS n FROM bulk_export_chunks WHERE export_id = $1`, [id])) === 0) {
      if (Date.now() > deadline) throw new Error('export never wrote');
      await sleep(10);
    }
    expect((await call('DELETE', statusPath, who.providerB)).status).toBe(202);
    const cancel = await lastAuditOf(server.db.pool, 'fhir.export.cancel', id);
    expect(cancel.details).toMatchObject({ status_before: 'running' });
    await sleep(3000);
    expect(await count(`SELECT count(*)::int AS n FROM bulk_export_chunks WHERE export_id = $1`, [id])).toBe(0);
    expect((await server.db.pool.query(`SELECT status FROM bulk_exports WHERE id = $1`, [id])).rows[0].status).toBe(
      'cancelled',
    );
    // The job stopped: it never recorded a completion.
    expect(
      await count(
        `SELECT count(*)::int AS n FROM audit_logs WHERE action = 'fhir.export.complete' AND resource_id = $1`,
        [id],
      ),
    ).toBe(0);
  });

  it(`is gone ${BULK_EXPORT_RETENTION_HOURS} hours after completion: 404, then deleted with its files by the retention job`, async () => {
    const { statusPath, manifest } = await exportOf(`/fhir/R4/Group/org-${orgA}/$export?_type=Patient`, who.providerA);
    const id = statusPath.split('/').at(-1)!;
    const expiry = (await server.db.pool.query(`SELECT completed_at, expires_at FROM bulk_exports WHERE id = $1`, [id]))
      .rows[0] as { completed_at: Date; expires_at: Date };
    expect(expiry.expires_at.getTime() - expiry.completed_at.getTime()).toBe(BULK_EXPORT_RETENTION_HOURS * 3_600_000);
    await expireExport(server.db.pool, id);
    expect((await call('GET', statusPath, who.providerA)).status).toBe(404);
    expect((await call('GET', pathOf(manifest.output[0]!.url), who.providerA)).status).toBe(404);
    // An export that never finished is removed a retention period after it was asked for.
    const stale = await kickoff(`/fhir/R4/Group/org-${orgB}/$export?_type=Patient`, who.providerB);
    const staleId = stale.split('/').at(-1)!;
    await finished(stale, who.providerB);
    await stallExport(server.db.pool, staleId, '25 hours');
    const { deleted } = await purgeExpiredExports(server.db.pool, 'test:retention');
    expect(deleted).toBeGreaterThanOrEqual(2);
    for (const gone of [id, staleId]) {
      expect(await count(`SELECT count(*)::int AS n FROM bulk_exports WHERE id = $1`, [gone])).toBe(0);
      expect(await count(`SELECT count(*)::int AS n FROM bulk_export_chunks WHERE export_id = $1`, [gone])).toBe(0);
    }
    const retention = await lastAuditOf(server.db.pool, 'fhir.export.cancel');
    expect(retention.reason).toBe('retention');
  });
});

describe('Group read and search', () => {
  it('reads a program or panel as an R4 Group with its size, and refuses groups of other organizations', async () => {
    const res = await call('GET', `/fhir/R4/Group/org-${orgA}`, who.providerA);
    expect(res.status).toBe(200);
    const group = res.json<Group>();
    expect(group).toMatchObject({
      resourceType: 'Group',
      id: `org-${orgA}`,
      type: 'person',
      actual: true,
      quantity: 2,
    });
    expect(fhirSchemaErrors(group)).toEqual([]);
    const panel = (
      await call('GET', `/fhir/R4/Group/provider-${providerAId}`, { bearer: readKeyA.secret })
    ).json<Group>();
    expect(panel.quantity).toBe(2);
    expect((await call('GET', `/fhir/R4/Group/org-${orgA}`, who.providerB)).status).toBe(404);
    expect((await call('GET', `/fhir/R4/Group/provider-${providerAId}`, who.providerB)).status).toBe(404);

    const search = await call('GET', '/fhir/R4/Group', who.providerA);
    expect(search.status).toBe(200);
    const bundle = search.json<Bundle>();
    expect(fhirSchemaErrors(bundle)).toEqual([]);
    const found = bundle.entry?.map((e) => e.resource?.id) ?? [];
    expect(found).toContain(`org-${orgA}`);
    expect(found).toContain(`provider-${providerAId}`);
    expect(found).not.toContain(`org-${orgB}`);
    expect(found).not.toContain(`provider-${providerBId}`);
    expect(bundle.total).toBe(found.length);
    const strict = await call('GET', '/fhir/R4/Group?name=x', who.providerA, { prefer: 'handling=strict' });
    expect(strict.status).toBe(400);
  });
});
