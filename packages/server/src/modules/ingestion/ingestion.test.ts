import {
  AdminErrors,
  ApiErrors,
  DEFAULT_INGEST_AUTH_HEADER,
  INGEST_RATE_LIMIT_PER_MINUTE,
  INGESTION_REJECTIONS_KEPT,
  IngestionErrors,
  UNKNOWN_METRIC_KIND,
  type IngestionSource,
  type IngestionSourceWithSecret,
  type IngestResult,
  type UnmatchedReadingsResponse,
  type VitalPage,
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
import {
  assignDevice,
  buildDevice,
  buildPatient,
  buildUnmatchedReading,
  expireSource,
  legacySource,
  moveSource,
} from '../../../test/support/factories.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';

let server: TestServer;
let orgId: number;
let otherOrgId: number;
let admin: ApiClient;
let provider: ApiClient;
let source: IngestionSourceWithSecret;
let patientA: number;
let patientB: number;

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
const bp = (device: string, timestamp: string, systolic: number, diastolic: number, index = 0) => ({
  metric: 'blood_pressure',
  device_name: 'BPM Connect',
  hwi_device_id: device,
  sensor_code: 'BP',
  value_1: systolic,
  value_2: diastolic,
  timestamp,
  filter_params: { measurement_index: index },
});
const pulse = (device: string, timestamp: string, value: number, index = 0) => ({
  metric: 'pulse',
  hwi_device_id: device,
  value_1: value,
  value_2: null,
  timestamp,
  filter_params: { measurement_index: index },
});

/** A webhook call as the vendor makes it: no session, no CSRF header, the secret in the source's header. */
async function send(
  body: unknown,
  opts: { secret?: string | null; sourceId?: string; header?: string; raw?: string } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const secret = opts.secret === undefined ? source.secret : opts.secret;
  if (secret !== null) headers[opts.header ?? DEFAULT_INGEST_AUTH_HEADER] = secret;
  const res = await server.app.inject({
    method: 'POST',
    url: `/api/ingest/tenovi/${opts.sourceId ?? source.id}`,
    headers,
    payload: opts.raw ?? JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.json() as IngestResult & { message: string } };
}

const count = async (sql: string, params: unknown[] = []) =>
  (await server.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]!.n;
const readingsOf = async (patientId: number) =>
  (
    await server.db.pool.query(
      `SELECT systolic, diastolic, pulse, source, irregular_heartbeat FROM observations WHERE patient_id = $1 ORDER BY created_at`,
      [patientId],
    )
  ).rows;

beforeAll(async () => {
  server = await startTestServer();
  const org = await createOrganization(server);
  orgId = org.id;
  otherOrgId = (await createOrganization(server)).id;
  admin = await signInNewStaff(server, 'admin', org.id);
  provider = await signInNewStaff(server, 'provider', org.id);
  // Patients of a while ago: an assignment never reaches back before a patient was created.
  const db = server.db.pool;
  patientA = await buildPatient(db, {
    firstName: 'Ida',
    lastName: 'Ingest',
    organizationId: org.id,
    createdAt: { ago: '30 days' },
  });
  patientB = await buildPatient(db, {
    firstName: 'Moe',
    lastName: 'Moved',
    organizationId: org.id,
    createdAt: { ago: '30 days' },
  });
  // The assignment started a while ago, so readings of the last hours belong to patient A.
  await buildDevice(db, { deviceId: 'HWI-A', model: 'BPM', patientId: patientA, assignedFrom: { ago: '30 days' } });
  await buildDevice(db, { deviceId: 'HWI-B', model: 'BPM' });
  const res = await admin.post<IngestionSourceWithSecret>('/api/integrations', {
    name: 'Tenovi cloud',
    kind: 'tenovi',
    organization_id: orgId,
  });
  expect(res.status).toBe(201);
  source = res.body;
  // A source acts for one organization (migration 0950); choosing it is the sources' page's part.
  await moveSource(server.db.pool, source.id, org.id);
});
afterAll(async () => server?.close());

describe('ingestion sources', () => {
  it('shows the secret once, stores only its hash, and audits the creation', async () => {
    expect(source.secret).toMatch(/^rpms_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    expect(source).toMatchObject({
      name: 'Tenovi cloud',
      kind: 'tenovi',
      auth_header: DEFAULT_INGEST_AUTH_HEADER,
      revoked_at: null,
    });
    const list = await admin.get<IngestionSource[]>('/api/integrations');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(source.secret);
    const stored = await server.db.pool.query(`SELECT secret_hash FROM ingestion_sources WHERE id = $1`, [source.id]);
    expect(stored.rows[0].secret_hash.toString('hex')).not.toContain(Buffer.from(source.secret).toString('hex'));
    const audit = await server.db.pool.query(
      `SELECT outcome, details FROM audit_logs WHERE action = 'integration.create' AND resource_id = $1`,
      [source.id],
    );
    expect(audit.rows[0].outcome).toBe('success');
    expect(JSON.stringify(audit.rows)).not.toContain(source.secret);
    expect(server.logs()).not.toContain(source.secret);
  });

  it('refuses providers and unknown kinds', async () => {
    expect((await provider.get('/api/integrations')).status).toBe(403);
    expect(
      (await provider.post('/api/integrations', { name: 'x', kind: 'tenovi', organization_id: orgId })).status,
    ).toBe(403);
    expect((await admin.post('/api/integrations', { name: 'x', kind: 'hl7v2', organization_id: orgId })).status).toBe(
      400,
    );
    expect((await admin.post('/api/integrations', { name: ' ', kind: 'tenovi', organization_id: orgId })).status).toBe(
      400,
    );
  });

  it('rotates: the old secret stops working, the new one works; revoked sources answer 401', async () => {
    const created = (
      await admin.post<IngestionSourceWithSecret>('/api/integrations', {
        name: 'Rotating',
        kind: 'tenovi',
        auth_header: 'X-Clinic-Key',
        organization_id: orgId,
      })
    ).body;
    expect(created.auth_header).toBe('x-clinic-key');
    await moveSource(server.db.pool, created.id, orgId);
    const body = bp('HWI-B', minutesAgo(500), 120, 80);
    expect((await send(body, { sourceId: created.id, secret: created.secret, header: 'x-clinic-key' })).status).toBe(
      200,
    );
    const rotated = await admin.post<IngestionSourceWithSecret>(`/api/integrations/${created.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(created.secret);
    expect((await send(body, { sourceId: created.id, secret: created.secret, header: 'x-clinic-key' })).status).toBe(
      401,
    );
    expect(
      (await send(body, { sourceId: created.id, secret: rotated.body.secret, header: 'x-clinic-key' })).status,
    ).toBe(200);
    const revoked = await admin.request<IngestionSource>('DELETE', `/api/integrations/${created.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
    expect(
      (await send(body, { sourceId: created.id, secret: rotated.body.secret, header: 'x-clinic-key' })).status,
    ).toBe(401);
    expect((await admin.post(`/api/integrations/${created.id}/rotate`)).status).toBe(404);
    const actions = await server.db.pool.query(
      `SELECT action FROM audit_logs WHERE resource_id = $1 AND action LIKE 'integration.%' ORDER BY id`,
      [created.id],
    );
    expect(actions.rows.map((r) => r.action)).toEqual([
      'integration.create',
      'integration.rotate',
      'integration.revoke',
      'integration.rotate',
    ]);
  });
});

describe('POST /api/ingest/tenovi/{sourceId}', () => {
  it('merges blood pressure, pulse and irregular heartbeat of one measurement into one reading, and audits counts', async () => {
    const t = minutesAgo(60);
    const res = await send([
      bp('HWI-A', t, 142, 91, 3),
      pulse('HWI-A', t, 77, 3),
      {
        metric: 'irregular_heartbeat',
        hwi_device_id: 'HWI-A',
        value_1: 1,
        timestamp: t,
        filter_params: { measurement_index: 3 },
      },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: 3, stored: 1, duplicates: 0, unmatched: 0, battery_updates: 0, rejected: 0 });
    expect(await readingsOf(patientA)).toEqual([
      { systolic: 142, diastolic: 91, pulse: 77, source: 'HWI-A', irregular_heartbeat: true },
    ]);
    const audit = await server.db.pool.query(
      `SELECT outcome, details, user_id FROM audit_logs WHERE action = 'ingest.tenovi' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit.rows[0]).toMatchObject({
      outcome: 'success',
      user_id: null,
      details: { received: 3, stored: 1, patient_ids: [patientA] },
    });
    expect(JSON.stringify(audit.rows[0].details)).not.toContain('142');
  });

  it('accepts a single object, and a pulse sent apart from its blood pressure', async () => {
    const t = minutesAgo(50);
    expect((await send(pulse('HWI-A', t, 66))).body.received).toBe(1);
    expect((await send(bp('HWI-A', t, 118, 76))).body.stored).toBe(1);
    const t2 = minutesAgo(49);
    expect((await send(bp('HWI-A', t2, 119, 77))).body.stored).toBe(1);
    expect((await send(pulse('HWI-A', t2, 68))).status).toBe(200);
    const rows = await readingsOf(patientA);
    expect(rows.slice(-2).map((r) => r.pulse)).toEqual([66, 68]);
  });

  it('stores a retry once, also when two copies arrive at the same moment', async () => {
    const body = [bp('HWI-A', minutesAgo(40), 130, 85), pulse('HWI-A', minutesAgo(40), 70)];
    const first = await send(body);
    expect(first.body.stored).toBe(1);
    const retry = await send(body);
    expect(retry.status).toBe(200);
    // One reading (pressure and pulse merged), so one duplicate.
    expect(retry.body).toMatchObject({ received: 2, stored: 0, duplicates: 1 });
    const concurrent = [bp('HWI-A', minutesAgo(35), 131, 86)];
    const answers = await Promise.all(Array.from({ length: 4 }, () => send(concurrent)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.reduce((n, a) => n + a.body.stored, 0)).toBe(1);
    expect(await count(`observations WHERE systolic = 131 AND patient_id = $1`, [patientA])).toBe(1);
  });

  it('attributes a late reading to the patient who had the device when it was measured', async () => {
    const before = minutesAgo(20);
    // The device moves to patient B now; its reading from 20 minutes ago arrives afterwards.
    await assignDevice(server.db.pool, 'HWI-A', patientB);
    const res = await send([bp('HWI-A', before, 150, 95), bp('HWI-A', new Date().toISOString(), 151, 96)]);
    expect(res.body.stored).toBe(2);
    expect((await readingsOf(patientA)).some((r) => r.systolic === 150)).toBe(true);
    expect((await readingsOf(patientB)).map((r) => r.systolic)).toEqual([151]);
  });

  it('keeps readings of unknown or unassigned devices as unmatched, and attaches them on assignment', async () => {
    const t = minutesAgo(30);
    const res = await send([bp('NEW-CUFF', t, 125, 82), bp('HWI-B', minutesAgo(29), 126, 83)]);
    expect(res.body).toMatchObject({ stored: 0, unmatched: 2 });
    const list = await admin.get<UnmatchedReadingsResponse>('/api/unmatched-readings');
    expect(list.status).toBe(200);
    expect(list.body.items.map((r) => r.device_id).sort()).toEqual(expect.arrayContaining(['HWI-B', 'NEW-CUFF']));
    expect((await provider.get('/api/unmatched-readings')).status).toBe(403);
    // A retry of an unmatched reading is still stored once.
    expect((await send(bp('new-cuff ', t, 125, 82))).body).toMatchObject({ unmatched: 0, duplicates: 1 });
    expect(await count(`unmatched_readings WHERE device_identifier = 'NEW-CUFF'`)).toBe(1);

    const created = await admin.post<{ id: number }>('/api/devices', { device_id: 'new-cuff' });
    expect(created.status).toBe(201);
    await assignDevice(server.db.pool, created.body.id, patientB);
    await assignDevice(server.db.pool, 'HWI-B', patientB);
    expect(await count(`unmatched_readings WHERE systolic IS NOT NULL`)).toBe(0);
    const page = await provider.get<VitalPage>(`/api/patients/${patientB}/vitals`);
    expect(page.body.items.map((v) => v.source)).toEqual(expect.arrayContaining(['new-cuff', 'HWI-B']));
  });

  it('updates the battery level shown on the devices list', async () => {
    const res = await send({
      metric: 'battery_percentage',
      hwi_device_id: 'HWI-A',
      value_1: 64,
      timestamp: minutesAgo(1),
    });
    expect(res.body.battery_updates).toBe(1);
    const devices = await admin.get<{ device_id: string; battery_level: number | null }[]>('/api/devices');
    expect(devices.body.find((d) => d.device_id === 'HWI-A')?.battery_level).toBe(64);
    // An older report does not overwrite a newer one.
    await send({ metric: 'battery_percentage', hwi_device_id: 'HWI-A', value_1: 90, timestamp: minutesAgo(5) });
    expect(
      (await admin.get<{ device_id: string; battery_level: number | null }[]>('/api/devices')).body.find(
        (d) => d.device_id === 'HWI-A',
      )?.battery_level,
    ).toBe(64);
  });

  const cases: [string, unknown, string][] = [
    ['systolic too high', bp('HWI-A', minutesAgo(3), 301, 80), IngestionErrors.range('value_1', 40, 300, 'mmHg')],
    ['systolic too low', bp('HWI-A', minutesAgo(3), 39, 20), IngestionErrors.range('value_1', 40, 300, 'mmHg')],
    ['diastolic too high', bp('HWI-A', minutesAgo(3), 250, 201), IngestionErrors.range('value_2', 20, 200, 'mmHg')],
    ['diastolic too low', bp('HWI-A', minutesAgo(3), 120, 19), IngestionErrors.range('value_2', 20, 200, 'mmHg')],
    [
      'systolic not above diastolic',
      bp('HWI-A', minutesAgo(3), 90, 90),
      IngestionErrors.systolicAboveDiastolic('value_1', 'value_2'),
    ],
    ['pulse too low', pulse('HWI-A', minutesAgo(3), 19), IngestionErrors.range('value_1', 20, 300, 'beats per minute')],
    [
      'pulse too high',
      [bp('HWI-A', minutesAgo(3), 120, 80), pulse('HWI-A', minutesAgo(3), 301)],
      IngestionErrors.range('[1].value_1', 20, 300, 'beats per minute'),
    ],
    [
      'a time in the future',
      bp('HWI-A', new Date(Date.now() + 11 * 60_000).toISOString(), 120, 80),
      IngestionErrors.future('timestamp'),
    ],
    ['a time without zone', bp('HWI-A', '2026-01-01T10:00:00', 120, 80), IngestionErrors.timestamp('timestamp')],
    [
      'a missing device',
      { ...bp('HWI-A', minutesAgo(3), 120, 80), hwi_device_id: undefined },
      IngestionErrors.required('hwi_device_id'),
    ],
    [
      'a metric that is not a name',
      { ...bp('HWI-A', minutesAgo(3), 120, 80), metric: 'peak flow; 1' },
      IngestionErrors.metric('metric'),
    ],
    [
      'a non-numeric value',
      bp('HWI-A', minutesAgo(3), 'high' as unknown as number, 80),
      IngestionErrors.notNumber('value_1'),
    ],
    ['a string body', 'hello', IngestionErrors.bodyShape],
    ['an empty array', [], IngestionErrors.emptyBatch],
  ];
  it.each(cases)(
    'refuses %s with 400 naming field and rule, stores nothing, records the rejection',
    async (_name, body, message) => {
      const before = await count('observations');
      const unmatchedBefore = await count('unmatched_readings');
      const res = await send(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
      expect(await count('observations')).toBe(before);
      expect(await count('unmatched_readings')).toBe(unmatchedBefore);
      const list = await admin.get<IngestionSource[]>('/api/integrations');
      expect(list.body.find((s) => s.id === source.id)?.recent_rejections[0]?.reason).toBe(message);
    },
  );

  // "A metric the portal does not know is kept as unmatched, never dropped" (Measurements as data):
  // it used to be refused with 400.
  it('keeps an unknown metric as unmatched under its own name instead of refusing it', async () => {
    const before = await count('observations');
    const at = minutesAgo(3);
    const res = await send({ metric: 'peak_flow', hwi_device_id: 'HWI-A', value_1: '410', value_2: '', timestamp: at });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: 1, stored: 0, unmatched: 1 });
    expect(await count('observations')).toBe(before);
    const kept = await server.db.pool.query(
      `SELECT kind, metric, components FROM unmatched_readings WHERE device_identifier = 'HWI-A' AND measured_at = $1`,
      [at],
    );
    expect(kept.rows).toEqual([{ kind: UNKNOWN_METRIC_KIND, metric: 'peak_flow', components: { value_1: 410 } }]);
  });

  it('stores nothing of a batch when one measurement is bad, and keeps only the newest rejections', async () => {
    const before = await count('observations');
    const res = await send([bp('HWI-A', minutesAgo(4), 120, 80), bp('HWI-A', minutesAgo(4), 400, 80, 1)]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(IngestionErrors.range('[1].value_1', 40, 300, 'mmHg'));
    expect(await count('observations')).toBe(before);
    for (let i = 0; i < INGESTION_REJECTIONS_KEPT + 3; i++) await send(bp('X', minutesAgo(4), 10, 5));
    expect(await count('ingestion_rejections WHERE source_id = $1', [source.id])).toBe(INGESTION_REJECTIONS_KEPT);
    const rejection = (await admin.get<IngestionSource[]>('/api/integrations')).body.find((s) => s.id === source.id)!
      .recent_rejections[0]!;
    expect(rejection).toMatchObject({ device_id: 'X' });
  });

  it('answers 401 for a wrong, missing or unknown-source secret, stores nothing, and audits it', async () => {
    const body = bp('HWI-A', minutesAgo(6), 120, 80);
    const before = await count('observations');
    expect((await send(body, { secret: null })).status).toBe(401);
    expect((await send(body, { secret: source.secret.slice(0, -2) + 'xx' })).status).toBe(401);
    expect((await send(body, { sourceId: '00000000-0000-4000-8000-000000000000' })).status).toBe(401);
    // A browser session is no substitute for the source's secret.
    expect((await admin.request('POST', `/api/ingest/tenovi/${source.id}`, { body })).status).toBe(401);
    expect(await count('observations')).toBe(before);
    const reasons = await server.db.pool.query(
      `SELECT reason FROM audit_logs WHERE action = 'ingest.tenovi' AND outcome = 'failure' AND reason NOT LIKE '%must%' AND reason NOT LIKE '%required%' ORDER BY id DESC LIMIT 4`,
    );
    expect(reasons.rows.map((r) => r.reason).sort()).toEqual([
      'no secret',
      'no secret',
      'unknown source',
      'wrong secret',
    ]);
    expect((await apiClient(server).get('/api/integrations')).status).toBe(401);
  });

  it('answers 413 for a body over 1 MB, 400 for malformed JSON', async () => {
    const big = JSON.stringify(Array.from({ length: 9000 }, (_, i) => bp('HWI-A', minutesAgo(7), 120, 80, i)));
    expect(big.length).toBeGreaterThan(1024 * 1024);
    expect((await send(null, { raw: big })).status).toBe(413);
    expect((await send(null, { raw: '{"metric": ' })).status).toBe(400);
  });

  it('limits calls per source and address, answering the portal 429', async () => {
    const sender = '192.0.2.44';
    // Refused before the body is read (415), each still counts against the source's allowance.
    const call = (sourceId: string, remoteAddress = sender) =>
      server.app.inject({
        method: 'POST',
        url: `/api/ingest/tenovi/${sourceId}`,
        headers: { 'content-type': 'application/xml', [DEFAULT_INGEST_AUTH_HEADER]: source.secret },
        payload: '<m/>',
        remoteAddress,
      });
    const statuses = new Set<number>();
    for (let sent = 0; sent < INGEST_RATE_LIMIT_PER_MINUTE; sent += 500) {
      const batch = await Promise.all(Array.from({ length: 500 }, () => call(source.id)));
      for (const r of batch) statuses.add(r.statusCode);
    }
    expect(statuses).toEqual(new Set([415]));
    const limited = await call(source.id);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json()).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
      message: ApiErrors.rateLimited,
    });
    // Another source from that address, and the same source from another address, are counted apart.
    expect((await call('00000000-0000-4000-8000-000000000000')).statusCode).toBe(415);
    expect((await call(source.id, '192.0.2.45')).statusCode).toBe(415);
  }, 180_000);

  it('does not treat a device id of another case or with spaces as another device', async () => {
    const res = await send(bp(' hwi-a ', minutesAgo(8), 122, 81));
    expect(res.body.stored).toBe(1);
    expect(AdminErrors.deviceExists).toBeTruthy();
  });
});

describe('sources belong to one organization', () => {
  const lastAudit = (action: string, resourceId: string | null = null) => lastAuditOf(server, action, resourceId);

  it('a source is made for one existing organization, named in its audit record', async () => {
    expect(source.organization_id).toBe(orgId);
    expect(source.expires_at).toBeNull();
    expect((await lastAudit('integration.create', source.id)).details).toMatchObject({ organization_id: orgId });
    expect((await admin.post('/api/integrations', { name: 'No org', kind: 'tenovi' })).status).toBe(400);
    const unknown = await admin.post<{ message: string }>('/api/integrations', {
      name: 'Nowhere',
      kind: 'tenovi',
      organization_id: 999_999,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(IngestionErrors.sourceOrganizationUnknown);
    expect(await lastAudit('integration.create')).toMatchObject({ outcome: 'failure', reason: 'unknown organization' });
    // Expiry is for read keys: a device cloud's key has no patient data to hand out.
    const expiring = await admin.post<{ message: string }>('/api/integrations', {
      name: 'Expiring cuffs',
      kind: 'tenovi',
      organization_id: orgId,
      expires_in_days: 30,
    });
    expect(expiring.status).toBe(400);
    expect(expiring.body.message).toBe(IngestionErrors.readKeyExpiry);
  });

  it('a secret header may not be named cookie, authorization, host or any standard header', async () => {
    for (const header of [
      'cookie',
      'Cookie',
      'authorization',
      'host',
      'x-forwarded-for',
      'X-Request-Id',
      'x-',
      'X-' + 'a'.repeat(63),
    ]) {
      const res = await admin.post('/api/integrations', {
        name: `Header ${header}`,
        kind: 'tenovi',
        organization_id: orgId,
        auth_header: header,
      });
      expect(res.status, header).toBe(400);
    }
    const custom = await admin.post<IngestionSourceWithSecret>('/api/integrations', {
      name: 'Custom header',
      kind: 'tenovi',
      organization_id: orgId,
      auth_header: 'X-Cuff-Key-2',
    });
    expect(custom.status).toBe(201);
    // The database holds new sources to the same rule, whatever path inserts them.
    await expect(
      server.db.ownerPool.query(
        `INSERT INTO ingestion_sources (name, kind, auth_header, secret_hash, organization_id)
         VALUES ('Sneaky', 'tenovi', 'cookie', decode(repeat('00', 32), 'hex'), $1)`,
        [orgId],
      ),
    ).rejects.toThrow(/ingestion_sources_auth_header_custom/);
  });

  it('a source without an organization is refused until an admin assigns one, once', async () => {
    const made = (
      await admin.post<IngestionSourceWithSecret>('/api/integrations', {
        name: 'Made before organizations',
        kind: 'tenovi',
        organization_id: orgId,
      })
    ).body;
    // As migration 0950 leaves a source made before, when there were several organizations.
    await legacySource(server.db.ownerPool, made.id);
    const body = bp('HWI-A', minutesAgo(700), 125, 82);
    const refused = await send(body, { sourceId: made.id, secret: made.secret });
    expect(refused.status).toBe(401);
    expect(await lastAudit('ingest.tenovi', made.id)).toMatchObject({
      outcome: 'failure',
      reason: 'source without organization',
    });
    const listed = (await admin.get<IngestionSource[]>('/api/integrations')).body.find((s) => s.id === made.id)!;
    expect(listed.organization_id).toBeNull();

    expect(
      (await provider.request('PUT', `/api/integrations/${made.id}/organization`, { body: { organization_id: orgId } }))
        .status,
    ).toBe(403);
    const unknown = await admin.request('PUT', `/api/integrations/${made.id}/organization`, {
      body: { organization_id: 999_999 },
    });
    expect(unknown.status).toBe(400);
    const assigned = await admin.request<IngestionSource>('PUT', `/api/integrations/${made.id}/organization`, {
      body: { organization_id: orgId },
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body.organization_id).toBe(orgId);
    expect(await lastAudit('integration.assign_organization', made.id)).toMatchObject({
      outcome: 'success',
      details: { organization_id: orgId },
    });
    expect((await send(body, { sourceId: made.id, secret: made.secret })).status).toBe(200);
    // Moving a key to another organization's patients is a new source, not a reassignment.
    const moved = await admin.request<{ message: string }>('PUT', `/api/integrations/${made.id}/organization`, {
      body: { organization_id: otherOrgId },
    });
    expect(moved.status).toBe(409);
    expect(moved.body.message).toBe(IngestionErrors.sourceOrganizationSet);
    expect(
      (
        await admin.request('PUT', `/api/integrations/00000000-0000-4000-8000-000000000000/organization`, {
          body: { organization_id: orgId },
        })
      ).status,
    ).toBe(404);
  });

  it('assigning an organization to an old source whose secret header is no longer allowed is a clear 409, not a 500', async () => {
    const made = (
      await admin.post<IngestionSourceWithSecret>('/api/integrations', {
        name: 'Old cookie header',
        kind: 'tenovi',
        organization_id: orgId,
      })
    ).body;
    // As a source made before the x- rule and before organizations: the owner repairs around the checks.
    await legacySource(server.db.ownerPool, made.id, { authHeader: 'cookie' });
    const refused = await admin.request<{ message: string }>('PUT', `/api/integrations/${made.id}/organization`, {
      body: { organization_id: orgId },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(IngestionErrors.sourceHeaderRetired);
    expect(await lastAudit('integration.assign_organization', made.id)).toMatchObject({
      outcome: 'failure',
      reason: 'secret header not allowed',
    });
  });

  it('an expired source is refused, and audited with its id and why', async () => {
    const made = (
      await admin.post<IngestionSourceWithSecret>('/api/integrations', {
        name: 'Expiring',
        kind: 'tenovi',
        organization_id: orgId,
      })
    ).body;
    await expireSource(server.db.ownerPool, made.id);
    expect((await send(bp('HWI-A', minutesAgo(710), 126, 82), { sourceId: made.id, secret: made.secret })).status).toBe(
      401,
    );
    expect(await lastAudit('ingest.tenovi', made.id)).toMatchObject({ outcome: 'failure', reason: 'source expired' });
  });

  it("the webhook's audit record names the organization the source writes for", async () => {
    const res = await send(bp('HWI-A', minutesAgo(720), 127, 83));
    expect(res.status).toBe(200);
    expect((await lastAudit('ingest.tenovi', source.id)).details).toMatchObject({ organization_id: orgId });
  });

  it('the runtime role cannot replace a source secret hash, nor insert a source, and rotation still works', async () => {
    const made = (
      await admin.post<IngestionSourceWithSecret>('/api/integrations', {
        name: 'Guarded',
        kind: 'tenovi',
        organization_id: orgId,
      })
    ).body;
    const hash = "decode(repeat('ab', 32), 'hex')";
    await expect(
      server.db.pool.query(`UPDATE ingestion_sources SET secret_hash = ${hash} WHERE id = $1`, [made.id]),
    ).rejects.toThrow(/permission denied/);
    await expect(
      server.db.pool.query(
        `INSERT INTO ingestion_sources (name, kind, auth_header, secret_hash, organization_id)
         VALUES ('Planted', 'tenovi', 'x-planted', ${hash}, $1)`,
        [orgId],
      ),
    ).rejects.toThrow(/permission denied/);
    // The function checks what it is given: no short hash, no revoked source.
    await expect(
      server.db.pool.query(`SELECT rpm_rotate_ingestion_source($1, '\\x00'::bytea, 90)`, [made.id]),
    ).rejects.toThrow(/32-byte/);
    const rotated = await admin.post<IngestionSourceWithSecret>(`/api/integrations/${made.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(
      (await send(bp('HWI-A', minutesAgo(730), 128, 84), { sourceId: made.id, secret: rotated.body.secret })).status,
    ).toBe(200);
  });

  it("a reading another organization's source left unmatched never moves to this organization's patient", async () => {
    const cloudOfB = (
      await admin.post<IngestionSourceWithSecret>('/api/integrations', {
        name: 'Cloud of B',
        kind: 'tenovi',
        organization_id: otherOrgId,
      })
    ).body;
    const db = server.db.pool;
    const unmatched = { deviceIdentifier: 'HWI-ORG', pulse: null };
    await buildUnmatchedReading(db, {
      ...unmatched,
      measuredAt: { ago: '2 hours' },
      measurementIndex: 1,
      systolic: 151,
      diastolic: 91,
      sourceId: cloudOfB.id,
    });
    await buildUnmatchedReading(db, {
      ...unmatched,
      measuredAt: { ago: '1 hour' },
      measurementIndex: 2,
      systolic: 121,
      diastolic: 79,
      sourceId: source.id,
    });
    // Giving the device to a patient takes along what waited for it: only its own organization's.
    await buildDevice(db, { deviceId: 'HWI-ORG', model: 'BPM', patientId: patientA });
    const moved = await server.db.pool.query(
      `SELECT v.systolic FROM observations v JOIN devices d ON d.id = v.device_id WHERE d.device_id = 'HWI-ORG'`,
    );
    expect(moved.rows).toEqual([{ systolic: 121 }]);
    expect(
      await count(`unmatched_readings WHERE device_identifier = 'HWI-ORG' AND source_id = $1`, [cloudOfB.id]),
    ).toBe(1);
  });

  it("another organization's device cloud cannot add a pulse to this organization's reading nor change its battery", async () => {
    const cloudOfB = (
      await admin.post<IngestionSourceWithSecret>('/api/integrations', {
        name: 'Other cloud',
        kind: 'tenovi',
        organization_id: otherOrgId,
      })
    ).body;
    const t = minutesAgo(800);
    expect((await send(bp('HWI-A', t, 133, 83))).body.stored).toBe(1);
    const battery = async () =>
      (await server.db.pool.query(`SELECT battery_level FROM devices WHERE device_id = 'HWI-A'`)).rows[0].battery_level;
    const before = await battery();
    const res = await send(
      [
        pulse('HWI-A', t, 99),
        { metric: 'battery_percentage', hwi_device_id: 'HWI-A', value_1: 3, timestamp: minutesAgo(0) },
      ],
      { sourceId: cloudOfB.id, secret: cloudOfB.secret },
    );
    expect(res.status).toBe(200);
    expect(res.body.battery_updates).toBe(0);
    expect(await battery()).toBe(before);
    const reading = await server.db.pool.query(
      `SELECT pulse FROM observations WHERE patient_id = $1 AND created_at = $2 AND kind = 'blood_pressure'`,
      [patientA, t],
    );
    expect(reading.rows).toEqual([{ pulse: null }]);
    const record = await server.db.pool.query(
      `SELECT details FROM audit_logs WHERE action = 'ingest.tenovi' AND resource_id = $1 ORDER BY id DESC LIMIT 1`,
      [cloudOfB.id],
    );
    // The pulse waits, as the other organization's own, for a blood pressure that never comes from it.
    expect(record.rows[0].details).toMatchObject({
      organization_id: otherOrgId,
      battery_updates: 0,
      pulses_waiting: 1,
    });
  });
});
