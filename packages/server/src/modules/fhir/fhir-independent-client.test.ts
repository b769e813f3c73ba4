/**
 * The FHIR API as an integration team meets it: an independent FHIR client library (not the
 * portal's own request helpers) with a SMART Backend Services token obtained by a signed
 * assertion. It discovers the token URL from the CapabilityStatement, checks what the statement
 * says is supported, reads, searches and pages while new readings arrive, creates conditionally
 * and retries safely, and is refused outside its grant. Every answer is checked against the
 * official R4 JSON schema.
 */
import type { Bundle, CapabilityStatement, Observation, Patient, Resource } from '@medplum/fhirtypes';
import { Client, CapabilityTool, RESPONSE_KEY, type FhirResource } from 'fhir-kit-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fhirSchemaErrors } from '../../../test/fhir-schema.ts';
import {
  buildDevice,
  buildPatient,
  buildReadings,
  setPatientIdentifierSystem,
  setPatientMrn,
} from '../../../test/support/factories.ts';
import { createOrganization, signInNewStaff, startTestServer, type TestServer } from '../../../test/support/http.ts';
import { smartClient, smartToken, type SmartTestClient } from '../../../test/support/smart.ts';

const MRN_SYSTEM = 'https://clinic-a.example/mrn';
const LOINC = 'http://loinc.org';

let server: TestServer;
let orgA: number;
let patientA: number;
let patientB: number;
let reader: SmartTestClient;
let writer: SmartTestClient;
let fhir: Client;

/** The library answers untyped resources; the tests read them as R4 types. */
const typed = async <T>(answer: Promise<unknown>): Promise<T> => (await answer) as T;
const base = () => `${server.url}/fhir/R4`;
const valid = (r: unknown) => expect(fhirSchemaErrors(r as Resource)).toEqual([]);
/** The HTTP status of a refusal as the client library reports it. */
async function refusedWith(call: Promise<unknown>): Promise<number> {
  try {
    await call;
  } catch (err) {
    return (err as { response?: { status?: number } }).response?.status ?? -1;
  }
  throw new Error('the call was not refused');
}

const bloodPressure = (at: Date, systolic: number, identifier: string): FhirResource => {
  const observation: Observation = {
    resourceType: 'Observation',
    status: 'final',
    identifier: [{ system: 'https://gateway.example/readings', value: identifier }],
    category: [
      { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] },
    ],
    code: { coding: [{ system: LOINC, code: '85354-9' }] },
    subject: { reference: `Patient/${patientA}` },
    effectiveDateTime: at.toISOString(),
    device: { identifier: { value: 'KIT-CUFF-1' } },
    component: [
      {
        code: { coding: [{ system: LOINC, code: '8480-6' }] },
        valueQuantity: { value: systolic, unit: 'mm[Hg]', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
      },
      {
        code: { coding: [{ system: LOINC, code: '8462-4' }] },
        valueQuantity: { value: 79, unit: 'mm[Hg]', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
      },
    ],
  };
  return observation as unknown as FhirResource;
};

beforeAll(async () => {
  server = await startTestServer();
  orgA = (await createOrganization(server)).id;
  const orgB = (await createOrganization(server)).id;
  const admin = await signInNewStaff(server, 'admin', orgA);
  const owner = server.db.ownerPool;
  await setPatientIdentifierSystem(owner, orgA, MRN_SYSTEM);
  patientA = await buildPatient(server.db.pool, { firstName: 'Kit', lastName: 'Reader', organizationId: orgA });
  patientB = await buildPatient(server.db.pool, { firstName: 'Other', lastName: 'Clinic', organizationId: orgB });
  await setPatientMrn(owner, patientA, 'A-4711');
  await buildDevice(server.db.pool, {
    deviceId: 'KIT-CUFF-1',
    model: 'BP7',
    patientId: patientA,
    assignedFrom: { ago: '30 days' },
  });
  // Seven readings an hour apart: pages of three.
  await buildReadings(
    server.db.pool,
    patientA,
    Array.from({ length: 7 }, (_, i) => ({ systolic: 120 + i, diastolic: 80, at: { ago: `${i + 2} hours` } })),
  );
  reader = await smartClient(server, admin, {
    organizationId: orgA,
    scopes: ['system/Patient.rs', 'system/Observation.rs'],
  });
  writer = await smartClient(server, admin, { organizationId: orgA, scopes: ['system/Observation.c'] });
  fhir = new Client({ baseUrl: base(), bearerToken: await smartToken(server, reader) });
  fhirSchemaErrors({ resourceType: 'Patient' });
}, 300_000);
afterAll(async () => server?.close());

describe('an independent FHIR client with a SMART backend token', () => {
  it('finds the token URL and what is supported in the CapabilityStatement', async () => {
    const auth = await fhir.smartAuthMetadata();
    expect(String(auth.tokenUrl)).toBe(`${server.url}/oauth/token`);
    const raw = await fhir.capabilityStatement();
    const statement = raw as unknown as CapabilityStatement;
    valid(statement);
    expect(statement.fhirVersion).toBe('4.0.1');
    const can = new CapabilityTool(raw);
    expect(can.resourceCan('Patient', 'read')).toBe(true);
    expect(can.resourceCan('Patient', 'search-type')).toBe(true);
    expect(can.resourceCan('Observation', 'create')).toBe(true);
    expect(can.resourceCan('Observation', 'update')).toBe(false);
    expect(can.resourceCan('Observation', 'delete')).toBe(false);
    for (const param of ['patient', 'date', 'code', 'category']) {
      expect(can.resourceSearch('Observation', param), param).toBe(true);
    }
    expect(can.resourceSearch('Patient', 'identifier')).toBe(true);
    expect(can.resourceSearch('Patient', 'name')).toBe(true);
  });

  it('reads a patient by the MRN search and by id, with meta and an ETag', async () => {
    const found = await typed<Bundle>(
      fhir.search({
        resourceType: 'Patient',
        searchParams: { identifier: `${MRN_SYSTEM}|A-4711` },
      }),
    );
    valid(found);
    expect(found.total).toBe(1);
    const patient = found.entry?.[0]?.resource as Patient;
    expect(patient.id).toBe(String(patientA));
    const read = await typed<Patient>(fhir.read({ resourceType: 'Patient', id: String(patientA) }));
    valid(read);
    expect(read.meta?.versionId).toBeTruthy();
    expect(read.meta?.lastUpdated).toBeTruthy();
    const response = (read as unknown as Record<typeof RESPONSE_KEY, Response>)[RESPONSE_KEY];
    expect(response.headers.get('etag')).toBe(`W/"${read.meta?.versionId}"`);
    // Another organization's patient is as unknown as one that does not exist.
    expect(await refusedWith(fhir.read({ resourceType: 'Patient', id: String(patientB) }))).toBe(404);
  });

  it('pages through readings with the links it is given, while new readings arrive, missing and repeating none', async () => {
    const first = await typed<Bundle>(
      fhir.search({
        resourceType: 'Observation',
        searchParams: { patient: String(patientA), code: `${LOINC}|85354-9`, _count: 3 },
      }),
    );
    valid(first);
    expect(first.total).toBe(7);
    const seen = (first.entry ?? []).map((e) => e.resource!.id!);
    // A reading arrives between pages (newer than every one already listed).
    await buildReadings(server.db.pool, patientA, [{ systolic: 150, diastolic: 95, at: { ago: '1 minute' } }]);
    let page: Bundle | undefined = first;
    while (page) {
      const next = fhir.nextPage({ bundle: page as unknown as Parameters<Client['nextPage']>[0]['bundle'] });
      page = next ? await typed<Bundle>(next) : undefined;
      if (page) {
        valid(page);
        seen.push(...(page.entry ?? []).map((e) => e.resource!.id!));
      }
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
  });

  it('creates conditionally, so a retried send stores the reading once', async () => {
    const writing = new Client({ baseUrl: base(), bearerToken: await smartToken(server, writer) });
    const reading = bloodPressure(new Date(Date.now() - 20 * 60_000), 133, 'gw-0001');
    const headers = { 'If-None-Exist': 'identifier=https://gateway.example/readings|gw-0001' };
    const created = await typed<Observation>(
      writing.create({
        resourceType: 'Observation',
        body: reading,
        options: { headers },
      }),
    );
    valid(created);
    const again = await typed<Observation>(
      writing.create({
        resourceType: 'Observation',
        body: reading,
        options: { headers },
      }),
    );
    expect(again.id).toBe(created.id);
    const stored = await server.db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM observations WHERE patient_id = $1 AND systolic = 133',
      [patientA],
    );
    expect(stored.rows[0]!.n).toBe(1);
    // The writer may not read; the reader may not write.
    expect(await refusedWith(writing.read({ resourceType: 'Observation', id: created.id! }))).toBe(403);
    expect(
      await refusedWith(fhir.create({ resourceType: 'Observation', body: bloodPressure(new Date(), 120, 'gw-2') })),
    ).toBe(403);
  });

  it('is refused with a token that is not one the portal issued', async () => {
    const stranger = new Client({ baseUrl: base(), bearerToken: 'rpmat_not-a-token' });
    expect(await refusedWith(stranger.read({ resourceType: 'Patient', id: String(patientA) }))).toBe(401);
  });
});
