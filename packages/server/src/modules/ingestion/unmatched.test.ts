import {
  BillingErrors,
  DEFAULT_INGEST_AUTH_HEADER,
  UnmatchedErrors,
  billingClosePath,
  unmatchedAttachPath,
  type AttachUnmatchedResult,
} from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrganization,
  signInNewStaff,
  startTestServer,
  type ApiClient,
  type TestServer,
} from '../../../test/support/http.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';
import { assignDevice, buildPatient, buildSource, buildUnmatchedReading } from '../../../test/support/factories.ts';

let server: TestServer;
let admin: ApiClient;
let provider: ApiClient;
let orgA: number;
let orgB: number;
let sourceA: string;
let sourceB: string;

async function addSource(organizationId: number): Promise<string> {
  return (await buildSource(server.db.pool, { organizationId, name: 'Cloud' })).id;
}

async function addPatient(organizationId: number, createdAt: string): Promise<number> {
  return buildPatient(server.db.pool, {
    firstName: 'Una',
    lastName: 'Matched',
    organizationId,
    enrolledRpm: true,
    createdAt,
  });
}

/** Readings of a device the portal does not know yet, as the webhook keeps them; answers their ids. */
async function addUnmatched(device: string, source: string, instants: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const measuredAt of instants) {
    ids.push(
      await buildUnmatchedReading(server.db.pool, {
        deviceIdentifier: device,
        measuredAt,
        systolic: 128,
        diastolic: 84,
        pulse: 70,
        sourceId: source,
      }),
    );
  }
  return ids;
}

async function registerAndAssign(device: string, patientId: number, from?: string): Promise<void> {
  const created = await admin.post<{ id: number }>('/api/devices', { device_id: device });
  expect(created.status).toBe(201);
  await assignDevice(server.db.pool, created.body.id, patientId, from);
}

const readingTimesOf = async (patientId: number) =>
  (
    await server.db.pool.query<{ t: string }>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS t FROM observations WHERE patient_id = $1 ORDER BY created_at`,
      [patientId],
    )
  ).rows.map((r) => r.t);
const stillUnmatched = async (ids: number[]) =>
  (
    await server.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM unmatched_readings WHERE id = ANY ($1)', [
      ids,
    ])
  ).rows[0]!.n;

beforeAll(async () => {
  server = await startTestServer();
  orgA = (await createOrganization(server)).id;
  orgB = (await createOrganization(server)).id;
  admin = await signInNewStaff(server, 'admin', null);
  provider = await signInNewStaff(server, 'provider', orgA);
  sourceA = await addSource(orgA);
  sourceB = await addSource(orgB);
  // September is submitted for billing.
  expect((await admin.post(billingClosePath('2026-09'))).status).toBe(200);
});
afterAll(async () => server?.close());

describe('assigning a device reaches back over its unmatched readings', () => {
  it('registering and assigning a device later does not attach October readings to a patient created in November', async () => {
    const patientId = await addPatient(orgA, '2026-11-05T15:00:00Z');
    const [october, november] = await addUnmatched('LATE-CUFF', sourceA, [
      '2026-10-20T16:00:00Z',
      '2026-11-10T16:00:00Z',
    ]);
    await registerAndAssign('late-cuff', patientId);
    expect(await readingTimesOf(patientId)).toEqual(['2026-11-10']);
    expect(await stillUnmatched([october!, november!])).toBe(1);
    const october_ = await admin.get<{ rows: { patient_id: number; codes: unknown[] }[] }>(
      '/api/billing?month=2026-10',
    );
    expect(october_.body.rows.find((r) => r.patient_id === patientId)?.codes).toEqual([]);
    const { rows } = await server.db.pool.query<{ from: Date }>(
      `SELECT assigned_from AS from FROM device_assignments a JOIN devices d ON d.id = a.device_id WHERE d.device_id = 'late-cuff'`,
    );
    expect(rows[0]!.from.toISOString()).toBe('2026-11-10T16:00:00.000Z');
  });

  it("leaves readings of another organization's source unmatched", async () => {
    const patientId = await addPatient(orgA, '2026-08-01T15:00:00Z');
    const [own] = await addUnmatched('SHARED-CUFF', sourceA, ['2026-11-11T16:00:00Z']);
    const [foreign] = await addUnmatched('shared-cuff', sourceB, ['2026-11-12T16:00:00Z']);
    await registerAndAssign('Shared-Cuff', patientId);
    expect(await readingTimesOf(patientId)).toEqual(['2026-11-11']);
    expect(await stillUnmatched([own!, foreign!])).toBe(1);
  });

  it('leaves readings of a closed month unmatched', async () => {
    const patientId = await addPatient(orgA, '2026-08-01T15:00:00Z');
    const [september, october] = await addUnmatched('SEPT-CUFF', sourceA, [
      '2026-09-15T16:00:00Z',
      '2026-10-15T16:00:00Z',
    ]);
    await registerAndAssign('sept-cuff', patientId);
    expect(await readingTimesOf(patientId)).toEqual(['2026-10-15']);
    expect(await stillUnmatched([september!, october!])).toBe(1);
  });
});

describe('attaching unmatched readings on purpose', () => {
  it("lets an admin attach chosen readings to a patient, audited, but not another organization's, a closed month's or a provider", async () => {
    const patientId = await addPatient(orgA, '2026-11-20T15:00:00Z');
    const [early] = await addUnmatched('LOANER-1', sourceA, ['2026-10-21T16:00:00Z']);
    const [foreign] = await addUnmatched('LOANER-2', sourceB, ['2026-10-22T16:00:00Z']);
    const [closed] = await addUnmatched('LOANER-3', sourceA, ['2026-09-22T16:00:00Z']);
    const attach = (as: ApiClient, ids: number[], patient = patientId) =>
      as.post<AttachUnmatchedResult & { message: string }>(unmatchedAttachPath, {
        reading_ids: ids,
        patient_id: patient,
      });

    expect((await attach(provider, [early!])).status).toBe(403);

    const otherOrg = await attach(admin, [early!, foreign!]);
    expect(otherOrg.status).toBe(409);
    expect(otherOrg.body.message).toBe(UnmatchedErrors.otherOrganization);
    const closedMonth = await attach(admin, [closed!]);
    expect(closedMonth.status).toBe(409);
    expect(closedMonth.body.message).toBe(BillingErrors.monthClosed);
    expect(await lastAuditOf(server, 'unmatched.attach')).toMatchObject({
      outcome: 'failure',
      resource_id: String(patientId),
    });
    expect((await attach(admin, [early!], 2147483000)).status).toBe(404);
    expect(await stillUnmatched([early!, foreign!, closed!])).toBe(3);

    const done = await attach(admin, [early!]);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ attached: 1 });
    expect(await readingTimesOf(patientId)).toEqual(['2026-10-21']);
    expect(await lastAuditOf(server, 'unmatched.attach')).toMatchObject({
      outcome: 'success',
      resource_id: String(patientId),
    });
    const again = await attach(admin, [early!]);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(UnmatchedErrors.notUnmatched);
  });
});

describe('a back-dated webhook reading', () => {
  it('of an assigned device, measured in a closed month, is refused with the closed-month conflict and not stored', async () => {
    const { id, secret } = await buildSource(server.db.pool, {
      organizationId: orgA,
      name: 'Cuffs',
      authHeader: DEFAULT_INGEST_AUTH_HEADER,
    });
    const patientId = await addPatient(orgA, '2026-08-01T15:00:00Z');
    await registerAndAssign('WEBHOOK-CUFF', patientId, '2026-08-01T15:00:00Z');
    const res = await server.app.inject({
      method: 'POST',
      url: `/api/ingest/tenovi/${id}`,
      headers: { 'content-type': 'application/json', [DEFAULT_INGEST_AUTH_HEADER]: secret },
      payload: JSON.stringify({
        metric: 'blood_pressure',
        hwi_device_id: 'WEBHOOK-CUFF',
        value_1: 131,
        value_2: 85,
        timestamp: '2026-09-20T16:00:00Z',
        filter_params: { measurement_index: 0 },
      }),
    });
    expect(res.statusCode).toBe(409);
    expect((res.json() as { message: string }).message).toBe(BillingErrors.monthClosed);
    expect(await readingTimesOf(patientId)).toEqual([]);
    // Told like any other refusal: in the audit trail, with the source, and on its page.
    const record = await server.db.pool.query(
      `SELECT outcome, reason FROM audit_logs WHERE action = 'ingest.tenovi' AND resource_id = $1 ORDER BY id DESC LIMIT 1`,
      [id],
    );
    expect(record.rows[0]).toEqual({ outcome: 'failure', reason: BillingErrors.monthClosed });
    const rejections = await server.db.pool.query(`SELECT reason FROM ingestion_rejections WHERE source_id = $1`, [id]);
    expect(rejections.rows).toEqual([{ reason: BillingErrors.monthClosed }]);
  });
});
