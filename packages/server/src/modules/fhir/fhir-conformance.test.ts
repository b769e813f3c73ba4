/**
 * FHIR conformance on output (issue 27), as an independent client reads R4: Patient search by
 * identifier and name, Observation search by code and category with _sort, _total, _include,
 * keyset paging that holds while readings arrive, meta and ETag on every resource, and
 * Prefer: handling=strict. Every answer is checked against the official R4 JSON schema.
 */
import type {
  Bundle,
  CapabilityStatement,
  Device,
  DiagnosticReport,
  Observation,
  OperationOutcome,
  Patient,
  Resource,
} from '@medplum/fhirtypes';
import { FhirErrors } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
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
  buildReadings,
  markPatientChanged,
  removeReadings,
  setPatientIdentifierSystem,
  setPatientMrn,
} from '../../../test/support/factories.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';

const LOINC = 'http://loinc.org';
const CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const SYSTEM_A = 'https://hospital-a.example/mrn';
const SYSTEM_B = 'urn:oid:1.2.36.146.595.217.0.1';
const VITAL_SIGNS = 'http://hl7.org/fhir/StructureDefinition/vitalsigns';

let server: TestServer;
let provider: ApiClient;
let admin: ApiClient;
let otherProvider: ApiClient;
let orsted: number;
let smith: number;
let plain: number;
let bravo: number;
let observed: number;
const emitted: Resource[] = [];

async function get<T = Resource>(url: string, opts: { as?: ApiClient; prefer?: string } = {}) {
  const res = await server.app.inject({
    method: 'GET',
    url: url.replace(server.url, ''),
    headers: {
      accept: 'application/fhir+json',
      cookie: (opts.as ?? provider).cookie ?? '',
      ...(opts.prefer ? { prefer: opts.prefer } : {}),
    },
  });
  expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
  const answer = { status: res.statusCode, body: res.json() as T, headers: res.headers };
  emitted.push(answer.body as Resource);
  return answer;
}
const ids = (b: Bundle, mode = 'match') =>
  (b.entry ?? []).filter((e) => e.search?.mode === mode).map((e) => Number(e.resource?.id));
const link = (b: Bundle, relation: string) => b.link?.find((l) => l.relation === relation)?.url;
const q = encodeURIComponent;

beforeAll(async () => {
  server = await startTestServer();
  const a = await createOrganization(server);
  const b = await createOrganization(server);
  const owner = server.db.ownerPool;
  await setPatientIdentifierSystem(owner, a.id, SYSTEM_A);
  await setPatientIdentifierSystem(owner, b.id, SYSTEM_B);
  provider = await signInNewStaff(server, 'provider', a.id);
  admin = await signInNewStaff(server, 'admin', a.id);
  otherProvider = await signInNewStaff(server, 'provider', b.id);
  const db = server.db.pool;
  orsted = await buildPatient(db, { firstName: 'José', middleName: 'Maria', lastName: 'Ørsted', organizationId: a.id });
  smith = await buildPatient(db, { firstName: 'Jose', lastName: 'Smith', organizationId: a.id });
  plain = await buildPatient(db, { firstName: 'Ann', lastName: 'Plain_%', organizationId: a.id });
  bravo = await buildPatient(db, { firstName: 'José', lastName: 'Bravo', organizationId: b.id });
  observed = await buildPatient(db, { firstName: 'Olga', lastName: 'Observed', organizationId: a.id });
  for (const [id, mrn] of [
    [orsted, 'MRN-100'],
    [smith, 'MRN-101'],
    [bravo, 'MRN-100'],
  ] as const) {
    await setPatientMrn(owner, id, mrn);
  }
  await buildDevice(db, { deviceId: 'CONF-1', model: 'BP7', patientId: observed, assignedFrom: '2025-01-01' });
  fhirSchemaErrors({ resourceType: 'Patient' });
}, 300_000);
afterAll(async () => server?.close());

describe('Patient search', () => {
  it('by identifier: system|value, a bare value in any system, never another organization', async () => {
    const exact = await get<Bundle>(`/fhir/R4/Patient?identifier=${q(`${SYSTEM_A}|MRN-100`)}`);
    expect(exact.status).toBe(200);
    expect(exact.body).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 1 });
    expect(ids(exact.body)).toEqual([orsted]);
    expect((exact.body.entry?.[0]?.resource as Patient).identifier).toEqual([
      expect.objectContaining({ system: SYSTEM_A, value: 'MRN-100' }),
    ]);
    // The same MRN in organization B's system is B's patient: not the provider's to see.
    expect(ids((await get<Bundle>('/fhir/R4/Patient?identifier=MRN-100')).body)).toEqual([orsted]);
    expect(ids((await get<Bundle>('/fhir/R4/Patient?identifier=MRN-100', { as: admin })).body).sort()).toEqual(
      [orsted, bravo].sort(),
    );
    expect(ids((await get<Bundle>(`/fhir/R4/Patient?identifier=${q(`${SYSTEM_B}|MRN-100`)}`)).body)).toEqual([]);
    expect(
      ids((await get<Bundle>(`/fhir/R4/Patient?identifier=${q(`${SYSTEM_B}|MRN-100`)}`, { as: otherProvider })).body),
    ).toEqual([bravo]);
    // system|: any identifier of that system.
    expect(ids((await get<Bundle>(`/fhir/R4/Patient?identifier=${q(`${SYSTEM_A}|`)}`)).body)).toEqual([orsted, smith]);
    // |value: an identifier without a system, which the portal never gives.
    expect(ids((await get<Bundle>(`/fhir/R4/Patient?identifier=${q('|MRN-100')}`)).body)).toEqual([]);
    const either = await get<Bundle>(`/fhir/R4/Patient?identifier=${q(`${SYSTEM_A}|MRN-100,${SYSTEM_A}|MRN-101`)}`);
    expect(ids(either.body)).toEqual([orsted, smith]);
    expect(await lastAuditOf(server, 'fhir.patient.search')).toMatchObject({
      outcome: 'success',
      details: { patient_ids: [orsted, smith], total: 2 },
    });
  });

  it('by name: the start of first, middle or last name, regardless of case and accents', async () => {
    const name = async (...values: string[]) =>
      ids((await get<Bundle>(`/fhir/R4/Patient?${values.map((v) => `name=${q(v)}`).join('&')}`)).body);
    expect(await name('jose')).toEqual([orsted, smith]);
    expect(await name('JOSÉ')).toEqual([orsted, smith]);
    expect(await name('orst')).toEqual([orsted]);
    expect(await name('mar')).toEqual([orsted]);
    // Parameters AND, comma-separated values OR.
    expect(await name('jose', 'smi')).toEqual([smith]);
    expect(await name('smi,orst')).toEqual([orsted, smith]);
    // Not a substring match, and LIKE's wildcards are letters here.
    expect(await name('rsted')).toEqual([]);
    expect(await name('plain_%')).toEqual([plain]);
    expect(await name('%')).toEqual([]);
    expect((await get<OperationOutcome>('/fhir/R4/Patient?name=')).status).toBe(400);
    // The string modifiers: anywhere in a part (folded), or a whole part as written.
    const modified = async (query: string) => ids((await get<Bundle>(`/fhir/R4/Patient?${query}`)).body);
    expect(await modified(`name:contains=${q('RSTED')}`)).toEqual([orsted]);
    expect(await modified(`name:contains=${q('ith,ravo')}`)).toEqual([smith]);
    expect(await modified(`name:exact=${q('Jose')}`)).toEqual([smith]);
    expect(await modified(`name:exact=${q('José')}`)).toEqual([orsted]);
    expect(await modified(`name:exact=${q('jose')}`)).toEqual([]);
  });

  it('by _id, and unrestricted within what the reader may see', async () => {
    expect(ids((await get<Bundle>(`/fhir/R4/Patient?_id=${smith},${bravo},abc`)).body)).toEqual([smith]);
    const all = await get<Bundle>('/fhir/R4/Patient');
    expect(ids(all.body)).toEqual([orsted, smith, plain, observed]);
    expect(all.body.total).toBe(4);
  });

  it('pages by cursor with first, self and next links; _total=none skips the count', async () => {
    const first = await get<Bundle>('/fhir/R4/Patient?name=jose&_count=1');
    expect(ids(first.body)).toEqual([orsted]);
    expect(first.body.total).toBe(2);
    expect(link(first.body, 'self')).toBe(`${server.url}/fhir/R4/Patient?name=jose&_count=1`);
    expect(link(first.body, 'first')).toBe(link(first.body, 'self'));
    const next = link(first.body, 'next');
    expect(next).toMatch(/_cursor=/);
    const second = await get<Bundle>(next!);
    expect(ids(second.body)).toEqual([smith]);
    expect(link(second.body, 'self')).toBe(next);
    expect(link(second.body, 'next')).toBeUndefined();
    const uncounted = await get<Bundle>('/fhir/R4/Patient?name=jose&_total=none');
    expect(uncounted.body.total).toBeUndefined();
    expect((await get('/fhir/R4/Patient?_total=maybe')).status).toBe(400);
    expect((await get('/fhir/R4/Patient?_cursor=bm90LWEtY3Vyc29y')).status).toBe(400);
  });
});

describe('Observation search', () => {
  const day = Date.UTC(2026, 0, 10);
  const at = (h: number) => new Date(day + h * 3_600_000);
  let bp: number[];
  let weightId: number;
  let glucoseId: number;
  const search = async (query: string, opts: { prefer?: string } = {}) => {
    const res = await get<Bundle>(`/fhir/R4/Observation?patient=${observed}&${query}`, opts);
    expect(res.status, query).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    bp = await buildReadings(
      server.db.pool,
      observed,
      [1, 2, 3, 4, 5].map((h) => ({ at: at(h), systolic: 120 + h, diastolic: 80, source: 'CONF-1' })),
    );
    [weightId, glucoseId] = (await buildReadings(server.db.pool, observed, [
      { at: at(6), kind: 'weight', components: { weight: 81.5 }, unit: 'kg' },
      { at: at(7), kind: 'glucose', components: { glucose: 104 }, unit: 'mg/dL' },
    ])) as [number, number];
  });

  it('code: system|code, code, system| and comma for or; a code in no system or another matches nothing', async () => {
    expect(ids(await search(`code=${q(`${LOINC}|85354-9`)}`))).toEqual([...bp].reverse());
    expect(ids(await search('code=85354-9'))).toEqual([...bp].reverse());
    expect(ids(await search(`code=${q(`${LOINC}|`)}`))).toEqual([glucoseId, weightId, ...[...bp].reverse()]);
    expect(ids(await search(`code=${q('29463-7,2339-0')}`))).toEqual([glucoseId, weightId]);
    expect(ids(await search(`code=${q('|29463-7')}`))).toEqual([]);
    expect(ids(await search(`code=${q('http://snomed.info/sct|29463-7')}`))).toEqual([]);
    // Repeated parameters AND.
    expect(ids(await search('code=29463-7&code=2339-0'))).toEqual([]);
    // A search by code matches what the Observation carries in code: glucose is served as 2339-0 only.
    expect(ids(await search('code=41653-7'))).toEqual([]);
  });

  it('subject=Patient/{id} is the same search as patient; two different patients are refused', async () => {
    const bySubject = await get<Bundle>(`/fhir/R4/Observation?subject=Patient/${observed}&code=85354-9`);
    expect(ids(bySubject.body)).toEqual([...bp].reverse());
    const both = await get<OperationOutcome>(`/fhir/R4/Observation?patient=${observed}&subject=Patient/${smith}`);
    expect(both.status).toBe(400);
    expect(both.body.issue[0]?.diagnostics).toBe(FhirErrors.patientSearch);
    expect((await get(`/fhir/R4/Observation?subject=Device/1`)).status).toBe(400);
  });

  it('category: code or system|code, combined with code', async () => {
    expect(ids(await search('category=laboratory'))).toEqual([glucoseId]);
    expect(ids(await search(`category=${q(`${CATEGORY}|vital-signs`)}`))).toEqual([weightId, ...[...bp].reverse()]);
    expect(ids(await search(`category=vital-signs&code=2339-0`))).toEqual([]);
    expect(ids(await search(`category=${q(`${LOINC}|laboratory`)}`))).toEqual([]);
  });

  it('_sort=date is oldest first, -date (the default) newest first; Bundle.total counts every match', async () => {
    const ascending = await search('_sort=date&code=85354-9');
    expect(ids(ascending)).toEqual(bp);
    expect(ascending.total).toBe(5);
    expect(ids(await search('_sort=-date&code=85354-9'))).toEqual([...bp].reverse());
    const page = await search('_count=2');
    expect(ids(page)).toHaveLength(2);
    expect(page.total).toBe(7);
    expect((await search('_count=2&_total=none')).total).toBeUndefined();
    expect((await search('_total=accurate')).total).toBe(7);
  });

  it('_include=Observation:patient adds the Patient once, as include, after the matches', async () => {
    const res = await search('_include=Observation:patient&_count=3');
    expect(ids(res)).toHaveLength(3);
    expect(ids(res, 'include')).toEqual([observed]);
    expect(res.entry?.at(-1)).toMatchObject({
      fullUrl: `${server.url}/fhir/R4/Patient/${observed}`,
      resource: { resourceType: 'Patient', id: String(observed) },
      search: { mode: 'include' },
    });
    expect(link(res, 'next')).toContain(`_include=${q('Observation:patient')}`);
    expect(await lastAuditOf(server, 'fhir.observation.search')).toMatchObject({
      details: { included: [`Patient/${observed}`] },
    });
    // Without matches there is nothing to include.
    expect((await search('_include=Observation:patient&code=8310-5')).entry ?? []).toEqual([]);
  });

  it('paging links stay valid while readings arrive: no row repeated, none skipped', async () => {
    for (const sort of ['-date', 'date']) {
      const seen: number[] = [];
      let page = await search(`code=85354-9&_count=2&_sort=${sort}`);
      seen.push(...ids(page));
      // Between page 1 and page 2: a reading newer than all, and one older than all.
      const inserted = await buildReadings(server.db.pool, observed, [
        { at: at(10), systolic: 150, diastolic: 90, source: 'CONF-1' },
        { at: at(0), systolic: 151, diastolic: 90, source: 'CONF-1' },
      ]);
      let next = link(page, 'next');
      while (next) {
        expect(next).not.toMatch(/_offset=/);
        const res = await get<Bundle>(next);
        expect(res.status).toBe(200);
        page = res.body;
        seen.push(...ids(page));
        next = link(page, 'next');
      }
      expect(new Set(seen).size).toBe(seen.length);
      // Every reading of page 1's time on is there once; a reading stored meanwhile appears only
      // when it sorts after the page already read (here the older one, for -date).
      const expected = sort === '-date' ? [...[...bp].reverse(), inserted[1]!] : [...bp, inserted[0]!];
      expect(seen).toEqual(expected);
      await removeReadings(server.db.ownerPool, { ids: inserted });
    }
  });

  it('refuses a cursor it did not give, or one of the other order', async () => {
    const first = await search('_count=2&_sort=date');
    const cursor = new URL(link(first, 'next')!).searchParams.get('_cursor')!;
    const other = await get<OperationOutcome>(`/fhir/R4/Observation?patient=${observed}&_cursor=${cursor}`);
    expect(other.status).toBe(400);
    expect(other.body.issue[0]?.diagnostics).toBe(FhirErrors.cursor);
    for (const bad of ['x', Buffer.from('{"at":"no","id":1,"order":"asc"}').toString('base64url')]) {
      expect((await get(`/fhir/R4/Observation?patient=${observed}&_cursor=${bad}`)).status, bad).toBe(400);
    }
    // An old link with _offset still reads its page.
    expect(ids(await search('_sort=date&_count=2&_offset=2&code=85354-9'))).toEqual(bp.slice(2, 4));
  });
});

describe('Prefer: handling', () => {
  it('lenient (the default) ignores unknown parameters and leaves them out of the links', async () => {
    for (const prefer of [undefined, 'handling=lenient']) {
      const res = await get<Bundle>(`/fhir/R4/Observation?patient=${observed}&foo=bar&code:text=weight&_sort=code`, {
        ...(prefer ? { prefer } : {}),
      });
      expect(res.status).toBe(200);
      expect(ids(res.body)).toHaveLength(7);
      expect(link(res.body, 'self')).toBe(`${server.url}/fhir/R4/Observation?patient=${observed}&_count=50`);
    }
    const patients = await get<Bundle>('/fhir/R4/Patient?name=jose&given=x');
    expect(ids(patients.body)).toEqual([orsted, smith]);
    expect((await get<Bundle>('/fhir/R4/Device?identifier=CONF-1&type=cuff')).body.total).toBe(1);
    expect((await get(`/fhir/R4/DiagnosticReport?patient=${observed}&status=final`)).status).toBe(200);
  });

  it('strict refuses unknown parameters and unsupported values with a 400 OperationOutcome', async () => {
    const strict = { prefer: 'handling=strict' };
    for (const url of [
      `/fhir/R4/Observation?patient=${observed}&foo=bar`,
      `/fhir/R4/Observation?patient=${observed}&code:text=weight`,
      `/fhir/R4/Observation?patient=${observed}&_sort=code`,
      `/fhir/R4/Observation?patient=${observed}&_include=Observation:performer`,
      '/fhir/R4/Patient?given=jose',
      '/fhir/R4/Device?identifier=CONF-1&type=cuff',
      `/fhir/R4/DiagnosticReport?patient=${observed}&status=final`,
    ]) {
      const res = await get<OperationOutcome>(url, strict);
      expect(res.status, url).toBe(400);
      expect(res.body.issue[0]).toMatchObject({ severity: 'error', code: 'not-supported' });
    }
    expect(
      (await get<OperationOutcome>(`/fhir/R4/Observation?patient=${observed}&foo=bar`, strict)).body.issue[0]
        ?.diagnostics,
    ).toMatch(/^foo is not a search parameter/);
    // Known parameters only (and R4's _format) pass.
    const fine = await get<Bundle>(`/fhir/R4/Observation?patient=${observed}&code=85354-9&_format=json`, {
      prefer: 'return=representation, handling=strict',
    });
    expect(fine.status).toBe(200);
  });

  it('a malformed value of a known parameter is a 400 either way', async () => {
    for (const url of [
      `/fhir/R4/Observation?patient=${observed}&_count=abc`,
      `/fhir/R4/Observation?patient=${observed}&date=2026-13`,
      `/fhir/R4/Observation?patient=${observed}&_total=some`,
      `/fhir/R4/Observation?patient=${observed}&code=`,
    ]) {
      expect((await get(url)).status, url).toBe(400);
    }
  });
});

describe('meta, ETag and Last-Modified', () => {
  it('a Patient read carries versionId and lastUpdated, the ETag and Last-Modified follow them', async () => {
    const res = await get<Patient>(`/fhir/R4/Patient/${orsted}`);
    expect(res.status).toBe(200);
    const meta = res.body.meta!;
    expect(meta.versionId).toMatch(/^[A-Za-z0-9.-]{1,64}$/);
    expect(res.headers.etag).toBe(`W/"${meta.versionId}"`);
    expect(res.headers['last-modified']).toBe(new Date(meta.lastUpdated!).toUTCString());
    expect(res.body.identifier).toEqual([
      expect.objectContaining({ system: SYSTEM_A, value: 'MRN-100', type: expect.anything() }),
    ]);
    // A conditional read: the current version is not sent again.
    const current = await server.app.inject({
      method: 'GET',
      url: `/fhir/R4/Patient/${orsted}`,
      headers: { cookie: provider.cookie!, 'if-none-match': res.headers.etag as string },
    });
    expect([current.statusCode, current.body]).toEqual([304, '']);
    await markPatientChanged(server.db.ownerPool, orsted);
    const changed = await get<Patient>(`/fhir/R4/Patient/${orsted}`);
    const stale = await server.app.inject({
      method: 'GET',
      url: `/fhir/R4/Patient/${orsted}`,
      headers: { cookie: provider.cookie!, 'if-none-match': res.headers.etag as string },
    });
    expect(stale.statusCode).toBe(200);
    expect(changed.body.meta?.versionId).not.toBe(meta.versionId);
    expect(changed.headers.etag).not.toBe(res.headers.etag);
    // Each organization's system; no MRN, no identifier.
    const other = await get<Patient>(`/fhir/R4/Patient/${bravo}`, { as: admin });
    expect(other.body.identifier).toEqual([expect.objectContaining({ system: SYSTEM_B, value: 'MRN-100' })]);
    expect((await get<Patient>(`/fhir/R4/Patient/${plain}`)).body.identifier).toBeUndefined();
  });

  it('an Observation: vital-signs profiles, stored time as lastUpdated, none for glucose but its version', async () => {
    const stored = await server.db.pool.query<{ id: number; received_at: Date }>(
      'SELECT id, received_at FROM observations WHERE patient_id = $1 AND kind IN ($2, $3) ORDER BY kind',
      [observed, 'blood_pressure', 'glucose'],
    );
    const bpRow = stored.rows[0]!;
    const res = await get<Observation>(`/fhir/R4/Observation/${bpRow.id}`);
    expect(res.body.meta).toEqual({
      versionId: String(bpRow.received_at.getTime()),
      lastUpdated: bpRow.received_at.toISOString(),
      profile: ['http://hl7.org/fhir/StructureDefinition/bp', VITAL_SIGNS],
    });
    expect(res.headers.etag).toBe(`W/"${bpRow.received_at.getTime()}"`);
    const glucose = await get<Observation>(`/fhir/R4/Observation/${stored.rows.at(-1)!.id}`);
    expect(glucose.body.meta?.profile).toBeUndefined();
    expect(glucose.body.meta?.versionId).toBeDefined();
    expect(glucose.headers.etag).toBeDefined();
  });

  it('a Device in a search and a DiagnosticReport read carry meta too', async () => {
    const devices = await get<Bundle>('/fhir/R4/Device?identifier=CONF-1');
    const device = devices.body.entry?.[0]?.resource as Device;
    expect(device.meta?.versionId).toBeDefined();
    expect(device.meta?.lastUpdated).toBeDefined();
    expect((await get<Bundle>(`/fhir/R4/Device?identifier=${q('urn:other|CONF-1')}`)).body.entry ?? []).toEqual([]);
    const report = await get<DiagnosticReport>(`/fhir/R4/DiagnosticReport/${observed}-2026-01`);
    expect(report.status).toBe(200);
    expect(report.body.meta?.versionId).toMatch(/^[A-Za-z0-9-]{1,64}$/);
    expect(report.headers.etag).toBe(`W/"${report.body.meta?.versionId}"`);
    // The same figures, the same version.
    expect((await get<DiagnosticReport>(`/fhir/R4/DiagnosticReport/${observed}-2026-01`)).headers.etag).toBe(
      report.headers.etag,
    );
  });
});

describe('CapabilityStatement', () => {
  it('lists exactly what is served, and how system clients get a token', async () => {
    const res = await get<CapabilityStatement>('/fhir/R4/metadata');
    const rest = res.body.rest![0]!;
    const byType = Object.fromEntries((rest.resource ?? []).map((r) => [r.type, r]));
    expect(Object.keys(byType).sort()).toEqual(['Device', 'DiagnosticReport', 'Group', 'Observation', 'Patient']);
    const params = (type: string) => byType[type]?.searchParam?.map((p) => `${p.name}:${p.type}`);
    const interactions = (type: string) => byType[type]?.interaction?.map((i) => i.code).sort();
    expect(params('Patient')).toEqual(['_id:token', 'identifier:token', 'name:string', '_count:number']);
    expect(interactions('Patient')).toEqual(['read', 'search-type']);
    expect(params('Observation')).toEqual(
      expect.arrayContaining(['patient:reference', 'date:date', 'code:token', 'category:token']),
    );
    expect(interactions('Observation')).toEqual(['create', 'read', 'search-type']);
    expect(byType.Observation).toMatchObject({ conditionalCreate: true, searchInclude: ['Observation:patient'] });
    expect(byType.Observation?.supportedProfile).toContain(VITAL_SIGNS);
    expect(interactions('Device')).toEqual(['search-type']);
    expect(params('Device')).toEqual(['identifier:token']);
    expect(byType.Group?.operation).toEqual([
      { name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/group-export' },
    ]);
    expect(byType.Patient?.operation).toEqual([
      { name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/patient-export' },
    ]);
    expect(res.body.instantiates).toEqual(['http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data']);
    expect(rest.security?.service?.[0]?.coding?.[0]).toEqual({
      system: 'http://terminology.hl7.org/CodeSystem/restful-security-service',
      code: 'SMART-on-FHIR',
    });
    expect(rest.security?.extension?.[0]).toEqual({
      url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
      extension: [{ url: 'token', valueUri: `${server.url}/oauth/token` }],
    });
    expect(rest.interaction?.map((i) => i.code).sort()).toEqual(['batch', 'transaction']);
  });
});

describe('the answers', () => {
  it('validate against the official R4 JSON schema', () => {
    expect(emitted.length).toBeGreaterThan(40);
    expect(new Set(emitted.map((r) => r.resourceType))).toEqual(
      new Set(['Bundle', 'Patient', 'Observation', 'OperationOutcome', 'DiagnosticReport', 'CapabilityStatement']),
    );
    const invalid = emitted
      .map((r) => ({ type: r.resourceType, id: r.id, errors: fhirSchemaErrors(r) }))
      .filter((r) => r.errors.length > 0);
    expect(invalid).toEqual([]);
  }, 120_000);
});
