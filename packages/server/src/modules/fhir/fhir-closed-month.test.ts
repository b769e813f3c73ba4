/**
 * A FHIR reading dated in a month closed for billing is refused per entry (409), and the other
 * entries of the batch are stored: the database would refuse it anyway, but then for the whole
 * request (finding "a back-dated webhook reading changed the closed month's evidence").
 */
import type { Bundle, OperationOutcome } from '@medplum/fhirtypes';
import { BillingErrors, billingClosePath, type IngestionSourceWithSecret } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, signInNewStaff, startTestServer, type TestServer } from '../../../test/support/http.ts';
import { buildDevice, buildPatient, setOrganizationTimeZone } from '../../../test/support/factories.ts';

let server: TestServer;
let writeKey: IngestionSourceWithSecret;
let patientId: number;

const DAY = 86_400_000;
// Forty days back is always in an earlier month than today, and within the 90-day age limit.
const closedAt = new Date(Date.now() - 40 * DAY);
const closedMonth = closedAt.toISOString().slice(0, 7);

const observation = (at: Date, systolic: number) => ({
  resourceType: 'Observation',
  status: 'final',
  category: [
    { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] },
  ],
  code: { coding: [{ system: 'http://loinc.org', code: '85354-9' }] },
  effectiveDateTime: at.toISOString(),
  device: { identifier: { value: 'CLOSED-1' } },
  component: [
    {
      code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] },
      valueQuantity: { value: systolic, unit: 'mm[Hg]', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
    },
    {
      code: { coding: [{ system: 'http://loinc.org', code: '8462-4' }] },
      valueQuantity: { value: 80, unit: 'mm[Hg]', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
    },
  ],
});

async function post<T>(url: string, body: unknown) {
  const res = await server.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/fhir+json', authorization: `Bearer ${writeKey.secret}` },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.json() as T };
}

const readingsOfPatient = async () =>
  (
    await server.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM observations WHERE patient_id = $1', [
      patientId,
    ])
  ).rows[0]!.n;

beforeAll(async () => {
  server = await startTestServer();
  const org = await createOrganization(server);
  // UTC, so that "forty days back" falls in the same month for the clinic as for the test.
  await setOrganizationTimeZone(server.db.ownerPool, org.id, 'UTC');
  const admin = await signInNewStaff(server, 'admin', org.id);
  patientId = await buildPatient(server.db.ownerPool, {
    firstName: 'Cleo',
    lastName: 'Closed',
    organizationId: org.id,
    createdAt: { ago: '200 days' },
  });
  await buildDevice(server.db.ownerPool, {
    deviceId: 'CLOSED-1',
    model: 'BP7',
    patientId,
    assignedFrom: { ago: '200 days' },
  });
  writeKey = (
    await admin.post<IngestionSourceWithSecret>('/api/integrations', {
      name: 'Closed-month EHR',
      kind: 'fhir',
      organization_id: org.id,
    })
  ).body;
  expect((await admin.post(billingClosePath(closedMonth))).status).toBe(200);
}, 120_000);
afterAll(async () => server?.close());

describe('a FHIR reading dated in a closed billing month', () => {
  it('is refused with 409 on its own, and per entry in a batch while the rest is stored', async () => {
    const before = await readingsOfPatient();
    const alone = await post<OperationOutcome>('/fhir/R4/Observation', observation(closedAt, 131));
    expect(alone.status).toBe(409);
    expect(alone.body.issue[0]).toMatchObject({ code: 'conflict', diagnostics: BillingErrors.monthClosed });

    const entry = (resource: unknown) => ({ resource, request: { method: 'POST', url: 'Observation' } });
    const batch = await post<Bundle>('/fhir/R4', {
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        entry(observation(new Date(closedAt.getTime() + 60_000), 132)),
        entry(observation(new Date(Date.now() - 3_600_000), 133)),
      ],
    });
    expect(batch.status).toBe(200);
    expect(batch.body.entry?.map((e) => e.response?.status)).toEqual(['409 Conflict', '201 Created']);
    expect(await readingsOfPatient()).toBe(before + 1);

    const transaction = await post<OperationOutcome>('/fhir/R4', {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        entry(observation(new Date(closedAt.getTime() + 120_000), 134)),
        entry(observation(new Date(Date.now() - 7_200_000), 135)),
      ],
    });
    expect(transaction.status).toBe(409);
    expect(await readingsOfPatient()).toBe(before + 1);
  });
});
