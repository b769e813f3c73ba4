import { readFileSync } from 'node:fs';
import type { Bundle, CapabilityStatement, Observation, OperationOutcome, Patient, Resource } from '@medplum/fhirtypes';
import {
  ApiErrors,
  FHIR_BUNDLE_MAX_ENTRIES,
  FHIR_READ_RATE_LIMIT_PER_MINUTE,
  FHIR_WRITE_RATE_LIMIT_PER_MINUTE,
  IngestionErrors,
  SmartErrors,
  type IngestionSourceWithSecret,
} from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createOrganization,
  signInNewStaff,
  startTestServer,
  type ApiClient,
  type TestServer,
} from '../../../test/support/http.ts';
import { fhirSchemaErrors } from '../../../test/fhir-schema.ts';
import {
  buildDevice,
  buildPatient,
  buildReading,
  buildReadings,
  buildSource,
} from '../../../test/support/factories.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';
import { smartClient, smartToken, type SmartTestClient } from '../../../test/support/smart.ts';

const PHD_EXAMPLE = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/phd-compound-blood-pressure.json', import.meta.url), 'utf8'),
) as Observation;

let server: TestServer;
let orgId: number;
let otherOrgId: number;
let admin: ApiClient;
let provider: ApiClient;
let otherProvider: ApiClient;
let writeKey: IngestionSourceWithSecret;
let reader: SmartTestClient;
/** A fresh access token of the reading EHR: tokens live five minutes, this file may run longer. */
const readToken = () => smartToken(server, reader);
let tenovi: IngestionSourceWithSecret;
let patientId: number;
let otherPatientId: number;
const emitted: Resource[] = [];

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

function bpObservation(
  device: string,
  at: string,
  systolic: number,
  diastolic: number,
  extra: Partial<Observation> = {},
): Observation {
  return {
    resourceType: 'Observation',
    status: 'final',
    category: [
      { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] },
    ],
    code: { coding: [{ system: 'http://loinc.org', code: '85354-9' }] },
    effectiveDateTime: at,
    device: { identifier: { value: device } },
    component: [
      {
        code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] },
        valueQuantity: { value: systolic, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
      },
      {
        code: { coding: [{ system: 'http://loinc.org', code: '8462-4' }] },
        valueQuantity: { value: diastolic, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
      },
    ],
    ...extra,
  };
}

async function fhir<T = Resource>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  url: string,
  opts: { body?: unknown; secret?: string | null; cookie?: string | null; remoteAddress?: string } = {},
) {
  const headers: Record<string, string> = { accept: 'application/fhir+json' };
  if (opts.body !== undefined) headers['content-type'] = 'application/fhir+json';
  if (opts.secret) headers.authorization = `Bearer ${opts.secret}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  const res = await server.app.inject({
    method,
    url,
    headers,
    ...(opts.body !== undefined ? { payload: JSON.stringify(opts.body) } : {}),
    ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
  });
  const body = res.json() as T;
  emitted.push(body as Resource);
  expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
  return { status: res.statusCode, body, headers: res.headers };
}
const post = <T = Resource>(url: string, body: unknown, secret: string | null = writeKey.secret) =>
  fhir<T>('POST', url, { body, secret });
const vitalsCount = async () =>
  (await server.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM observations')).rows[0]!.n;

beforeAll(async () => {
  server = await startTestServer();
  const org = await createOrganization(server);
  const other = await createOrganization(server);
  orgId = org.id;
  otherOrgId = other.id;
  admin = await signInNewStaff(server, 'admin', org.id);
  provider = await signInNewStaff(server, 'provider', org.id);
  otherProvider = await signInNewStaff(server, 'provider', other.id);
  const db = server.db.pool;
  patientId = await buildPatient(db, {
    firstName: 'Fay',
    lastName: 'Fhir',
    dateOfBirth: '1951-05-06',
    gender: 'female',
    organizationId: org.id,
  });
  otherPatientId = await buildPatient(db, { firstName: 'Oz', lastName: 'Other', organizationId: other.id });
  for (const [deviceId, model, patient] of [
    ['FHIR-1', 'BP7', patientId],
    ['711000FEFF5F49B0.B0495F001071', 'PHD', patientId],
    ['OTHER-9', 'BP7', otherPatientId],
  ] as const) {
    await buildDevice(db, { deviceId, model, patientId: patient, assignedFrom: '2025-01-01' });
  }
  writeKey = (
    await admin.post<IngestionSourceWithSecret>('/api/integrations', {
      name: 'EHR in',
      kind: 'fhir',
      organization_id: org.id,
    })
  ).body;
  // EHRs read with SMART Backend Services access tokens (static read keys are retired).
  reader = await smartClient(server, admin, {
    organizationId: org.id,
    name: 'EHR out',
    scopes: ['system/Patient.rs', 'system/Observation.rs', 'system/Device.rs'],
  });
  tenovi = (
    await admin.post<IngestionSourceWithSecret>('/api/integrations', {
      name: 'Cuffs',
      kind: 'tenovi',
      organization_id: org.id,
    })
  ).body;
  // Compiling the whole R4 schema takes seconds: once, here, not inside a test's time limit.
  fhirSchemaErrors({ resourceType: 'Patient' });
}, 300_000);
afterAll(async () => server?.close());

describe('FHIR R4 in', () => {
  it('creates an Observation: 201, Location, the stored Observation as FHIR JSON', async () => {
    const res = await post<Observation>(
      '/fhir/R4/Observation',
      bpObservation('FHIR-1', minutesAgo(30), 133, 84, { subject: { reference: `Patient/${patientId}` } }),
    );
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`${server.url}/fhir/R4/Observation/${res.body.id}`);
    expect(res.body).toMatchObject({
      resourceType: 'Observation',
      subject: { reference: `Patient/${patientId}` },
      device: { identifier: { value: 'FHIR-1' } },
    });
    const retry = await post<Observation>(
      '/fhir/R4/Observation',
      bpObservation('FHIR-1', res.body.effectiveDateTime!, 133, 84),
    );
    expect(retry.status).toBe(200);
    expect(retry.body.id).toBe(res.body.id);
  });

  it("accepts the Personal Health Device IG's compound blood-pressure example", async () => {
    // The example's own date (2026-01-02) is older than readings may be: the same example,
    // measured yesterday, in the same local-time-with-offset form.
    const at = new Date(Date.now() - 86_400_000);
    at.setUTCMilliseconds(0);
    const local = `${new Date(at.getTime() - 5 * 3_600_000).toISOString().slice(0, 19)}-05:00`;
    const res = await post<Observation>('/fhir/R4/Observation', { ...PHD_EXAMPLE, effectiveDateTime: local });
    expect(res.status).toBe(201);
    expect(res.body.component?.map((c) => c.valueQuantity?.value)).toEqual([116, 71]);
    expect(res.body.effectiveDateTime).toBe(at.toISOString());
    expect(fhirSchemaErrors(PHD_EXAMPLE)).toEqual([]);
  });

  it('refuses bad Observations with an OperationOutcome naming the field, storing nothing', async () => {
    const before = await vitalsCount();
    const cases: [Observation, string][] = [
      [
        bpObservation('FHIR-1', minutesAgo(5), 301, 80),
        IngestionErrors.range('component[8480-6].valueQuantity.value', 40, 300, 'mmHg'),
      ],
      [
        bpObservation('FHIR-1', minutesAgo(5), 80, 90),
        IngestionErrors.systolicAboveDiastolic(
          'component[8480-6].valueQuantity.value',
          'component[8462-4].valueQuantity.value',
        ),
      ],
      [
        bpObservation('FHIR-1', new Date(Date.now() + 3_600_000).toISOString(), 120, 80),
        IngestionErrors.future('effectiveDateTime'),
      ],
      [{ ...bpObservation('FHIR-1', minutesAgo(5), 120, 80), device: undefined }, IngestionErrors.required('device')],
      [
        bpObservation('FHIR-1', minutesAgo(5), 120, 80, { subject: { reference: `Patient/${patientId + 1_000_000}` } }),
        'subject must be the patient who had the device at effectiveDateTime',
      ],
    ];
    for (const [obs, message] of cases) {
      const res = await post<OperationOutcome>('/fhir/R4/Observation', obs);
      expect(res.status, message).toBe(400);
      expect(res.body.resourceType).toBe('OperationOutcome');
      expect(res.body.issue[0]?.diagnostics).toBe(message);
    }
    const mmhg = bpObservation('FHIR-1', minutesAgo(5), 120, 80);
    mmhg.component![0]!.valueQuantity!.code = 'mmHg';
    expect((await post<OperationOutcome>('/fhir/R4/Observation', mmhg)).body.issue[0]?.diagnostics).toBe(
      'component[8480-6].valueQuantity must be in UCUM mm[Hg]',
    );
    expect((await post('/fhir/R4/Observation', { resourceType: 'Patient' })).status).toBe(400);
    expect(await vitalsCount()).toBe(before);
  });

  it('answers 401 for a wrong, missing or revoked key and 403 for a Tenovi key', async () => {
    const obs = bpObservation('FHIR-1', minutesAgo(6), 120, 80);
    expect((await post('/fhir/R4/Observation', obs, null)).status).toBe(401);
    // One character changed (never to itself: a secret that already ends in A gets a B).
    const wrong = writeKey.secret.slice(0, -1) + (writeKey.secret.endsWith('A') ? 'B' : 'A');
    expect((await post('/fhir/R4/Observation', obs, wrong)).status).toBe(401);
    expect((await post('/fhir/R4/Observation', obs, tenovi.secret)).status).toBe(403);
    const revoked = (
      await admin.post<IngestionSourceWithSecret>('/api/integrations', {
        name: 'Gone',
        kind: 'fhir',
        organization_id: orgId,
      })
    ).body;
    await admin.request('DELETE', `/api/integrations/${revoked.id}`);
    const res = await post<OperationOutcome>('/fhir/R4/Observation', obs, revoked.secret);
    expect(res.status).toBe(401);
    expect(res.body.resourceType).toBe('OperationOutcome');
  });

  it('processes a batch entry by entry: 201, 200 for a duplicate, 202 unmatched, 400 for a bad one', async () => {
    const t = minutesAgo(20);
    const entry = (resource: unknown) => ({ resource, request: { method: 'POST', url: 'Observation' } });
    const res = await post<Bundle>('/fhir/R4', {
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        entry(bpObservation('FHIR-1', t, 121, 81)),
        entry(bpObservation('FHIR-1', t, 121, 81)),
        entry(bpObservation('NOBODY-1', t, 122, 82)),
        entry(bpObservation('FHIR-1', minutesAgo(19), 20, 81)),
        { resource: bpObservation('FHIR-1', t, 121, 81), request: { method: 'PUT', url: 'Observation/1' } },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('batch-response');
    expect(res.body.entry?.map((e) => e.response?.status)).toEqual([
      '201 Created',
      '200 OK',
      '202 Accepted',
      '400 Bad Request',
      '400 Bad Request',
    ]);
    expect(res.body.entry?.[3]?.response?.outcome).toMatchObject({
      issue: [
        {
          diagnostics: IngestionErrors.range(
            'entry[3].resource.component[8480-6].valueQuantity.value',
            40,
            300,
            'mmHg',
          ),
        },
      ],
    });
  });

  it('stores a transaction all or nothing', async () => {
    const before = await vitalsCount();
    const entry = (resource: unknown) => ({ resource, request: { method: 'POST', url: 'Observation' } });
    const bad = await post<OperationOutcome>('/fhir/R4', {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        entry(bpObservation('FHIR-1', minutesAgo(15), 125, 85)),
        entry(bpObservation('FHIR-1', minutesAgo(14), 125, 201)),
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.resourceType).toBe('OperationOutcome');
    expect(await vitalsCount()).toBe(before);
    const good = await post<Bundle>('/fhir/R4', {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        entry(bpObservation('FHIR-1', minutesAgo(15), 125, 85)),
        entry(bpObservation('FHIR-1', minutesAgo(14), 126, 86)),
      ],
    });
    expect(good.body.type).toBe('transaction-response');
    expect(good.body.entry?.map((e) => e.response?.status)).toEqual(['201 Created', '201 Created']);
    expect(await vitalsCount()).toBe(before + 2);
  });

  it('refuses a Bundle of more than 500 entries and other Bundle types', async () => {
    const entry = {
      resource: bpObservation('FHIR-1', minutesAgo(3), 120, 80),
      request: { method: 'POST', url: 'Observation' },
    };
    const tooMany = await post<OperationOutcome>('/fhir/R4', {
      resourceType: 'Bundle',
      type: 'batch',
      entry: Array.from({ length: FHIR_BUNDLE_MAX_ENTRIES + 1 }, () => ({ request: entry.request })),
    });
    expect(tooMany.status).toBe(413);
    expect((await post('/fhir/R4', { resourceType: 'Bundle', type: 'collection', entry: [entry] })).status).toBe(400);
  });
});

describe('a FHIR key acts for its own organization', () => {
  const lastAudit = (action: string) => lastAuditOf(server, action);
  const vitalsOf = async (patient: number) =>
    (
      await server.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM observations WHERE patient_id = $1', [
        patient,
      ])
    ).rows[0]!.n;

  it("a FHIR read key (a SMART client since static read keys were retired) of organization A cannot read organization B's Patient", async () => {
    const theirs = await fhir<OperationOutcome>('GET', `/fhir/R4/Patient/${otherPatientId}`, {
      secret: await readToken(),
    });
    const missing = await fhir<OperationOutcome>('GET', '/fhir/R4/Patient/999999', { secret: await readToken() });
    expect(theirs.status).toBe(404);
    // The same answer as for a patient that does not exist: ids of B cannot be probed.
    expect(theirs.body.issue).toEqual(missing.body.issue);
    const records = await server.db.pool.query(
      `SELECT outcome, resource_id, details FROM audit_logs WHERE action = 'fhir.patient.read' ORDER BY id DESC LIMIT 2`,
    );
    expect(records.rows[1]).toMatchObject({
      outcome: 'denied',
      resource_id: String(otherPatientId),
      details: { smart_client_id: reader.id, organization_id: orgId },
    });
  });

  it("a FHIR read key (a SMART client) of organization A cannot search B's Observations nor read one by id", async () => {
    const vitalId = await buildReading(server.db.pool, otherPatientId, {
      at: { ago: '3 hours' },
      systolic: 131,
      diastolic: 85,
      pulse: 71,
    });
    const search = await fhir('GET', `/fhir/R4/Observation?patient=${otherPatientId}`, { secret: await readToken() });
    expect(search.status).toBe(404);
    expect(await lastAudit('fhir.observation.search')).toMatchObject({
      outcome: 'denied',
      details: { smart_client_id: reader.id },
    });
    expect((await fhir('GET', `/fhir/R4/Observation/${vitalId}`, { secret: await readToken() })).status).toBe(404);
    expect(await lastAudit('fhir.observation.read')).toMatchObject({
      outcome: 'denied',
      details: { smart_client_id: reader.id },
    });
    // B's provider still reads them: the refusal is about the key's organization.
    expect(
      (await fhir('GET', `/fhir/R4/Observation?patient=${otherPatientId}`, { cookie: otherProvider.cookie })).status,
    ).toBe(200);
  });

  it("a SMART client of organization A does not find B's patient through a Device", async () => {
    const theirs = await fhir<Bundle>('GET', '/fhir/R4/Device?identifier=OTHER-9', { secret: await readToken() });
    expect(theirs.status).toBe(200);
    expect(theirs.body.entry ?? []).toEqual([]);
    const mine = await fhir<Bundle>('GET', '/fhir/R4/Device?identifier=FHIR-1', { secret: await readToken() });
    expect(mine.body.entry).toHaveLength(1);
  });

  it("a FHIR write key cannot create an Observation for B's patient, alone or in a batch", async () => {
    const before = await vitalsOf(otherPatientId);
    const byDevice = await post<OperationOutcome>(
      '/fhir/R4/Observation',
      bpObservation('OTHER-9', minutesAgo(400), 140, 90),
    );
    expect(byDevice.status).toBe(403);
    expect(byDevice.body.issue[0]).toMatchObject({ code: 'security', diagnostics: IngestionErrors.otherOrganization });
    const bySubject = await post<OperationOutcome>(
      '/fhir/R4/Observation',
      bpObservation('NOBODY-7', minutesAgo(401), 140, 90, { subject: { reference: `Patient/${otherPatientId}` } }),
    );
    expect(bySubject.status).toBe(403);
    expect(await lastAudit('fhir.observation.create')).toMatchObject({ outcome: 'failure', resource_id: writeKey.id });
    const denied = await server.db.pool.query(
      `SELECT resource_id, details FROM audit_logs WHERE action = 'fhir.observation.create' AND outcome = 'denied' ORDER BY id DESC LIMIT 1`,
    );
    expect(denied.rows[0]).toMatchObject({ resource_id: writeKey.id, details: { organization_id: orgId } });

    const entry = (resource: unknown) => ({ resource, request: { method: 'POST', url: 'Observation' } });
    const batch = await post<Bundle>('/fhir/R4', {
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        entry(bpObservation('FHIR-1', minutesAgo(402), 124, 80)),
        entry(bpObservation('OTHER-9', minutesAgo(402), 150, 95)),
      ],
    });
    expect(batch.status).toBe(200);
    expect(batch.body.entry?.map((e) => e.response?.status)).toEqual(['201 Created', '403 Forbidden']);
    expect(await lastAudit('fhir.bundle')).toMatchObject({ resource_id: writeKey.id });
    const transaction = await post<OperationOutcome>('/fhir/R4', {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        entry(bpObservation('FHIR-1', minutesAgo(403), 124, 80)),
        entry(bpObservation('OTHER-9', minutesAgo(403), 150, 95)),
      ],
    });
    expect(transaction.status).toBe(403);
    expect(await vitalsOf(otherPatientId)).toBe(before);
    // A lone heart rate for B's device is not added to B's readings either.
    const pulseOnly = await post('/fhir/R4/Observation', {
      resourceType: 'Observation',
      status: 'final',
      category: [
        { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] },
      ],
      code: { coding: [{ system: 'http://loinc.org', code: '8867-4' }] },
      effectiveDateTime: minutesAgo(400),
      device: { identifier: { value: 'OTHER-9' } },
      valueQuantity: { value: 70, unit: '/min', system: 'http://unitsofmeasure.org', code: '/min' },
    });
    expect(pulseOnly.status).toBe(403);

    // B's own write key writes for B.
    const keyOfB = (
      await admin.post<IngestionSourceWithSecret>('/api/integrations', {
        name: 'EHR of B',
        kind: 'fhir',
        organization_id: otherOrgId,
      })
    ).body;
    expect(
      (await post('/fhir/R4/Observation', bpObservation('OTHER-9', minutesAgo(404), 141, 91), keyOfB.secret)).status,
    ).toBe(201);
    expect(await vitalsOf(otherPatientId)).toBe(before + 1);
  });

  it('static read keys are retired: none is made any more, and an old one is refused with the reason', async () => {
    const made = await admin.post<{ message: string }>('/api/integrations', {
      name: 'New read key',
      kind: 'fhir',
      can_read: true,
      organization_id: orgId,
    });
    expect(made.status).toBe(400);
    expect(made.body.message).toBe(SmartErrors.readKeyCreation);
    const legacy = await buildSource(server.db.pool, { organizationId: orgId, kind: 'fhir', canRead: true });
    const refused = await fhir<OperationOutcome>('GET', `/fhir/R4/Patient/${patientId}`, { secret: legacy.secret });
    expect(refused.status).toBe(401);
    expect(refused.body.issue?.[0]?.diagnostics).toBe(SmartErrors.staticReadKeyRetired);
    expect(await lastAudit('fhir.patient.read')).toMatchObject({
      outcome: 'failure',
      resource_id: legacy.id,
      reason: 'static read keys retired',
    });
  });
});

describe('FHIR R4 out', () => {
  it('describes itself in a CapabilityStatement', async () => {
    const res = await fhir<CapabilityStatement>('GET', '/fhir/R4/metadata');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ resourceType: 'CapabilityStatement', fhirVersion: '4.0.1', kind: 'instance' });
  });

  it('reads a Patient for a provider of its organization, a SMART client, and audits each read', async () => {
    const res = await fhir<Patient>('GET', `/fhir/R4/Patient/${patientId}`, { cookie: provider.cookie });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      resourceType: 'Patient',
      name: [{ family: 'Fhir', given: ['Fay'] }],
      birthDate: '1951-05-06',
      gender: 'female',
    });
    expect((await fhir('GET', `/fhir/R4/Patient/${patientId}`, { secret: await readToken() })).status).toBe(200);
    const audits = await server.db.pool.query(
      `SELECT outcome, resource_id FROM audit_logs WHERE action = 'fhir.patient.read' ORDER BY id DESC LIMIT 2`,
    );
    expect(audits.rows).toEqual([
      { outcome: 'success', resource_id: String(patientId) },
      { outcome: 'success', resource_id: String(patientId) },
    ]);
  });

  it("answers 404 for another organization's patient, 401 without credentials or with a (write) key", async () => {
    const res = await fhir<OperationOutcome>('GET', `/fhir/R4/Patient/${patientId}`, { cookie: otherProvider.cookie });
    expect(res.status).toBe(404);
    expect(res.body.resourceType).toBe('OperationOutcome');
    expect(
      (await fhir('GET', `/fhir/R4/Observation?patient=${patientId}`, { cookie: otherProvider.cookie })).status,
    ).toBe(404);
    expect((await fhir('GET', `/fhir/R4/Patient/${patientId}`)).status).toBe(401);
    // Static keys no longer read, write keys included.
    expect((await fhir('GET', `/fhir/R4/Patient/${patientId}`, { secret: writeKey.secret })).status).toBe(401);
    expect((await fhir('GET', `/fhir/R4/Patient/999999`, { cookie: provider.cookie })).status).toBe(404);
  });

  it('searches Observations newest first with date bounds and next links', async () => {
    await buildReadings(
      server.db.pool,
      patientId,
      [1, 2, 3, 4, 5, 6, 7].map((g) => ({
        at: new Date(Date.UTC(2025, 5, 1) + g * 3_600_000),
        systolic: 100 + g,
        diastolic: 60,
        pulse: 70,
      })),
    );
    const first = await fhir<Bundle>(
      'GET',
      `/fhir/R4/Observation?patient=${patientId}&date=ge2025-06-01&date=lt2025-06-02T00:00:00Z&_count=3`,
      { cookie: provider.cookie },
    );
    expect(first.status).toBe(200);
    expect(first.body.type).toBe('searchset');
    const values = (b: Bundle) => b.entry?.map((e) => (e.resource as Observation).component?.[0]?.valueQuantity?.value);
    expect(values(first.body)).toEqual([107, 106, 105]);
    const next = first.body.link?.find((l) => l.relation === 'next')?.url;
    expect(next).toBeTruthy();
    const second = await fhir<Bundle>('GET', next!.replace(server.url, ''), { cookie: provider.cookie });
    expect(values(second.body)).toEqual([104, 103, 102]);
    const third = await fhir<Bundle>(
      'GET',
      second.body.link!.find((l) => l.relation === 'next')!.url.replace(server.url, ''),
      { secret: await readToken() },
    );
    expect(values(third.body)).toEqual([101]);
    expect(third.body.link?.some((l) => l.relation === 'next')).toBe(false);
    // No prefix is eq (R4): the whole of that day.
    expect(
      values(
        (
          await fhir<Bundle>('GET', `/fhir/R4/Observation?patient=${patientId}&date=2025-06-01`, {
            cookie: provider.cookie,
          })
        ).body,
      ),
    ).toEqual([107, 106, 105, 104, 103, 102, 101]);
    expect(
      (await fhir('GET', `/fhir/R4/Observation?patient=${patientId}&date=2025-06-31`, { cookie: provider.cookie }))
        .status,
    ).toBe(400);
    expect((await fhir('GET', `/fhir/R4/Observation`, { cookie: provider.cookie })).status).toBe(400);
    const audit = await server.db.pool.query(
      `SELECT resource_type, resource_id FROM audit_logs WHERE action = 'fhir.observation.search' AND outcome = 'success' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit.rows[0]).toEqual({ resource_type: 'patient', resource_id: String(patientId) });
  });

  it('finds a Device by identifier, showing its patient only within the reader organization', async () => {
    const mine = await fhir<Bundle>('GET', '/fhir/R4/Device?identifier=fhir-1', { cookie: provider.cookie });
    expect(mine.body.entry?.[0]?.resource).toMatchObject({
      resourceType: 'Device',
      identifier: [{ value: 'FHIR-1' }],
      patient: { reference: `Patient/${patientId}` },
    });
    const theirs = await fhir<Bundle>('GET', '/fhir/R4/Device?identifier=OTHER-9', { cookie: provider.cookie });
    expect(theirs.body.entry ?? []).toEqual([]);
    expect(
      (await fhir<Bundle>('GET', '/fhir/R4/Device?identifier=OTHER-9', { cookie: admin.cookie })).body.entry,
    ).toHaveLength(1);
  });

  it('answers a path or method it does not serve with an OperationOutcome, never the portal JSON error', async () => {
    for (const url of ['/fhir/R4/Foo', '/fhir/R5/metadata', '/fhir/R4/Practitioner', '/fhir/whatever?x=1']) {
      const res = await fhir<OperationOutcome>('GET', url, { cookie: provider.cookie });
      expect(res.status, url).toBe(404);
      expect(res.body.issue[0]).toMatchObject({ severity: 'error', code: 'not-found' });
      expect(res.body.issue[0]?.diagnostics).toBe(IngestionErrors.fhirUnknownPath(url.split('?')[0]!));
    }
    const wrongMethod = await fhir<OperationOutcome>('DELETE', '/fhir/R4/Observation', { secret: writeKey.secret });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toMatch(/GET/);
    expect(wrongMethod.headers.allow).toMatch(/POST/);
    expect(wrongMethod.body.issue[0]).toMatchObject({ severity: 'error', code: 'not-supported' });
    expect(wrongMethod.body.issue[0]?.diagnostics).toMatch(/^DELETE is not allowed here/);
    const put = await fhir<OperationOutcome>('PUT', `/fhir/R4/Patient/${patientId}`, {
      body: {},
      cookie: admin.cookie,
    });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toMatch(/GET/);
    expect(put.headers.allow).not.toMatch(/PUT/);
    // The portal's own API keeps its JSON error.
    const api = await server.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ statusCode: 404, message: 'Not found' });
  });

  it('limits reads and writes per source or address, answering 429 as an OperationOutcome', async () => {
    // One address of its own, so that the counts of the tests above do not matter.
    const reader = '198.51.100.7';
    const reads = Array.from({ length: FHIR_READ_RATE_LIMIT_PER_MINUTE }, () =>
      server.app.inject({ method: 'GET', url: '/fhir/R4/metadata', remoteAddress: reader }),
    );
    expect(new Set((await Promise.all(reads)).map((r) => r.statusCode))).toEqual(new Set([200]));
    const limited = await fhir<OperationOutcome>('GET', '/fhir/R4/metadata', { remoteAddress: reader });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.body.issue[0]).toMatchObject({
      severity: 'error',
      code: 'throttled',
      diagnostics: ApiErrors.rateLimited,
    });
    // Another address is counted apart.
    expect((await fhir('GET', '/fhir/R4/metadata', { remoteAddress: '198.51.100.8' })).status).toBe(200);

    // Writes without a key, counted per address; each is refused before its body is read (415).
    const writer = '198.51.100.9';
    const writes = Array.from({ length: FHIR_WRITE_RATE_LIMIT_PER_MINUTE }, () =>
      server.app.inject({
        method: 'POST',
        url: '/fhir/R4',
        headers: { 'content-type': 'application/xml' },
        payload: '<Bundle/>',
        remoteAddress: writer,
      }),
    );
    expect(new Set((await Promise.all(writes)).map((r) => r.statusCode))).toEqual(new Set([415]));
    const refused = await fhir<OperationOutcome>('POST', '/fhir/R4', {
      body: { resourceType: 'Bundle', type: 'batch', entry: [] },
      remoteAddress: writer,
    });
    expect(refused.status).toBe(429);
    expect(refused.body.issue[0]).toMatchObject({ code: 'throttled', diagnostics: ApiErrors.rateLimited });
    // A source's key from that address has an allowance of its own.
    const withKey = await fhir<Bundle>('POST', '/fhir/R4', {
      body: { resourceType: 'Bundle', type: 'batch', entry: [] },
      secret: writeKey.secret,
      remoteAddress: writer,
    });
    expect(withKey.status).not.toBe(429);
  }, 120_000);

  it('emitted only valid FHIR R4: every answer above validates against the official JSON schema', () => {
    expect(emitted.length).toBeGreaterThan(20);
    const kinds = new Set(emitted.map((r) => r.resourceType));
    expect([...kinds].sort()).toEqual(['Bundle', 'CapabilityStatement', 'Observation', 'OperationOutcome', 'Patient']);
    const invalid = emitted
      .map((r) => ({ type: r.resourceType, errors: fhirSchemaErrors(r) }))
      .filter((r) => r.errors.length > 0);
    expect(invalid).toEqual([]);
    // The check can fail: a resource with a bad field does not pass.
    expect(fhirSchemaErrors({ resourceType: 'Observation', status: 'finished', code: {} })).not.toEqual([]);
  }, 300_000);
});

describe('FHIR routes and the portal API', () => {
  it('are not reachable with only the CSRF-protected API client by accident', async () => {
    expect((await apiClient(server).get(`/fhir/R4/Patient/${patientId}`)).status).toBe(401);
  });
});
