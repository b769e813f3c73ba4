/**
 * Observation.identifier is kept, and a sender can retry safely with a conditional create
 * (R4 http.html 3.1.0.8.1, `If-None-Exist: identifier=system|value`): one match answers the
 * existing Observation and stores nothing, several answer 412, none creates. The same per
 * Bundle entry (`request.ifNoneExist`). Identifiers belong to the sending organization.
 */
import type { Bundle, Observation, OperationOutcome, Resource } from '@medplum/fhirtypes';
import { FhirErrors, type IngestionSourceWithSecret } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastAuditOf } from '../../../test/support/audit.ts';
import { buildDevice, buildPatient } from '../../../test/support/factories.ts';
import { fhirSchemaErrors } from '../../../test/fhir-schema.ts';
import * as http from '../../../test/support/http.ts';

const { createOrganization, signInNewStaff, startTestServer } = http;
type ApiClient = http.ApiClient;
type TestServer = http.TestServer;

const SENDER = 'https://gateway.example/measurement-id';
const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';

let server: TestServer;
let provider: ApiClient;
let keyA: IngestionSourceWithSecret;
let keyB: IngestionSourceWithSecret;
let organizationA: number;
const emitted: Resource[] = [];
let clock = 0;
/** A distinct recent measurement time per call. */
const fresh = () => new Date(Date.now() - (120 + ++clock) * 60_000).toISOString();

const bp = (device: string, at: string, identifier: { system?: string; value?: string }[] = [], systolic = 124) => ({
  resourceType: 'Observation',
  status: 'final',
  category: [
    { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] },
  ],
  ...(identifier.length > 0 ? { identifier } : {}),
  code: { coding: [{ system: LOINC, code: '85354-9' }] },
  effectiveDateTime: at,
  device: { identifier: { value: device } },
  component: [pressure('8480-6', systolic), pressure('8462-4', 79)],
});
function pressure(code: string, value: number) {
  return {
    code: { coding: [{ system: LOINC, code }] },
    valueQuantity: { value, unit: 'mmHg', system: UCUM, code: 'mm[Hg]' },
  };
}

async function post<T = Resource>(url: string, body: unknown, opts: { key?: string; ifNoneExist?: string } = {}) {
  const res = await server.app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/fhir+json',
      authorization: `Bearer ${opts.key ?? keyA.secret}`,
      ...(opts.ifNoneExist !== undefined ? { 'if-none-exist': opts.ifNoneExist } : {}),
    },
    payload: JSON.stringify(body),
  });
  const parsed = res.json() as T;
  emitted.push(parsed as Resource);
  return { status: res.statusCode, body: parsed, headers: res.headers };
}
const count = async () =>
  (await server.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM observations')).rows[0]!.n;
const identifiersOf = async (id: string | number) =>
  (
    await server.db.pool.query<{ system: string | null; value: string }>(
      'SELECT system, value FROM observation_identifiers WHERE observation_id = $1 ORDER BY id',
      [Number(id)],
    )
  ).rows;
const entry = (resource: unknown, ifNoneExist?: unknown) => ({
  resource,
  request: { method: 'POST', url: 'Observation', ...(ifNoneExist !== undefined ? { ifNoneExist } : {}) },
});

beforeAll(async () => {
  server = await startTestServer();
  const a = await createOrganization(server);
  const b = await createOrganization(server);
  organizationA = a.id;
  const admin = await signInNewStaff(server, 'admin', a.id);
  provider = await signInNewStaff(server, 'provider', a.id);
  const patientA = await buildPatient(server.db.pool, { firstName: 'Ida', lastName: 'Ident', organizationId: a.id });
  const patientB = await buildPatient(server.db.pool, { firstName: 'Ben', lastName: 'Other', organizationId: b.id });
  await buildDevice(server.db.pool, {
    deviceId: 'ID-A',
    model: 'BP7',
    patientId: patientA,
    assignedFrom: '2025-01-01',
  });
  await buildDevice(server.db.pool, {
    deviceId: 'ID-B',
    model: 'BP7',
    patientId: patientB,
    assignedFrom: '2025-01-01',
  });
  const key = async (organization_id: number) =>
    (
      await admin.post<IngestionSourceWithSecret>('/api/integrations', {
        name: `Gateway ${organization_id}`,
        kind: 'fhir',
        organization_id,
      })
    ).body;
  keyA = await key(a.id);
  keyB = await key(b.id);
  fhirSchemaErrors({ resourceType: 'Patient' });
}, 300_000);
afterAll(async () => server?.close());

describe('Observation.identifier', () => {
  it('is kept and returned on create and on read, with the ETag of the new version', async () => {
    const created = await post<Observation>(
      '/fhir/R4/Observation',
      bp('ID-A', fresh(), [{ system: SENDER, value: 'm-1' }]),
    );
    expect(created.status).toBe(201);
    expect(created.body.identifier).toEqual([{ system: SENDER, value: 'm-1' }]);
    expect(created.headers.etag).toBe(`W/"${created.body.meta?.versionId}"`);
    const read = await server.app.inject({
      method: 'GET',
      url: `/fhir/R4/Observation/${created.body.id}`,
      headers: { cookie: provider.cookie! },
    });
    expect(read.json()).toEqual(created.body);
    expect(read.headers.etag).toBe(created.headers.etag);
    expect(await identifiersOf(created.body.id!)).toEqual([{ system: SENDER, value: 'm-1' }]);
  });

  it('a plain retry of the same measurement is the same Observation; the identifier is not kept twice', async () => {
    const at = fresh();
    const first = await post<Observation>('/fhir/R4/Observation', bp('ID-A', at, [{ system: SENDER, value: 'm-2' }]));
    const retry = await post<Observation>('/fhir/R4/Observation', bp('ID-A', at, [{ system: SENDER, value: 'm-2' }]));
    expect([first.status, retry.status]).toEqual([201, 200]);
    expect(retry.body.id).toBe(first.body.id);
    expect(await identifiersOf(first.body.id!)).toHaveLength(1);
  });

  it('an identifier that already names another measurement is refused with 409, nothing stored', async () => {
    const before = await count();
    const res = await post<OperationOutcome>(
      '/fhir/R4/Observation',
      bp('ID-A', fresh(), [{ system: SENDER, value: 'm-1' }]),
    );
    expect(res.status).toBe(409);
    expect(res.body.issue[0]?.code).toBe('conflict');
    expect(res.body.issue[0]?.diagnostics).toMatch(/^identifier already names Observation\/\d+/);
    expect(await count()).toBe(before);
    // Another organization numbering its measurements the same way is another identifier.
    const theirs = await post<Observation>(
      '/fhir/R4/Observation',
      bp('ID-B', fresh(), [{ system: SENDER, value: 'm-1' }]),
      { key: keyB.secret },
    );
    expect(theirs.status).toBe(201);
  });

  it('two requests at once with one identifier for two measurements: one is stored, the other refused', async () => {
    const before = await count();
    const [x, y] = await Promise.all(
      [fresh(), fresh()].map((at) =>
        post<Observation | OperationOutcome>(
          '/fhir/R4/Observation',
          bp('ID-A', at, [{ system: SENDER, value: 'race' }]),
        ),
      ),
    );
    expect([x!.status, y!.status].sort()).toEqual([201, 409]);
    expect(await count()).toBe(before + 1);
    const kept = await server.db.pool.query(`SELECT observation_id FROM observation_identifiers WHERE value = 'race'`);
    expect(kept.rows).toHaveLength(1);
  });

  it('an identifier taken by a request that commits while this one stores: refused whole, audited', async () => {
    const owner = (await post<Observation>('/fhir/R4/Observation', bp('ID-A', fresh()))).body.id!;
    const before = await count();
    const other = await server.db.ownerPool.connect();
    try {
      // The other request: its identifier kept, not yet committed (so this one's check cannot see it).
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO observation_identifiers (observation_id, organization_id, system, value) VALUES ($1, $2, $3, 'late')`,
        [Number(owner), organizationA, SENDER],
      );
      const pending = post<OperationOutcome>(
        '/fhir/R4/Observation',
        bp('ID-A', fresh(), [{ system: SENDER, value: 'late' }]),
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      await other.query('COMMIT');
      const res = await pending;
      expect(res.status).toBe(409);
      expect(res.body.issue[0]?.diagnostics).toBe(FhirErrors.identifierTaken('identifier', Number(owner)));
    } finally {
      other.release();
    }
    expect(await count()).toBe(before);
    expect(await lastAuditOf(server, 'fhir.observation.create')).toMatchObject({ outcome: 'failure' });
  });

  it('each identifier needs a value', async () => {
    const res = await post<OperationOutcome>('/fhir/R4/Observation', bp('ID-A', fresh(), [{ system: SENDER }]));
    expect(res.status).toBe(400);
    expect(res.body.issue[0]?.diagnostics).toBe(FhirErrors.identifierValue('identifier[0]'));
  });
});

describe('conditional create (If-None-Exist)', () => {
  let existingId: string;

  beforeAll(async () => {
    existingId = (
      await post<Observation>('/fhir/R4/Observation', bp('ID-A', fresh(), [{ system: SENDER, value: 'cc-1' }]))
    ).body.id!;
    // One measurement known under two systems with the same value: a bare value matches both.
    await post('/fhir/R4/Observation', bp('ID-A', fresh(), [{ system: 'urn:sys:one', value: 'twice' }]));
    await post('/fhir/R4/Observation', bp('ID-A', fresh(), [{ system: 'urn:sys:two', value: 'twice' }]));
  });

  it('one match: 200 with the existing Observation, nothing stored, whatever the body', async () => {
    const before = await count();
    const res = await post<Observation>(
      '/fhir/R4/Observation',
      bp('ID-A', fresh(), [{ system: SENDER, value: 'cc-1' }], 150),
      { ifNoneExist: `identifier=${SENDER}|cc-1` },
    );
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(existingId);
    expect(res.headers.location).toBe(`${server.url}/fhir/R4/Observation/${existingId}`);
    expect(res.headers.etag).toBe(`W/"${res.body.meta?.versionId}"`);
    expect(await count()).toBe(before);
    expect(await lastAuditOf(server, 'fhir.observation.create')).toMatchObject({
      outcome: 'success',
      details: { conditional: 'exists', observation_id: Number(existingId) },
    });
  });

  it('no match: 201, created with its identifier; a retry then finds it', async () => {
    const at = fresh();
    const body = bp('ID-A', at, [{ system: SENDER, value: 'cc-2' }]);
    const created = await post<Observation>('/fhir/R4/Observation', body, { ifNoneExist: `identifier=${SENDER}|cc-2` });
    expect(created.status).toBe(201);
    const retry = await post<Observation>('/fhir/R4/Observation', body, { ifNoneExist: `identifier=${SENDER}|cc-2` });
    expect([retry.status, retry.body.id]).toEqual([200, created.body.id]);
  });

  it('several matches: 412 Precondition Failed, nothing stored', async () => {
    const before = await count();
    for (const criteria of ['identifier=twice', `identifier=urn:sys:one|twice,${SENDER}|cc-1`]) {
      const res = await post<OperationOutcome>('/fhir/R4/Observation', bp('ID-A', fresh()), { ifNoneExist: criteria });
      expect(res.status, criteria).toBe(412);
      expect(res.body.issue[0]).toMatchObject({
        code: 'multiple-matches',
        diagnostics: FhirErrors.ifNoneExistMatches(2),
      });
    }
    // A token in one system narrows to one.
    const one = await post<Observation>('/fhir/R4/Observation', bp('ID-A', fresh()), {
      ifNoneExist: 'identifier=urn:sys:two|twice',
    });
    expect(one.status).toBe(200);
    expect(await count()).toBe(before);
  });

  it("looks only within the writer's organization", async () => {
    const res = await post<Observation>(
      '/fhir/R4/Observation',
      bp('ID-B', fresh(), [{ system: SENDER, value: 'cc-1' }]),
      { key: keyB.secret, ifNoneExist: `identifier=${SENDER}|cc-1` },
    );
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe(existingId);
  });

  it('criteria other than identifier are refused with 400', async () => {
    for (const criteria of ['patient=1', 'identifier=', 'identifier=a&code=85354-9', '']) {
      const res = await post<OperationOutcome>('/fhir/R4/Observation', bp('ID-A', fresh()), { ifNoneExist: criteria });
      expect(res.status, criteria).toBe(400);
      expect(res.body.issue[0]?.diagnostics).toBe(FhirErrors.ifNoneExist('If-None-Exist'));
    }
  });

  it('per Bundle entry: 200 for a match, 201 for none, 412 for several, 400 for bad criteria', async () => {
    const before = await count();
    const res = await post<Bundle>('/fhir/R4', {
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        entry(bp('ID-A', fresh(), [{ system: SENDER, value: 'cc-1' }]), `identifier=${SENDER}|cc-1`),
        entry(bp('ID-A', fresh(), [{ system: SENDER, value: 'cc-3' }]), `identifier=${SENDER}|cc-3`),
        entry(bp('ID-A', fresh()), 'identifier=twice'),
        entry(bp('ID-A', fresh()), 'name=x'),
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.entry?.map((e) => e.response?.status)).toEqual([
      '200 OK',
      '201 Created',
      '412 Precondition Failed',
      '400 Bad Request',
    ]);
    expect(res.body.entry?.[0]?.response?.location).toBe(`Observation/${existingId}`);
    // Each entry naming an Observation carries its version, as a read of it would.
    for (const e of res.body.entry!.slice(0, 2)) {
      const read = await server.app.inject({
        method: 'GET',
        url: `/fhir/R4/${e.response!.location!}`,
        headers: { cookie: provider.cookie! },
      });
      expect(e.response).toMatchObject({
        etag: read.headers.etag,
        lastModified: (read.json() as Observation).meta?.lastUpdated,
      });
    }
    expect(res.body.entry?.[3]?.response?.outcome?.issue[0]?.diagnostics).toBe(
      FhirErrors.ifNoneExist('entry[3].request.ifNoneExist'),
    );
    expect(await count()).toBe(before + 1);
    const created = res.body.entry![1]!.response!.location!.split('/')[1]!;
    expect(await identifiersOf(created)).toEqual([{ system: SENDER, value: 'cc-3' }]);
  });

  it('a transaction: a match is answered in place, several matches refuse the whole', async () => {
    const before = await count();
    const refused = await post<OperationOutcome>('/fhir/R4', {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [entry(bp('ID-A', fresh())), entry(bp('ID-A', fresh()), 'identifier=twice')],
    });
    expect(refused.status).toBe(412);
    expect(await count()).toBe(before);
    const done = await post<Bundle>('/fhir/R4', {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [entry(bp('ID-A', fresh())), entry(bp('ID-A', fresh()), `identifier=${SENDER}|cc-1`)],
    });
    expect(done.body.entry?.map((e) => e.response?.status)).toEqual(['201 Created', '200 OK']);
    expect(await count()).toBe(before + 1);
  });

  it('two entries of one request with one identifier for two measurements: the second is refused', async () => {
    const res = await post<Bundle>('/fhir/R4', {
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        entry(bp('ID-A', fresh(), [{ system: SENDER, value: 'cc-4' }])),
        entry(bp('ID-A', fresh(), [{ system: SENDER, value: 'cc-4' }])),
      ],
    });
    expect(res.body.entry?.map((e) => e.response?.status)).toEqual(['201 Created', '409 Conflict']);
  });
});

describe('the answers', () => {
  it('validate against the official R4 JSON schema', () => {
    expect(emitted.length).toBeGreaterThan(20);
    expect(emitted.flatMap((r) => fhirSchemaErrors(r).map((e) => `${r.resourceType}: ${e}`))).toEqual([]);
  }, 120_000);
});
