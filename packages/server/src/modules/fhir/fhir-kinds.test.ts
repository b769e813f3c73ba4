/**
 * FHIR R4 in and out for every kind of the measurement registry ("Measurements as data"): each
 * kind is read by its LOINC code, in its canonical UCUM unit or one of its unit choices, checked
 * against its plausible range, and served back as an R4 Observation of its category and profile.
 * The kinds, codes, units and ranges come from the registry, never retyped here.
 */
import type { Bundle, CapabilityStatement, Observation, OperationOutcome, Resource } from '@medplum/fhirtypes';
import {
  canonicalUnitLabel,
  FhirErrors,
  glucose,
  GLUCOSE_MG_DL_PER_MMOL_L,
  IngestionErrors,
  KG_PER_LB,
  MEASUREMENT_KINDS,
  MeasurementTexts,
  oxygenSaturation,
  ReadingLimits,
  roundTo,
  weight,
  type ComponentDefinition,
  type IngestionSourceWithSecret,
  type MeasurementKind,
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
import { buildDevice, buildPatient } from '../../../test/support/factories.ts';

const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
const kinds: readonly MeasurementKind[] = MEASUREMENT_KINDS;
const BP_PANEL = '85354-9';

let server: TestServer;
let provider: ApiClient;
let writeKey: IngestionSourceWithSecret;
let patientId: number;
const emitted: Resource[] = [];
/** The device of each kind's readings: one per kind, all the patient's. */
const deviceOf = (kind: MeasurementKind) => `KIND-${kind.kind}`;

let clock = 0;
/** A distinct recent measurement time per call, so that no reading is another's duplicate. */
const fresh = () => new Date(Date.now() - (30 + ++clock) * 60_000).toISOString();

const quantity = (value: number, code: string) => ({ value, unit: code, system: UCUM, code });
const codeOf = (code: string) => ({ coding: [{ system: LOINC, code }] });
const isOwn = (kind: MeasurementKind, c: ComponentDefinition) =>
  [kind.loinc, ...(kind.alternateLoinc ?? [])].includes(c.loinc);

/**
 * An Observation of `kind` with these values (by component code), each in its canonical unit
 * unless `units` names another: the kind's own value as valueQuantity, the others as components.
 */
function observation(
  kind: MeasurementKind,
  values: Record<string, number>,
  opts: { units?: Record<string, string>; at?: string; code?: string } = {},
): Record<string, unknown> {
  const q = (c: ComponentDefinition) => quantity(values[c.code]!, opts.units?.[c.code] ?? c.ucum);
  const present = kind.components.filter((c) => values[c.code] !== undefined);
  const own = present.find((c) => isOwn(kind, c));
  const component = present.filter((c) => c !== own).map((c) => ({ code: codeOf(c.loinc), valueQuantity: q(c) }));
  return {
    resourceType: 'Observation',
    status: 'final',
    category: [
      { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: kind.category }] },
    ],
    code: codeOf(opts.code ?? kind.loinc),
    effectiveDateTime: opts.at ?? fresh(),
    device: { identifier: { value: deviceOf(kind) } },
    ...(own ? { valueQuantity: q(own) } : {}),
    ...(component.length > 0 ? { component } : {}),
  };
}

async function fhir<T = Resource>(method: 'GET' | 'POST', url: string, body?: unknown) {
  const headers: Record<string, string> = { accept: 'application/fhir+json' };
  if (body !== undefined) {
    headers['content-type'] = 'application/fhir+json';
    headers.authorization = `Bearer ${writeKey.secret}`;
  } else headers.cookie = provider.cookie ?? '';
  const res = await server.app.inject({
    method,
    url,
    headers,
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  const parsed = res.json() as T;
  emitted.push(parsed as Resource);
  return { status: res.statusCode, body: parsed };
}
const post = <T = Resource>(url: string, body: unknown) => fhir<T>('POST', url, body);
const get = <T = Resource>(url: string) => fhir<T>('GET', url);
const diagnostics = (o: unknown) => (o as OperationOutcome | undefined)?.issue?.[0]?.diagnostics;
const count = async () =>
  (await server.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM observations')).rows[0]!.n;
const storedRow = async (id: string | undefined) =>
  (
    await server.db.pool.query<{ kind: string; components: Record<string, number>; unit: string }>(
      'SELECT kind, components, unit FROM observations WHERE id = $1',
      [Number(id)],
    )
  ).rows[0];
const search = async (query: string) => {
  const res = await get<Bundle>(`/fhir/R4/Observation?patient=${patientId}&_count=500&${query}`);
  expect(res.status, query).toBe(200);
  return res.body;
};
const idsOf = (b: Bundle) => (b.entry ?? []).map((e) => e.resource?.id);
const entry = (resource: unknown) => ({ resource, request: { method: 'POST', url: 'Observation' } });

beforeAll(async () => {
  server = await startTestServer();
  const org = await createOrganization(server);
  const admin = await signInNewStaff(server, 'admin', org.id);
  provider = await signInNewStaff(server, 'provider', org.id);
  patientId = await buildPatient(server.db.pool, { firstName: 'Kim', lastName: 'Kinds', organizationId: org.id });
  for (const kind of kinds) {
    await buildDevice(server.db.pool, {
      deviceId: deviceOf(kind),
      type: kind.deviceType,
      patientId,
      assignedFrom: '2025-01-01',
    });
  }
  writeKey = (
    await admin.post<IngestionSourceWithSecret>('/api/integrations', {
      name: 'Kinds in',
      kind: 'fhir',
      organization_id: org.id,
    })
  ).body;
  // Compiling the whole R4 schema takes seconds: once, here, not inside a test's time limit.
  fhirSchemaErrors({ resourceType: 'Patient' });
}, 300_000);
afterAll(async () => server?.close());

describe('FHIR Observations of every kind', () => {
  const weightIds: string[] = [];
  let glucoseId: string | undefined;
  let spo2Id: string | undefined;

  it('stores a weight sent in kg or in [lb_av] in kg, and reads it back by id', async () => {
    const kg = await post<Observation>('/fhir/R4/Observation', observation(weight, { weight: 81.5 }));
    expect(kg.status).toBe(201);
    expect(kg.body).toMatchObject({
      resourceType: 'Observation',
      meta: {
        profile: ['http://hl7.org/fhir/StructureDefinition/bodyweight', 'http://hl7.org/fhir/StructureDefinition/vitalsigns'],
      },
      category: [{ coding: [{ code: 'vital-signs' }] }],
      code: { coding: [{ system: LOINC, code: weight.loinc }] },
      valueQuantity: { value: 81.5, unit: 'kg', system: UCUM, code: 'kg' },
      subject: { reference: `Patient/${patientId}` },
    });
    expect(kg.body.component).toBeUndefined();

    const pounds = 180;
    const lb = await post<Observation>(
      '/fhir/R4/Observation',
      observation(weight, { weight: pounds }, { units: { weight: '[lb_av]' } }),
    );
    expect(lb.status).toBe(201);
    const inKg = roundTo(pounds * KG_PER_LB, weight.components[0]!.decimals);
    expect(lb.body.valueQuantity).toEqual({ value: inKg, unit: 'kg', system: UCUM, code: 'kg' });
    expect(await storedRow(lb.body.id)).toEqual({ kind: weight.kind, components: { weight: inKg }, unit: 'kg' });

    for (const created of [kg.body, lb.body]) {
      const read = await get<Observation>(`/fhir/R4/Observation/${created.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(created);
      weightIds.push(created.id!);
    }
  });

  it('stores glucose sent in mg/dL or mmol/L in mg/dL, as a laboratory Observation without a profile', async () => {
    const mg = await post<Observation>('/fhir/R4/Observation', observation(glucose, { glucose: 104 }));
    expect(mg.status).toBe(201);
    expect(mg.body).toMatchObject({
      category: [{ coding: [{ code: 'laboratory', display: 'Laboratory' }] }],
      code: { coding: [{ system: LOINC, code: glucose.loinc }] },
      valueQuantity: { value: 104, unit: 'mg/dL', system: UCUM, code: 'mg/dL' },
    });
    // No R4 vital-signs profile for a laboratory result: a version, no profile.
    expect(mg.body.meta?.profile).toBeUndefined();
    expect(mg.body.code.coding).toHaveLength(1);

    // The glucometer's code is accepted on input, and mmol/L converted.
    const mmol = await post<Observation>(
      '/fhir/R4/Observation',
      observation(glucose, { glucose: 5.5 }, { units: { glucose: 'mmol/L' }, code: glucose.alternateLoinc![0] }),
    );
    expect(mmol.status).toBe(201);
    const inMgDl = roundTo(5.5 * GLUCOSE_MG_DL_PER_MMOL_L, glucose.components[0]!.decimals);
    expect(mmol.body.valueQuantity?.value).toBe(inMgDl);
    expect(await storedRow(mmol.body.id)).toEqual({
      kind: glucose.kind,
      components: { glucose: inMgDl },
      unit: 'mg/dL',
    });
    glucoseId = mmol.body.id;
  });

  it('stores oxygen saturation with and without the pulse measured with it', async () => {
    const alone = await post<Observation>('/fhir/R4/Observation', observation(oxygenSaturation, { spo2: 97 }));
    expect(alone.status).toBe(201);
    expect(alone.body).toMatchObject({
      meta: {
        profile: ['http://hl7.org/fhir/StructureDefinition/oxygensat', 'http://hl7.org/fhir/StructureDefinition/vitalsigns'],
      },
      valueQuantity: { value: 97, unit: '%', system: UCUM, code: '%' },
    });
    // The vital-signs profile's code (2708-6) beside the kind's own (59408-5).
    expect(alone.body.code.coding?.map((c) => c.code)).toEqual([
      oxygenSaturation.loinc,
      ...oxygenSaturation.alternateLoinc!,
    ]);
    expect(alone.body.component).toBeUndefined();

    const withPulse = await post<Observation>(
      '/fhir/R4/Observation',
      observation(oxygenSaturation, { spo2: 93, pulse: 88 }, { code: '2708-6' }),
    );
    expect(withPulse.status).toBe(201);
    expect(withPulse.body.valueQuantity?.value).toBe(93);
    expect(withPulse.body.component).toEqual([
      {
        code: { coding: [{ system: LOINC, code: '8867-4', display: 'Heart rate' }] },
        valueQuantity: { value: 88, unit: 'beats/minute', system: UCUM, code: '/min' },
      },
    ]);
    expect(await storedRow(withPulse.body.id)).toEqual({
      kind: oxygenSaturation.kind,
      components: { spo2: 93, pulse: 88 },
      unit: '%',
    });
    expect((await get<Observation>(`/fhir/R4/Observation/${withPulse.body.id}`)).body).toEqual(withPulse.body);
    spo2Id = withPulse.body.id;
  });

  it('refuses a wrong unit or an unknown code naming the field, storing nothing', async () => {
    const before = await count();
    const weightUnits = weight.unitChoices.map((u) => u.ucum);
    const glucoseUnits = glucose.unitChoices.map((u) => u.ucum);
    const cases: [Record<string, unknown>, string][] = [
      [
        observation(weight, { weight: 80_000 }, { units: { weight: 'g' } }),
        FhirErrors.unit('Observation.valueQuantity', weightUnits),
      ],
      [
        observation(weight, { weight: 180 }, { units: { weight: '[degF]' } }),
        FhirErrors.unit('Observation.valueQuantity', weightUnits),
      ],
      [
        observation(glucose, { glucose: 40 }, { units: { glucose: 'mmol/mol' } }),
        FhirErrors.unit('Observation.valueQuantity', glucoseUnits),
      ],
      [
        observation(oxygenSaturation, { spo2: 95, pulse: 70 }, { units: { pulse: '%' } }),
        FhirErrors.unit('component[8867-4].valueQuantity', ['/min']),
      ],
    ];
    for (const [body, message] of cases) {
      const res = await post<OperationOutcome>('/fhir/R4/Observation', body);
      expect(res.status, message).toBe(400);
      expect(diagnostics(res.body)).toBe(message);
    }
    const unknown = await post<OperationOutcome>(
      '/fhir/R4/Observation',
      observation(weight, { weight: 80 }, { code: '99999-9' }),
    );
    expect(unknown.status).toBe(400);
    expect(diagnostics(unknown.body)).toMatch(/^code must be LOINC /);
    for (const kind of kinds) expect(diagnostics(unknown.body)).toContain(kind.loinc);
    const noValue = observation(weight, { weight: 80 });
    delete noValue.valueQuantity;
    expect(diagnostics((await post('/fhir/R4/Observation', noValue)).body)).toBe(
      IngestionErrors.required('Observation.valueQuantity'),
    );
    expect(await count()).toBe(before);
  });

  it('accepts each component at the bounds of its plausible range and refuses just outside, storing nothing then', async () => {
    // The blood-pressure panel's pair has rules of its own (systolic above diastolic), tested with the panel.
    for (const kind of kinds.filter((k) => k.loinc !== BP_PANEL)) {
      const typical = Object.fromEntries(
        kind.components.map((c) => [c.code, Math.round((c.range.min + c.range.max) / 2)]),
      );
      for (const c of kind.components) {
        const step = 10 ** -c.decimals;
        for (const value of [c.range.min, c.range.max]) {
          const res = await post<Observation>(
            '/fhir/R4/Observation',
            observation(kind, { ...typical, [c.code]: value }),
          );
          expect(res.status, `${kind.kind} ${c.code} ${value}`).toBe(201);
        }
        const before = await count();
        for (const value of [roundTo(c.range.min - step, c.decimals), roundTo(c.range.max + step, c.decimals)]) {
          const res = await post<OperationOutcome>(
            '/fhir/R4/Observation',
            observation(kind, { ...typical, [c.code]: value }),
          );
          expect(res.status, `${kind.kind} ${c.code} ${value}`).toBe(400);
          const field = isOwn(kind, c)
            ? 'Observation.valueQuantity.value'
            : `component[${c.loinc}].valueQuantity.value`;
          const message = diagnostics(res.body);
          expect(message?.startsWith(field), message).toBe(true);
          if (c.loinc === '8867-4') {
            // A pulse keeps the webhooks' rule and words wherever it is measured.
            expect(message).toBe(
              IngestionErrors.range(field, ReadingLimits.pulse.min, ReadingLimits.pulse.max, 'beats per minute'),
            );
          } else {
            expect(message).toBe(
              FhirErrors.invalid(
                field,
                MeasurementTexts.outsideRange(
                  c.label,
                  String(value),
                  String(c.range.min),
                  String(c.range.max),
                  canonicalUnitLabel(kind, c),
                ),
              ),
            );
          }
        }
        expect(await count()).toBe(before);
      }
    }
  });

  it('searches by code (system|code, bare, alternates, comma = or) and by category', async () => {
    const weights = idsOf(await search(`code=${encodeURIComponent(`${LOINC}|${weight.loinc}`)}`));
    expect(weights).toEqual(expect.arrayContaining(weightIds));
    expect(weights).not.toContain(glucoseId);
    const bare = await search(`code=${weight.loinc}`);
    expect(idsOf(bare)).toEqual(weights);
    expect(bare.entry?.every((e) => (e.resource as Observation).code.coding?.[0]?.code === weight.loinc)).toBe(true);
    expect(bare.link?.[0]?.url).toContain(`code=${weight.loinc}`);

    expect(idsOf(await search(`code=${oxygenSaturation.alternateLoinc![0]}`))).toContain(spo2Id);
    // A code search matches Observation.code as served: glucose is served as 2339-0 alone.
    expect(idsOf(await search(`code=${glucose.alternateLoinc![0]}`))).not.toContain(glucoseId);
    const either = idsOf(await search(`code=${weight.loinc},${glucose.loinc}`));
    expect(either).toEqual(expect.arrayContaining([...weightIds, glucoseId]));
    expect(either).not.toContain(spo2Id);

    const vital = idsOf(await search('category=vital-signs'));
    expect(vital).toEqual(expect.arrayContaining([...weightIds, spo2Id]));
    expect(vital).not.toContain(glucoseId);
    const lab = await search(
      `category=${encodeURIComponent('http://terminology.hl7.org/CodeSystem/observation-category|laboratory')}`,
    );
    expect(idsOf(lab)).toContain(glucoseId);
    expect(lab.entry?.every((e) => (e.resource as Observation).category?.[0]?.coding?.[0]?.code === 'laboratory')).toBe(
      true,
    );
    // Both narrow: a laboratory weight is nothing.
    expect(idsOf(await search(`code=${weight.loinc}&category=laboratory`))).toEqual([]);
    // An unknown code, or a known one in another system, answers an empty Bundle, not an error.
    for (const q of [
      'code=99999-9',
      `code=${encodeURIComponent(`http://snomed.info/sct|${weight.loinc}`)}`,
      'category=imaging',
    ]) {
      const empty = await search(q);
      expect(empty.type).toBe('searchset');
      expect(empty.entry ?? []).toEqual([]);
    }
  });

  it('lists code and category among the search parameters of its CapabilityStatement', async () => {
    const res = await get<CapabilityStatement>('/fhir/R4/metadata');
    const observationParams = res.body.rest?.[0]?.resource
      ?.find((r) => r.type === 'Observation')
      ?.searchParam?.map((p) => [p.name, p.type]);
    expect(observationParams).toEqual(
      expect.arrayContaining([
        ['code', 'token'],
        ['category', 'token'],
      ]),
    );
  });
});

describe('Bundles of several kinds', () => {
  it('a batch stores each good entry and refuses the one in a wrong unit', async () => {
    const before = await count();
    const res = await post<Bundle>('/fhir/R4', {
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        entry(observation(weight, { weight: 77.3 })),
        entry(observation(glucose, { glucose: 6.1 }, { units: { glucose: 'mmol/L' } })),
        entry(observation(oxygenSaturation, { spo2: 96, pulse: 64 })),
        entry(observation(weight, { weight: 77_300 }, { units: { weight: 'g' } })),
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.entry?.map((e) => e.response?.status)).toEqual([
      '201 Created',
      '201 Created',
      '201 Created',
      '400 Bad Request',
    ]);
    expect(diagnostics(res.body.entry?.[3]?.response?.outcome)).toBe(
      FhirErrors.unit(
        'entry[3].resource.valueQuantity',
        weight.unitChoices.map((u) => u.ucum),
      ),
    );
    expect(await count()).toBe(before + 3);
  });

  it('a transaction with one bad entry is refused whole; without it, stored whole', async () => {
    const before = await count();
    const good = () => [entry(observation(weight, { weight: 70 })), entry(observation(oxygenSaturation, { spo2: 99 }))];
    const bad = await post<OperationOutcome>('/fhir/R4', {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [...good(), entry(observation(glucose, { glucose: 40 }, { units: { glucose: 'mmol/mol' } }))],
    });
    expect(bad.status).toBe(400);
    expect(diagnostics(bad.body)).toBe(
      FhirErrors.unit(
        'entry[2].resource.valueQuantity',
        glucose.unitChoices.map((u) => u.ucum),
      ),
    );
    expect(await count()).toBe(before);
    const ok = await post<Bundle>('/fhir/R4', { resourceType: 'Bundle', type: 'transaction', entry: good() });
    expect(ok.body.entry?.map((e) => e.response?.status)).toEqual(['201 Created', '201 Created']);
    expect(await count()).toBe(before + 2);
  });
});

describe('FHIR R4 out for every kind', () => {
  it('emitted only valid FHIR R4: every answer above validates against the official JSON schema', () => {
    expect(emitted.length).toBeGreaterThan(20);
    const invalid = emitted
      .map((r) => ({ type: r.resourceType, errors: fhirSchemaErrors(r) }))
      .filter((r) => r.errors.length > 0);
    expect(invalid).toEqual([]);
  }, 300_000);
});
