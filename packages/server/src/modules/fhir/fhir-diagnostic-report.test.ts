import type { Bundle, DiagnosticReport, OperationOutcome } from '@medplum/fhirtypes';
import { SummaryTexts, summaryMonthLabel, type IngestionSourceWithSecret } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fhirSchemaErrors } from '../../../test/fhir-schema.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';
import { buildOrganization, buildPatient, buildReadings } from '../../../test/support/factories.ts';
import { signInNewStaff, startTestServer, type ApiClient, type TestServer } from '../../../test/support/http.ts';
import { smartClient, smartToken, type SmartTestClient } from '../../../test/support/smart.ts';

let server: TestServer;
let provider: ApiClient;
let otherProvider: ApiClient;
/** EHRs of the patient's organization and of another, reading with SMART access tokens. */
let reader: SmartTestClient;
let otherReader: SmartTestClient;
const readToken = () => smartToken(server, reader);
const otherReadToken = () => smartToken(server, otherReader);
let writeKey: IngestionSourceWithSecret;
let patientId: number;
let marchIds: number[];

async function fhir<T>(url: string, opts: { secret?: string; cookie?: string | null } = {}) {
  const headers: Record<string, string> = { accept: 'application/fhir+json' };
  if (opts.secret) headers.authorization = `Bearer ${opts.secret}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  const res = await server.app.inject({ method: 'GET', url, headers });
  expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
  return { status: res.statusCode, body: res.json() as T };
}

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db.pool;
  // Chicago moves to summer time on 8 March 2026: March starts at 06:00Z and ends at 05:00Z.
  const org = (await buildOrganization(db, { timeZone: 'America/Chicago' })).id;
  const other = (await buildOrganization(db, {})).id;
  const admin = await signInNewStaff(server, 'admin', null);
  provider = await signInNewStaff(server, 'provider', org);
  otherProvider = await signInNewStaff(server, 'provider', other);
  const key = async (organization: number, body: Record<string, unknown>) =>
    (
      await admin.post<IngestionSourceWithSecret>('/api/integrations', {
        kind: 'fhir',
        organization_id: organization,
        ...body,
      })
    ).body;
  reader = await smartClient(server, admin, {
    organizationId: org,
    name: 'EHR out',
    scopes: ['system/DiagnosticReport.rs'],
  });
  otherReader = await smartClient(server, admin, {
    organizationId: other,
    name: 'Their EHR',
    scopes: ['system/DiagnosticReport.rs'],
  });
  writeKey = await key(org, { name: 'EHR in' });
  patientId = await buildPatient(db, { organizationId: org, firstName: 'Dia', lastName: 'Report', enrolledRpm: true });
  const at = (instant: string, systolic: number) => ({ at: instant, systolic, diastolic: 80, source: 'CUFF-7' });
  await buildReadings(db, patientId, [at('2026-03-01T05:59:00Z', 150)]); // 28 Feb 23:59 CST
  marchIds = await buildReadings(db, patientId, [at('2026-03-01T06:00:00Z', 120), at('2026-03-31T04:59:00Z', 124)]);
  await buildReadings(db, patientId, [at('2026-04-10T15:00:00Z', 126)]);
  fhirSchemaErrors({ resourceType: 'Patient' });
}, 300_000);
afterAll(async () => server?.close());

describe('FHIR DiagnosticReport: the monthly summary', () => {
  it("reads a past month's report for a provider: final, the month's period and its Observations", async () => {
    const res = await fhir<DiagnosticReport>(`/fhir/R4/DiagnosticReport/${patientId}-2026-03`, {
      cookie: provider.cookie,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      resourceType: 'DiagnosticReport',
      id: `${patientId}-2026-03`,
      status: 'final',
      code: { text: SummaryTexts.reportCodeText },
      subject: { reference: `Patient/${patientId}` },
      effectivePeriod: { start: '2026-03-01T06:00:00.000Z', end: '2026-04-01T04:59:59.999Z' },
    });
    expect(res.body.result).toEqual(marchIds.map((id) => ({ reference: `Observation/${id}` })));
    expect(res.body.conclusion).toContain(summaryMonthLabel('2026-03'));
    expect(fhirSchemaErrors(res.body)).toEqual([]);
    const record = await lastAuditOf(server, 'fhir.diagnostic_report.read', String(patientId));
    expect(record).toMatchObject({ outcome: 'success', resource_type: 'patient' });
    expect(record.details).toMatchObject({ via: 'fhir', month: '2026-03', results: 2 });
  });

  it("reads with the organization's SMART client, and audits the client", async () => {
    const res = await fhir<DiagnosticReport>(`/fhir/R4/DiagnosticReport/${patientId}-2026-03`, {
      secret: await readToken(),
    });
    expect(res.status).toBe(200);
    const record = await lastAuditOf(server, 'fhir.diagnostic_report.read', String(patientId));
    expect(record.details).toMatchObject({ smart_client_id: reader.id });
  });

  it("refuses another organization's client and provider with the not-found answer, audited as denied", async () => {
    const theirs = await fhir<OperationOutcome>(`/fhir/R4/DiagnosticReport/${patientId}-2026-03`, {
      secret: await otherReadToken(),
    });
    const missing = await fhir<OperationOutcome>(`/fhir/R4/DiagnosticReport/999999-2026-03`, {
      secret: await otherReadToken(),
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body.issue).toEqual(missing.body.issue);
    expect(await lastAuditOf(server, 'fhir.diagnostic_report.read', String(patientId))).toMatchObject({
      outcome: 'denied',
      details: { smart_client_id: otherReader.id },
    });
    const search = await fhir(`/fhir/R4/DiagnosticReport?patient=${patientId}`, { secret: await otherReadToken() });
    expect(search.status).toBe(404);
    expect(await lastAuditOf(server, 'fhir.diagnostic_report.search', String(patientId))).toMatchObject({
      outcome: 'denied',
    });
    const byCookie = await fhir(`/fhir/R4/DiagnosticReport/${patientId}-2026-03`, { cookie: otherProvider.cookie });
    expect(byCookie.status).toBe(404);
  });

  it('answers 401 without credentials or with a static key, 404 for an id that names no month', async () => {
    expect((await fhir(`/fhir/R4/DiagnosticReport/${patientId}-2026-03`)).status).toBe(401);
    expect((await fhir(`/fhir/R4/DiagnosticReport/${patientId}-2026-03`, { secret: writeKey.secret })).status).toBe(
      401,
    );
    expect((await fhir(`/fhir/R4/DiagnosticReport/${patientId}-2026-13`, { cookie: provider.cookie })).status).toBe(
      404,
    );
    expect((await fhir(`/fhir/R4/DiagnosticReport?date=2026-03`, { cookie: provider.cookie })).status).toBe(400);
  });

  it('searches by patient, newest month first, and by month', async () => {
    const all = await fhir<Bundle<DiagnosticReport>>(`/fhir/R4/DiagnosticReport?patient=Patient/${patientId}`, {
      secret: await readToken(),
    });
    expect(all.status).toBe(200);
    expect(all.body.entry?.map((e) => e.resource?.id)).toEqual([
      `${patientId}-2026-04`,
      `${patientId}-2026-03`,
      `${patientId}-2026-02`,
    ]);
    expect(fhirSchemaErrors(all.body)).toEqual([]);
    const march = await fhir<Bundle<DiagnosticReport>>(`/fhir/R4/DiagnosticReport?patient=${patientId}&date=2026-03`, {
      cookie: provider.cookie,
    });
    expect(march.body.entry?.map((e) => e.resource?.id)).toEqual([`${patientId}-2026-03`]);
    const record = await lastAuditOf(server, 'fhir.diagnostic_report.search', String(patientId));
    expect(record).toMatchObject({ outcome: 'success' });
    expect(record.details).toMatchObject({ count: 1, months: [`${patientId}-2026-03`] });
  });
});
