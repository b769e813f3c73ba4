/**
 * Generated FHIR input: fast-check builds Observations and Bundles (batch and transaction) that
 * are valid, nearly valid (one field off: a status outside the value set, a 31 September, a
 * number as a string, another server's patient) and hostile (wrong types, nulls, huge numbers,
 * prototype-pollution keys, deep nesting, entries that are not objects), and POSTs them through
 * the real app with a FHIR source's key. The server must never answer 5xx, and the database
 * must gain exactly what the answers say was stored (201) or kept unmatched (202): nothing
 * refused is ever stored, nothing reported stored is missing.
 *
 * FUZZ_FHIR_REQUESTS sets how many requests (default 5,000).
 */
import {
  FHIR_OBSERVATION_STATUSES,
  MEASUREMENT_KINDS,
  ReadingLimits,
  type IngestionSourceWithSecret,
  type MeasurementKind,
} from '@rpm/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, signInNewStaff, startTestServer, type TestServer } from './support/http.ts';
import { buildDevice, buildPatient } from './support/factories.ts';

const REQUESTS = Number(process.env.FUZZ_FHIR_REQUESTS ?? 5_000);
const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

let server: TestServer;
let secret = '';
let patientId = 0;
let otherPatientId = 0;

const NOW = Date.now();
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Measurement times: mostly valid and spread out (so that many are stored), some subtly wrong. */
const effective: fc.Arbitrary<Json> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.integer({ min: 60_000, max: (ReadingLimits.maxAgeDays - 1) * DAY }).map((ago) => iso(NOW - ago)),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 80 }), fc.constantFrom('+02:00', '-05:00', '+14:00', '-00:00'))
      .map(([days, zone]) => `${iso(NOW - days * DAY).slice(0, 19)}${zone}`),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '2026-09-31T10:00:00Z',
      '2026-02-29T10:00:00Z',
      '2026-10-05T24:00:00Z',
      '2026-10-05T10:00:00',
      '2026-10-05',
      '0001-01-01T00:00:00Z',
      '1900-01-01T00:00:00Z',
      '1999-12-31T23:59:59+14:00',
      '2026-10-05T10:00:00+15:00',
      iso(NOW + 3_600_000),
      iso(NOW - (ReadingLimits.maxAgeDays + 2) * DAY),
      '+275760-09-13T00:00:00.000Z',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null), fc.string({ maxLength: 30 })) },
);

/** Values: in range, out of range, not whole, not numbers (strings a lax reader would parse). */
const value = (min: number, max: number): fc.Arbitrary<Json> =>
  fc.oneof(
    { weight: 12, arbitrary: fc.integer({ min, max }) },
    { weight: 1, arbitrary: fc.constantFrom(1e308, -1, 0, 2 ** 31, 120.5, Number.MAX_SAFE_INTEGER, 1e-300) },
    { weight: 1, arbitrary: fc.constantFrom('0x80', ' 1.2e2 ', '120', '', 'NaN', 'Infinity') },
    { weight: 1, arbitrary: fc.constantFrom(null, true, [120], { value: 120 }) },
  );

const device: fc.Arbitrary<Json> = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom('F-1', 'F-2', ' f-1 ', 'NOBODY-1', 'NOBODY-2') },
  {
    weight: 1,
    arbitrary: fc.oneof(fc.integer(), fc.constant(null), fc.constant(''), fc.string({ minLength: 90, maxLength: 200 })),
  },
);

/** Subjects, built when generated (the patients exist only once the server has started). */
const SUBJECTS: Record<string, () => Json | undefined> = {
  none: () => undefined,
  local: () => ({ reference: `Patient/${patientId}` }),
  absolute: () => ({ reference: `${server.url}/fhir/R4/Patient/${patientId}` }),
  foreign: () => ({ reference: `https://evil.example/fhir/Patient/${patientId}` }),
  other: () => ({ reference: `Patient/${otherPatientId}` }),
  group: () => ({ reference: `Group/${patientId}` }),
  number: () => ({ reference: 34 }),
  identifier: () => ({ identifier: { value: String(patientId) } }),
  nullish: () => null,
  text: () => 'Patient/1',
};
const subject = (): fc.Arbitrary<Json | undefined> =>
  fc
    .oneof(
      { weight: 6, arbitrary: fc.constant('none') },
      { weight: 3, arbitrary: fc.constantFrom('local', 'absolute') },
      { weight: 2, arbitrary: fc.constantFrom('foreign', 'other', 'group', 'number', 'identifier', 'nullish', 'text') },
    )
    .map((k) => SUBJECTS[k]!());

const status: fc.Arbitrary<Json> = fc.oneof(
  { weight: 12, arbitrary: fc.constant('final') },
  { weight: 3, arbitrary: fc.constantFrom(...FHIR_OBSERVATION_STATUSES) },
  { weight: 1, arbitrary: fc.constantFrom('bogus', 'FINAL', '', null, 1) },
);

const quantity = (v: Json, code: string) => ({ value: v, unit: code, system: UCUM, code });
const coded = (code: string) => ({ coding: [{ system: LOINC, code }] });

const bloodPressure = fc
  .record({
    status,
    device,
    at: effective,
    subject: subject(),
    systolic: value(90, 180),
    diastolic: value(50, 85),
    pulse: fc.option(value(40, 140), { nil: undefined }),
  })
  .map(({ status: s, device: d, at, subject: subj, systolic, diastolic, pulse }) => {
    const component: Json[] = [
      { code: coded('8480-6'), valueQuantity: quantity(systolic, 'mm[Hg]') },
      { code: coded('8462-4'), valueQuantity: quantity(diastolic, 'mm[Hg]') },
    ];
    if (pulse !== undefined) component.push({ code: coded('8867-4'), valueQuantity: quantity(pulse, '/min') });
    return {
      resourceType: 'Observation',
      status: s,
      code: coded('85354-9'),
      effectiveDateTime: at,
      device: { identifier: { value: d } },
      ...(subj !== undefined ? { subject: subj } : {}),
      component,
    } as Json;
  });

const heartRate = fc
  .record({ status, device, at: effective, subject: subject(), pulse: value(40, 140) })
  .map(({ status: s, device: d, at, subject: subj, pulse }) => ({
    resourceType: 'Observation',
    status: s,
    code: coded('8867-4'),
    effectiveDateTime: at,
    device: { identifier: { value: d } },
    ...(subj !== undefined ? { subject: subj } : {}),
    valueQuantity: quantity(pulse, '/min'),
  })) as fc.Arbitrary<Json>;

/**
 * Every other kind of the registry (weight, glucose, oxygen saturation, ...), from its entry: the
 * value of the kind's own code as valueQuantity, the others as components (an optional one
 * sometimes left out), each in its canonical unit, one of the kind's unit choices or a wrong one.
 */
const registryKinds: readonly MeasurementKind[] = MEASUREMENT_KINDS;
const otherKinds = registryKinds.filter((k) => k.loinc !== '85354-9' && k.components.length > 0);
const unitFor = (kind: MeasurementKind, ucum: string): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(ucum, ...kind.unitChoices.map((u) => u.ucum)) },
    { weight: 1, arbitrary: fc.constantFrom('g', '[degF]', 'mmol/mol', 'mm[Hg]', '') },
  );
const ofKind = (kind: MeasurementKind): fc.Arbitrary<Json> =>
  fc
    .record({
      status,
      device,
      at: effective,
      subject: subject(),
      code: fc.constantFrom(kind.loinc, ...(kind.alternateLoinc ?? [])),
      values: fc.tuple(
        ...kind.components.map((c) =>
          fc.tuple(
            fc.oneof(
              { weight: 4, arbitrary: value(c.range.min, c.range.max) },
              { weight: 1, arbitrary: fc.double({ min: c.range.min, max: c.range.max, noNaN: true }) },
            ),
            unitFor(kind, c.ucum),
            fc.boolean(),
          ),
        ),
      ),
    })
    .map(({ status: s, device: d, at, subject: subj, code, values }) => {
      const own = (loinc: string) => loinc === kind.loinc || (kind.alternateLoinc ?? []).includes(loinc);
      let valueQuantity: Json | undefined;
      const component: Json[] = [];
      kind.components.forEach((c, i) => {
        const [v, unit, leftOut] = values[i]!;
        if (c.optional && leftOut) return;
        if (own(c.loinc)) valueQuantity = quantity(v, unit);
        else component.push({ code: coded(c.loinc), valueQuantity: quantity(v, unit) });
      });
      return {
        resourceType: 'Observation',
        status: s,
        code: coded(code),
        effectiveDateTime: at,
        device: { identifier: { value: d } },
        ...(subj !== undefined ? { subject: subj } : {}),
        ...(valueQuantity !== undefined ? { valueQuantity } : {}),
        ...(component.length > 0 ? { component } : {}),
      } as Json;
    });
const anyKind: fc.Arbitrary<Json> = fc.oneof(bloodPressure, heartRate, ...otherKinds.map(ofKind));

const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(null, 0, -1, 1e308, true, '', 'http://loinc.org|85354-9', [], {}, [null]),
  fc.string({ maxLength: 40 }),
  fc.integer({ min: 1, max: 200 }).map((depth) => {
    let v: Json = 'deep';
    for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
    return v;
  }),
);

/** Paths worth breaking: the elements the server reads, and some it only passes over. */
const PATHS = [
  ['status'],
  ['code'],
  ['code', 'coding'],
  ['code', 'coding', 0],
  ['code', 'coding', 0, 'code'],
  ['device'],
  ['device', 'identifier'],
  ['device', 'identifier', 'value'],
  ['device', 'reference'],
  ['subject'],
  ['subject', 'reference'],
  ['effectiveDateTime'],
  ['component'],
  ['component', 0],
  ['component', 1, 'valueQuantity'],
  ['component', 0, 'valueQuantity', 'value'],
  ['component', 0, 'valueQuantity', 'code'],
  ['component', 0, 'code', 'coding'],
  ['valueQuantity'],
  ['valueQuantity', 'value'],
  ['valueQuantity', 'comparator'],
  ['extension'],
  ['modifierExtension'],
  ['resourceType'],
  ['constructor'],
  ['prototype'],
  ['valueString'],
  ['unknownElement'],
] as const;

function setAt(root: Json, path: readonly (string | number)[], v: Json): Json {
  if (path.length === 0) return v;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const list = Array.isArray(root) ? [...root] : [];
    list[head] = setAt(list[head] ?? null, rest, v);
    return list.map((x) => (x === undefined ? null : x));
  }
  const obj: Record<string, Json> = root && typeof root === 'object' && !Array.isArray(root) ? { ...root } : {};
  Object.defineProperty(obj, head!, {
    value: setAt(obj[head!] ?? null, rest, v),
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return obj;
}

const observation: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: anyKind },
  {
    weight: 3,
    arbitrary: fc.tuple(anyKind, fc.constantFrom(...PATHS), hostileValue).map(([o, path, v]) => setAt(o, path, v)),
  },
  { weight: 1, arbitrary: hostileValue },
);

const entry: fc.Arbitrary<Json> = fc.oneof(
  {
    weight: 8,
    arbitrary: observation.map((resource) => ({ resource, request: { method: 'POST', url: 'Observation' } })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        observation,
        fc.constantFrom<Json>(
          { method: 'PUT', url: 'Observation/1' },
          { method: 'POST', url: 'Patient' },
          null,
          'POST',
        ),
      )
      .map(([resource, request]) => ({ resource, request })),
  },
  { weight: 1, arbitrary: hostileValue },
);

/** One entry sometimes repeated (a retry in the same Bundle), a heart rate sometimes sharing a panel's time. */
const bundle: fc.Arbitrary<Json> = fc
  .record({
    type: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom('batch', 'transaction') },
      { weight: 1, arbitrary: fc.constantFrom<Json>('collection', null, 7) },
    ),
    entries: fc.array(entry, { maxLength: 6 }),
    repeat: fc.boolean(),
  })
  .map(({ type, entries, repeat }) => ({
    resourceType: 'Bundle',
    type,
    entry: repeat && entries.length > 0 ? [...entries, entries[0]!] : entries,
  }));

/** A body as sent: JSON of a generated value, or raw text a JSON encoder would never write. */
const body: fc.Arbitrary<{ url: string; payload: string }> = fc.oneof(
  { weight: 5, arbitrary: observation.map((o) => ({ url: '/fhir/R4/Observation', payload: JSON.stringify(o) })) },
  { weight: 5, arbitrary: bundle.map((b) => ({ url: '/fhir/R4', payload: JSON.stringify(b) })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { url: '/fhir/R4/Observation', payload: '{"resourceType":"Observation","__proto__":{"status":"final"}}' },
      { url: '/fhir/R4/Observation', payload: '{"resourceType":"Observation","constructor":{"prototype":{"x":1}}}' },
      { url: '/fhir/R4', payload: '{"resourceType":"Bundle","type":"batch","entry":[{"__proto__":{"resource":{}}}]}' },
      {
        url: '/fhir/R4',
        payload: `{"resourceType":"Bundle","type":"batch","entry":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      },
      { url: '/fhir/R4/Observation', payload: `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}` },
      { url: '/fhir/R4/Observation', payload: '{"resourceType":"Observation","status":"final"' },
      { url: '/fhir/R4', payload: 'null' },
      { url: '/fhir/R4', payload: '[]' },
    ),
  },
);

async function counts() {
  const { rows } = await server.db.pool.query<{ vitals: number; unmatched: number }>(
    'SELECT (SELECT count(*) FROM observations)::int AS vitals, (SELECT count(*) FROM unmatched_readings)::int AS unmatched',
  );
  return rows[0]!;
}

/** What the answer says it added: 201 stored, 202 kept unmatched, per request or per Bundle entry. */
function reported(status: number, answer: { resourceType?: string; entry?: { response?: { status?: string } }[] }) {
  if (answer.resourceType === 'Bundle') {
    const statuses = (answer.entry ?? []).map((e) => e.response?.status ?? '');
    return {
      vitals: statuses.filter((s) => s.startsWith('201')).length,
      unmatched: statuses.filter((s) => s.startsWith('202')).length,
    };
  }
  return { vitals: status === 201 ? 1 : 0, unmatched: status === 202 ? 1 : 0 };
}

beforeAll(async () => {
  server = await startTestServer();
  const org = await createOrganization(server, 'FHIR Fuzz');
  const other = await createOrganization(server, 'FHIR Fuzz B');
  const admin = await signInNewStaff(server, 'admin', org.id);
  patientId = await buildPatient(server.db.pool, { firstName: 'Fu', lastName: 'Zz', organizationId: org.id });
  otherPatientId = await buildPatient(server.db.pool, { firstName: 'Ot', lastName: 'Her', organizationId: other.id });
  for (const deviceId of ['F-1', 'F-2']) {
    await buildDevice(server.db.pool, { deviceId, model: 'BP7', patientId, assignedFrom: '2000-01-01' });
  }
  secret = (
    await admin.post<IngestionSourceWithSecret>('/api/integrations', {
      name: 'Fuzz in',
      kind: 'fhir',
      organization_id: org.id,
    })
  ).body.secret;
}, 300_000);
afterAll(async () => server?.close());

describe('FHIR input fuzz', () => {
  it(`survives ${REQUESTS} generated FHIR bodies: no 5xx, and the database gains exactly what the answers report`, async () => {
    const seen = { requests: 0, byStatus: new Map<number, number>(), stored: 0, unmatched: 0, refusedEntries: 0 };
    const started = Date.now();
    let before = await counts();
    await fc.assert(
      fc.asyncProperty(body, async ({ url, payload }) => {
        seen.requests++;
        const res = await server.app.inject({
          method: 'POST',
          url,
          payload,
          headers: { 'content-type': 'application/fhir+json', authorization: `Bearer ${secret}` },
          // Each request from an address of its own: the write rate limit is not what is tested here.
          remoteAddress: `10.${(seen.requests >> 16) & 255}.${(seen.requests >> 8) & 255}.${seen.requests & 255}`,
        });
        seen.byStatus.set(res.statusCode, (seen.byStatus.get(res.statusCode) ?? 0) + 1);
        expect(res.statusCode, `${url} ${payload.slice(0, 300)}\n${res.body.slice(0, 300)}`).toBeLessThan(500);
        expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
        const answer = res.json() as { resourceType?: string; entry?: { response?: { status?: string } }[] };
        expect(['Observation', 'OperationOutcome', 'Bundle']).toContain(answer.resourceType);
        const added = reported(res.statusCode, answer);
        const after = await counts();
        expect(
          { vitals: after.vitals - before.vitals, unmatched: after.unmatched - before.unmatched },
          payload.slice(0, 300),
        ).toEqual(added);
        seen.stored += added.vitals;
        seen.unmatched += added.unmatched;
        seen.refusedEntries += (answer.entry ?? []).filter((e) => e.response?.status?.startsWith('4')).length;
        before = after;
      }),
      { numRuns: REQUESTS, endOnFailure: true },
    );
    const seconds = (Date.now() - started) / 1000;
    console.info(
      `FHIR fuzz: ${seen.requests} requests in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries(seen.byStatus))}; ` +
        `stored ${seen.stored}, unmatched ${seen.unmatched}, refused Bundle entries ${seen.refusedEntries}`,
    );
    expect(seen.requests).toBeGreaterThanOrEqual(REQUESTS);
    // The generator must reach every path: stored, unmatched, refused single bodies and refused entries.
    expect(seen.stored).toBeGreaterThan(REQUESTS / 20);
    expect(seen.unmatched).toBeGreaterThan(0);
    expect(seen.byStatus.get(400) ?? 0).toBeGreaterThan(REQUESTS / 20);
    expect(seen.refusedEntries).toBeGreaterThan(0);
  }, 300_000);
});
