/**
 * FHIR input is checked field by field before any logic, and search reads dates as R4 does:
 * one test per finding of "Trust at the machine doors", each failing on the code before it.
 */
import type { Bundle, BundleEntry, Observation, OperationOutcome, Resource } from '@medplum/fhirtypes';
import {
  DEFAULT_ALERT_THRESHOLDS,
  FHIR_BUNDLE_MAX_ENTRIES,
  FHIR_OBSERVATION_STATUSES,
  FHIR_STORED_STATUSES,
  FhirErrors,
  IngestionErrors,
  PatientTexts,
  ReadingLimits,
  type IngestionSourceWithSecret,
  type UnmatchedReadingsResponse,
  type VitalPage,
} from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrganization,
  signInNewStaff,
  startTestServer,
  type ApiClient,
  type TestServer,
} from '../../../test/support/http.ts';
import { fhirSchemaErrors } from '../../../test/fhir-schema.ts';
import { loadConfig } from '../../config.ts';
import { buildDevice, buildPatient, buildReadings } from '../../../test/support/factories.ts';

let server: TestServer;
let admin: ApiClient;
let provider: ApiClient;
let writeKey: IngestionSourceWithSecret;
let patientId: number;
let otherPatientId: number;
let searchPatientId: number;

const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
let clock = 0;
/** A distinct recent measurement time per call, so that no test's reading is another's duplicate. */
const fresh = () => minutesAgo(60 + ++clock);

const quantity = (value: unknown, code = 'mm[Hg]') => ({ value, unit: code, system: UCUM, code });
function bp(device: string, at: string, systolic: unknown = 120, diastolic: unknown = 80, extra: object = {}) {
  return {
    resourceType: 'Observation',
    status: 'final',
    code: { coding: [{ system: LOINC, code: '85354-9' }] },
    effectiveDateTime: at,
    device: { identifier: { value: device } },
    component: [
      { code: { coding: [{ system: LOINC, code: '8480-6' }] }, valueQuantity: quantity(systolic) },
      { code: { coding: [{ system: LOINC, code: '8462-4' }] }, valueQuantity: quantity(diastolic) },
    ],
    ...extra,
  } as Record<string, unknown>;
}
function hr(device: string, at: string, pulse: unknown = 72, extra: object = {}) {
  return {
    resourceType: 'Observation',
    status: 'final',
    category: [
      { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] },
    ],
    code: { coding: [{ system: LOINC, code: '8867-4' }] },
    effectiveDateTime: at,
    device: { identifier: { value: device } },
    valueQuantity: quantity(pulse, '/min'),
    ...extra,
  } as Record<string, unknown>;
}
const entry = (resource: unknown) => ({ resource, request: { method: 'POST', url: 'Observation' } });
const bundle = (type: string, resources: unknown[]) => ({ resourceType: 'Bundle', type, entry: resources.map(entry) });

async function call<T = Resource>(
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  auth: 'write' | 'staff' = 'write',
) {
  const res = await server.app.inject({
    method,
    url,
    headers: {
      accept: 'application/fhir+json',
      ...(body !== undefined ? { 'content-type': 'application/fhir+json' } : {}),
      ...(auth === 'write' ? { authorization: `Bearer ${writeKey.secret}` } : { cookie: provider.cookie! }),
    },
    ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, body: res.json() as T, headers: res.headers };
}
const post = <T = Resource>(url: string, body: unknown) => call<T>('POST', url, body);
const diagnostics = (o: unknown) => (o as OperationOutcome).issue?.[0]?.diagnostics;
const count = async (table: 'observations' | 'unmatched_readings') =>
  (await server.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;
const rows = async () => ({ vitals: await count('observations'), unmatched: await count('unmatched_readings') });

beforeAll(async () => {
  server = await startTestServer();
  const org = await createOrganization(server);
  const other = await createOrganization(server);
  admin = await signInNewStaff(server, 'admin', org.id);
  provider = await signInNewStaff(server, 'provider', org.id);
  const db = server.db.pool;
  // Enrolled and active: the alert rules apply to its readings.
  patientId = await buildPatient(db, {
    firstName: 'Sam',
    lastName: 'Strict',
    organizationId: org.id,
    enrolledRpm: true,
    enrollmentStatus: 'Active',
  });
  otherPatientId = await buildPatient(db, { firstName: 'Oli', lastName: 'Other', organizationId: other.id });
  searchPatientId = await buildPatient(db, { firstName: 'Sue', lastName: 'Search', organizationId: org.id });
  await buildDevice(db, { deviceId: 'S-1', model: 'BP7', patientId, assignedFrom: '2000-01-01' });
  await buildDevice(db, { deviceId: 'O-1', model: 'BP7', patientId: otherPatientId, assignedFrom: '2000-01-01' });
  await buildDevice(db, { deviceId: 'FREE-1', model: 'BP7' });
  writeKey = (
    await admin.post<IngestionSourceWithSecret>('/api/integrations', {
      name: 'Strict in',
      kind: 'fhir',
      organization_id: org.id,
    })
  ).body;
  fhirSchemaErrors({ resourceType: 'Patient' });
}, 300_000);
afterAll(async () => server?.close());

describe('strict FHIR input', () => {
  it('malformed FHIR (a number as device.identifier.value, a string as code.coding, component: [null]) answers 400 naming the field, never 500, and in a batch refuses only its own entry', async () => {
    const before = await rows();
    const numberDevice = bp('S-1', fresh(), 120, 80, { device: { identifier: { value: 42 } } });
    const stringCoding = bp('S-1', fresh(), 120, 80, { code: { coding: 'http://loinc.org|85354-9' } });
    const nullComponent = bp('S-1', fresh(), 120, 80, { component: [null] });
    const unknownElement = bp('S-1', fresh(), 120, 80, { valueSteak: 'medium' });
    const cases: [unknown, string][] = [
      [numberDevice, 'device.identifier.value'],
      [stringCoding, 'code.coding'],
      [nullComponent, 'component[0]'],
      [unknownElement, 'valueSteak'],
    ];
    for (const [body, field] of cases) {
      const res = await post<OperationOutcome>('/fhir/R4/Observation', body);
      expect(res.status, field).toBe(400);
      expect(res.body.resourceType).toBe('OperationOutcome');
      expect(diagnostics(res.body), field).toMatch(new RegExp(`^${field.replace(/[[\].]/g, '\\$&')}(:| )`));
    }
    // An unknown element is named, but a megabyte-long name is not echoed back whole.
    const longKey = await post<OperationOutcome>(
      '/fhir/R4/Observation',
      bp('S-1', fresh(), 120, 80, { ['x'.repeat(5000)]: 1 }),
    );
    expect(longKey.status).toBe(400);
    expect(diagnostics(longKey.body)).toBe(FhirErrors.unknownElement(`${'x'.repeat(64)}…`));
    for (const hostile of ['null', '[]', '"x"', '42', '{"resourceType":"Observation","status":null}']) {
      expect((await post('/fhir/R4/Observation', hostile)).status, hostile).toBe(400);
    }

    const good = bp('S-1', fresh());
    const batch = await post<Bundle>(
      '/fhir/R4',
      bundle('batch', [numberDevice, good, stringCoding, nullComponent, null]),
    );
    expect(batch.status).toBe(200);
    expect(batch.body.entry?.map((e) => e.response?.status)).toEqual([
      '400 Bad Request',
      '201 Created',
      '400 Bad Request',
      '400 Bad Request',
      '400 Bad Request',
    ]);
    expect(diagnostics(batch.body.entry?.[0]?.response?.outcome)).toMatch(
      /^entry\[0\]\.resource\.device\.identifier\.value\b/,
    );
    expect(diagnostics(batch.body.entry?.[2]?.response?.outcome)).toMatch(/^entry\[2\]\.resource\.code\.coding\b/);
    expect(diagnostics(batch.body.entry?.[3]?.response?.outcome)).toMatch(/^entry\[3\]\.resource\.component\[0\]/);
    // An entry that is no object at all is refused as one, too.
    const odd = await post<Bundle>('/fhir/R4', { resourceType: 'Bundle', type: 'batch', entry: [null, 7, 'x', []] });
    expect(odd.body.entry?.map((e) => e.response?.status)).toEqual(Array(4).fill('400 Bad Request'));

    const transaction = await post<OperationOutcome>(
      '/fhir/R4',
      bundle('transaction', [bp('S-1', fresh()), nullComponent]),
    );
    expect(transaction.status).toBe(400);
    expect(diagnostics(transaction.body)).toMatch(/^entry\[1\]\.resource\.component\[0\]/);
    expect(await rows()).toEqual({ ...before, vitals: before.vitals + 1 });
  });

  it('status bogus is refused, not stored as final; only final, amended and corrected are stored', async () => {
    const before = await count('observations');
    const bogus = await post<OperationOutcome>(
      '/fhir/R4/Observation',
      bp('S-1', fresh(), 120, 80, { status: 'bogus' }),
    );
    expect(bogus.status).toBe(400);
    expect(diagnostics(bogus.body)).toBe(
      FhirErrors.invalid('status', `must be one of ${FHIR_OBSERVATION_STATUSES.join(', ')}`),
    );
    for (const status of FHIR_OBSERVATION_STATUSES) {
      const res = await post<OperationOutcome>('/fhir/R4/Observation', bp('S-1', fresh(), 120, 80, { status }));
      if (FHIR_STORED_STATUSES.includes(status)) expect(res.status, status).toBe(201);
      else {
        expect(res.status, status).toBe(400);
        expect(diagnostics(res.body)).toBe(FhirErrors.statusNotStored('status', status));
      }
    }
    expect(await count('observations')).toBe(before + FHIR_STORED_STATUSES.length);
  });

  it('effectiveDateTime 2026-09-31, years 0001 and 1900 and a reading older than 90 days are refused: a real calendar date-time with a zone, from 2000 on', async () => {
    const before = await rows();
    const field = 'effectiveDateTime';
    const badCalendar = [
      '2026-09-31T10:00:00Z',
      '2026-02-29T10:00:00Z',
      '2026-10-05T24:00:00Z',
      '2026-10-05T10:60:00Z',
      '2026-10-05T10:00:60Z',
      '2026-10-05T10:00:00+15:00',
      '2026-10-05T10:00:00',
      '2026-10-05T10:00Z',
      '2026-10-05',
    ];
    for (const at of badCalendar) {
      const res = await post<OperationOutcome>('/fhir/R4/Observation', bp('S-1', at));
      expect(res.status, at).toBe(400);
      expect(diagnostics(res.body), at).toBe(FhirErrors.dateTime(field));
    }
    const old = new Date(Date.now() - (ReadingLimits.maxAgeDays + 1) * 86_400_000).toISOString();
    for (const at of ['0001-01-01T00:00:00Z', '1900-01-01T00:00:00Z', '1999-12-31T23:59:59Z', old]) {
      const res = await post<OperationOutcome>('/fhir/R4/Observation', bp('S-1', at));
      expect(res.status, at).toBe(400);
      expect(diagnostics(res.body), at).toBe(
        FhirErrors.tooOld(field, ReadingLimits.maxAgeDays, ReadingLimits.earliestYear),
      );
    }
    // A batch refuses each stale entry on its own.
    const batch = await post<Bundle>('/fhir/R4', bundle('batch', [bp('S-1', old), bp('S-1', fresh())]));
    expect(batch.body.entry?.map((e) => e.response?.status)).toEqual(['400 Bad Request', '201 Created']);
    const inLimit = new Date(Date.now() - (ReadingLimits.maxAgeDays - 1) * 86_400_000);
    inLimit.setUTCMilliseconds(0);
    const leap = await post<Observation>(
      '/fhir/R4/Observation',
      bp('S-1', inLimit.toISOString().replace('Z', '+00:00')),
    );
    expect(leap.status).toBe(201);
    expect(leap.body.effectiveDateTime).toBe(inLimit.toISOString());
    expect(await rows()).toEqual({ ...before, vitals: before.vitals + 2 });
    // The limit is a setting of its own.
    expect(loadConfig({ READING_MAX_AGE_DAYS: '400' }).ingestion.readingMaxAgeDays).toBe(400);
    expect(loadConfig({}).ingestion.readingMaxAgeDays).toBe(ReadingLimits.maxAgeDays);
  });

  it('valueQuantity.value must be a JSON number: "0x80" and " 1.2e2 " are refused, not read as 128 and 120', async () => {
    const before = await count('observations');
    for (const value of ['0x80', ' 1.2e2 ', '120', true, null, [120], { value: 120 }]) {
      const res = await post<OperationOutcome>('/fhir/R4/Observation', bp('S-1', fresh(), value, 80));
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect(diagnostics(res.body)).toMatch(/^component\[0\]\.valueQuantity\.value\b/);
      const pulse = await post<OperationOutcome>('/fhir/R4/Observation', hr('S-1', fresh(), value));
      expect(pulse.status, JSON.stringify(value)).toBe(400);
      expect(diagnostics(pulse.body)).toMatch(/^valueQuantity\.value\b/);
    }
    for (const value of [1e308, -120, 120.5]) {
      expect((await post('/fhir/R4/Observation', bp('S-1', fresh(), value, 80))).status, String(value)).toBe(400);
    }
    expect(await count('observations')).toBe(before);
  });

  it('a subject on another server (https://evil.example/fhir/Patient/34) is refused, not taken as local patient 34, and a subject is not dropped when the device has no current owner', async () => {
    const before = await rows();
    const subject = (reference: string) => ({ subject: { reference } });
    for (const reference of [
      `https://evil.example/fhir/Patient/${patientId}`,
      `${server.url}.evil.example/fhir/R4/Patient/${patientId}`,
      `Practitioner/${patientId}`,
      `Patient/0${patientId}`,
      `Patient/${patientId}/_history/1`,
    ]) {
      const res = await post<OperationOutcome>('/fhir/R4/Observation', bp('S-1', fresh(), 120, 80, subject(reference)));
      expect(res.status, reference).toBe(400);
      expect(diagnostics(res.body)).toBe(FhirErrors.subjectNotLocal('subject.reference'));
    }
    const absolute = await post<Observation>(
      '/fhir/R4/Observation',
      bp('S-1', fresh(), 120, 80, subject(`${server.url}/fhir/R4/Patient/${patientId}`)),
    );
    expect(absolute.status).toBe(201);
    expect(absolute.body.subject?.reference).toBe(`Patient/${patientId}`);
    // Nobody had FREE-1 then: the sender's subject cannot be confirmed, so it is refused, not parked.
    const unowned = await post<OperationOutcome>(
      '/fhir/R4/Observation',
      bp('FREE-1', fresh(), 120, 80, subject(`Patient/${patientId}`)),
    );
    expect(unowned.status).toBe(400);
    expect(diagnostics(unowned.body)).toBe(FhirErrors.subjectUnverifiable('subject'));
    const unknownDevice = await post<Bundle>(
      '/fhir/R4',
      bundle('batch', [bp('NOBODY-7', fresh(), 120, 80, subject(`Patient/${patientId}`)), bp('NOBODY-7', fresh())]),
    );
    expect(unknownDevice.body.entry?.map((e) => e.response?.status)).toEqual(['400 Bad Request', '202 Accepted']);
    expect(diagnostics(unknownDevice.body.entry?.[0]?.response?.outcome)).toBe(
      FhirErrors.subjectUnverifiable('entry[0].resource.subject'),
    );
    expect(await rows()).toEqual({ vitals: before.vitals + 1, unmatched: before.unmatched + 1 });
  });

  it('a heart-rate Observation alone is stored as a heart_rate reading (not answered 200 and dropped) and served as an 8867-4 Observation', async () => {
    const at = fresh();
    const created = await post<Observation>(
      '/fhir/R4/Observation',
      hr('S-1', at, DEFAULT_ALERT_THRESHOLDS.pulse_high + 10),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system: LOINC, code: '8867-4' }] },
      valueQuantity: { value: DEFAULT_ALERT_THRESHOLDS.pulse_high + 10, system: UCUM, code: '/min' },
      subject: { reference: `Patient/${patientId}` },
    });
    expect(created.body.component).toBeUndefined();
    expect(fhirSchemaErrors(created.body)).toEqual([]);
    const stored = await server.db.pool.query(
      `SELECT kind, systolic, diastolic, pulse FROM observations WHERE id = $1`,
      [Number(created.body.id)],
    );
    expect(stored.rows).toEqual([{ kind: 'heart_rate', systolic: null, diastolic: null, pulse: 130 }]);
    // A retry is the same reading.
    const retry = await post<Observation>('/fhir/R4/Observation', hr('S-1', at, 130));
    expect([retry.status, retry.body.id]).toEqual([200, created.body.id]);

    const read = await call<Observation>('GET', `/fhir/R4/Observation/${created.body.id}`, undefined, 'staff');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const search = await call<Bundle>(
      'GET',
      `/fhir/R4/Observation?patient=${patientId}&date=eq${at.slice(0, 10)}&_count=500`,
      undefined,
      'staff',
    );
    expect(search.body.entry?.map((e) => e.resource?.id)).toContain(created.body.id);
    expect(fhirSchemaErrors(search.body)).toEqual([]);

    // One fast heart rate raises nothing (the pulse rules read a window's mean), and no pressure
    // is not a low one.
    const alerts = await server.db.pool.query<{ rule: string }>(
      `SELECT rule FROM alerts WHERE patient_id = $1 ORDER BY rule`,
      [patientId],
    );
    expect(alerts.rows.map((r) => r.rule)).not.toContain('pulse_high');
    expect(alerts.rows.map((r) => r.rule)).not.toContain('bp_low');

    // The vitals list shows it, with no pressure.
    const list = await provider.get<VitalPage>(`/api/patients/${patientId}/vitals?limit=100`);
    expect(list.status).toBe(200);
    expect(list.body.items.find((v) => v.created_at === created.body.effectiveDateTime)).toMatchObject({
      systolic: null,
      diastolic: null,
      pulse: 130,
    });
    expect(list.body.items.length).toBe(Math.min(100, list.body.total));
    expect(PatientTexts.noValue).toBe('—');
  });

  it('a heart rate alone from a device nobody has waits on the unmatched list, shown without pressures', async () => {
    const at = fresh();
    const parked = await post<OperationOutcome>('/fhir/R4/Observation', hr('NOBODY-HR', at, 77));
    expect(parked.status).toBe(202);
    const list = await admin.get<UnmatchedReadingsResponse>('/api/unmatched-readings?limit=100');
    expect(list.body.items.filter((r) => r.device_id === 'NOBODY-HR')).toEqual([
      expect.objectContaining({ systolic: null, diastolic: null, pulse: 77 }),
    ]);
  });

  it('a heart rate with the time and device of a panel in the same Bundle is that panel’s pulse', async () => {
    const before = await count('observations');
    const at = fresh();
    const res = await post<Bundle>(
      '/fhir/R4',
      bundle('batch', [hr('S-1', at, 66), bp('S-1', at, 131, 81), hr('S-1', fresh(), 67)]),
    );
    const statuses = res.body.entry?.map((e: BundleEntry) => e.response?.status);
    expect(statuses).toEqual(['200 OK', '201 Created', '201 Created']);
    expect(res.body.entry?.[0]?.response?.location).toBe(res.body.entry?.[1]?.response?.location);
    const panel = await call<Observation>(
      'GET',
      `/fhir/R4/${res.body.entry![1]!.response!.location!}`,
      undefined,
      'staff',
    );
    expect(panel.body.component?.map((c) => c.valueQuantity?.value)).toEqual([131, 81, 66]);
    expect(await count('observations')).toBe(before + 2);
  });

  it(`a request carries at most ${FHIR_BUNDLE_MAX_ENTRIES} measurements: 413 above`, async () => {
    const base = Date.now() - 30 * 86_400_000;
    const many = (n: number) => Array.from({ length: n }, (_, i) => bp('S-1', new Date(base + i * 1000).toISOString()));
    const before = await count('observations');
    const tooMany = await post<OperationOutcome>('/fhir/R4', bundle('batch', many(FHIR_BUNDLE_MAX_ENTRIES + 1)));
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.issue[0]).toMatchObject({
      code: 'too-costly',
      diagnostics: FhirErrors.bundleSize(FHIR_BUNDLE_MAX_ENTRIES),
    });
    expect(await count('observations')).toBe(before);
    const full = await post<Bundle>('/fhir/R4', bundle('transaction', many(FHIR_BUNDLE_MAX_ENTRIES)));
    expect(full.status).toBe(200);
    expect(await count('observations')).toBe(before + FHIR_BUNDLE_MAX_ENTRIES);
  });
});

describe('FHIR date search (R4 prefixes and precision)', () => {
  const times = [
    '2026-10-04T23:59:59.000Z',
    '2026-10-05T00:00:00.000Z',
    '2026-10-05T12:30:15.000Z',
    '2026-10-05T23:59:59.999Z',
    '2026-10-06T00:00:00.000Z',
    '2026-11-01T00:00:00.000Z',
    '2027-01-01T00:00:00.000Z',
  ];
  const search = async (...dates: string[]) => {
    const q = dates.map((d) => `&date=${encodeURIComponent(d)}`).join('');
    const res = await call<Bundle>(
      'GET',
      `/fhir/R4/Observation?patient=${searchPatientId}${q}&_count=100`,
      undefined,
      'staff',
    );
    expect(res.status, dates.join(' ')).toBe(200);
    return (res.body.entry ?? []).map((e) => (e.resource as Observation).effectiveDateTime).reverse();
  };

  beforeAll(async () => {
    await buildReadings(
      server.db.pool,
      searchPatientId,
      times.map((at) => ({ at, systolic: 120, diastolic: 80 })),
    );
  });

  it('date=eq2026-10-05 is the whole day, not everything from its midnight on, and a date without a prefix means eq (not refused)', async () => {
    expect(await search('eq2026-10-05')).toEqual(times.slice(1, 4));
    expect(await search('2026-10-05')).toEqual(times.slice(1, 4));
    expect(await search('ne2026-10-05')).toEqual([times[0], ...times.slice(4)]);
  });

  it('date=le2026-10-05 includes that whole day (does not drop it), lt ends before it, ge starts at it, gt after it', async () => {
    expect(await search('le2026-10-05')).toEqual(times.slice(0, 4));
    expect(await search('lt2026-10-05')).toEqual(times.slice(0, 1));
    expect(await search('ge2026-10-05')).toEqual(times.slice(1));
    expect(await search('gt2026-10-05')).toEqual(times.slice(4));
    expect(await search('ge2026-10-05', 'le2026-10-05')).toEqual(times.slice(1, 4));
  });

  it('reads year, month, day and dateTime precision, with or without a zone', async () => {
    expect(await search('eq2026')).toEqual(times.slice(0, 6));
    expect(await search('eq2026-10')).toEqual(times.slice(0, 5));
    expect(await search('eq2026-10-05T12:30:15Z')).toEqual([times[2]]);
    expect(await search('eq2026-10-05T14:30:15+02:00')).toEqual([times[2]]);
    expect(await search('eq2026-10-05T12:30')).toEqual([times[2]]);
    expect(await search('lt2026-10-05T12:30:15Z')).toEqual(times.slice(0, 2));
    expect(await search('le2026-10-05T12:30:15Z')).toEqual(times.slice(0, 3));
    expect(await search('gt2026-10-05T12:30:15Z')).toEqual(times.slice(3));
  });

  it('refuses an unreal date or an unknown prefix with 400', async () => {
    for (const d of ['eq2026-09-31', 'ap2026-10-05', 'eq2026-13', 'ge2026-10-05T25:00:00Z', 'eq26-10-05', 'eq']) {
      const res = await call<OperationOutcome>(
        'GET',
        `/fhir/R4/Observation?patient=${searchPatientId}&date=${d}`,
        undefined,
        'staff',
      );
      expect(res.status, d).toBe(400);
      expect(diagnostics(res.body)).toBe(FhirErrors.searchDate(d));
    }
  });
});

// IngestionErrors is the vocabulary both doors share: the future limit keeps its message here.
describe('shared reading limits', () => {
  it('refuses a reading from the future with the webhook message', async () => {
    const res = await post<OperationOutcome>(
      '/fhir/R4/Observation',
      bp('S-1', new Date(Date.now() + 3_600_000).toISOString()),
    );
    expect(res.status).toBe(400);
    expect(diagnostics(res.body)).toBe(IngestionErrors.future('effectiveDateTime'));
  });
});
