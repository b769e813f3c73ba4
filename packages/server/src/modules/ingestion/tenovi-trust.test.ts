/**
 * The Tenovi webhook as a door for machines: strict input, each reading once, bounded work per
 * call, bounded unmatched readings, and writes only within the source's organization.
 */
import {
  DEFAULT_INGEST_AUTH_HEADER,
  INGEST_MAX_MEASUREMENTS,
  IngestionErrors,
  LATE_READING_HOURS,
  ReadingLimits,
  UNMATCHED_RETENTION_CRON,
  UNMATCHED_RETENTION_DAYS,
  type IngestionSource,
  type IngestionSourceWithSecret,
  type IngestResult,
} from '@rpm/contracts';
import pg, { type PoolClient } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrganization,
  createStaff,
  signInNewStaff,
  startTestServer,
  type ApiClient,
  type TestServer,
} from '../../../test/support/http.ts';
import { claimCriticalNotifications } from '../alerts/alerts.repository.ts';
import { UNMATCHED_RETENTION_QUEUE } from './ingestion.jobs.ts';
import { purgeExpiredUnmatched } from './unmatched.service.ts';
import {
  assignDevice,
  buildDevice,
  buildPatient,
  setUnmatchedReceivedAt,
  unassignDevice,
} from '../../../test/support/factories.ts';

/** Small, so that the quota is reached in a few calls. */
const QUOTA = 6;

let server: TestServer;
let admin: ApiClient;
let orgA: number;
let orgB: number;
let source: IngestionSourceWithSecret;
let patientA: number;

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const minutesAgo = (m: number) => ago(m * 60_000);
const daysAgo = (d: number) => ago(d * 86_400_000);
const bp = (device: string, timestamp: string, systolic: unknown, diastolic: unknown, index = 0) => ({
  metric: 'blood_pressure',
  hwi_device_id: device,
  value_1: systolic,
  value_2: diastolic,
  timestamp,
  filter_params: { measurement_index: index },
});
const pulse = (device: string, timestamp: string, value: unknown, index = 0) => ({
  metric: 'pulse',
  hwi_device_id: device,
  value_1: value,
  timestamp,
  filter_params: { measurement_index: index },
});
const irregular = (device: string, timestamp: string, value: unknown, index = 0) => ({
  metric: 'irregular_heartbeat',
  hwi_device_id: device,
  value_1: value,
  timestamp,
  filter_params: { measurement_index: index },
});

async function send(body: unknown, to: IngestionSourceWithSecret = source) {
  const res = await server.app.inject({
    method: 'POST',
    url: `/api/ingest/tenovi/${to.id}`,
    headers: { 'content-type': 'application/json', [DEFAULT_INGEST_AUTH_HEADER]: to.secret },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.json() as IngestResult & { message: string } };
}

const count = async (from: string, params: unknown[] = []) =>
  (await server.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${from}`, params)).rows[0]!.n;

/** A Tenovi source of `organizationId`. */
async function newSource(organizationId: number, name: string): Promise<IngestionSourceWithSecret> {
  const res = await admin.post<IngestionSourceWithSecret>('/api/integrations', {
    name,
    kind: 'tenovi',
    organization_id: organizationId,
  });
  expect(res.status).toBe(201);
  return res.body;
}

/**
 * A patient of the organization with a device assigned since 60 days, and a primary provider;
 * enrolled in RPM and active, as the alert rules need.
 */
async function patientWithDevice(organizationId: number, device: string): Promise<number> {
  const provider = await createStaff(server, { role: 'provider', organizationId });
  const id = await buildPatient(server.db.pool, {
    firstName: 'Tess',
    lastName: 'Trust',
    organizationId,
    primaryProviderId: provider.id,
    enrolledRpm: true,
    enrollmentStatus: 'Active',
  });
  await buildDevice(server.db.pool, {
    deviceId: device,
    model: 'BPM',
    patientId: id,
    assignedFrom: { ago: '60 days' },
  });
  return id;
}

/**
 * Counts the statements sent on connections taken from the pool (transactions) while `run`
 * runs. Pool.query's own connections (callback form) are left alone.
 */
async function statementsInTransactions(run: () => Promise<void>): Promise<number> {
  const pool = server.db.pool;
  const connect = pool.connect;
  const take = (): Promise<PoolClient> => (connect as () => Promise<PoolClient>).call(pool);
  let statements = 0;
  const counting = async (...args: unknown[]) => {
    if (args.length > 0) return (connect as (...a: unknown[]) => unknown).apply(pool, args);
    const client = await take();
    const { query, release } = client;
    client.query = ((...a: unknown[]) => {
      statements++;
      return (query as (...q: unknown[]) => unknown).apply(client, a);
    }) as typeof query;
    client.release = (err?: Error | boolean) => {
      client.query = query;
      client.release = release;
      release.call(client, err);
    };
    return client;
  };
  pool.connect = counting as typeof pool.connect;
  try {
    await run();
  } finally {
    pool.connect = connect;
  }
  return statements;
}

beforeAll(async () => {
  server = await startTestServer({ UNMATCHED_QUOTA_PER_SOURCE: String(QUOTA) });
  orgA = (await createOrganization(server)).id;
  orgB = (await createOrganization(server)).id;
  admin = await signInNewStaff(server, 'admin', orgA);
  source = await newSource(orgA, 'Tenovi A');
  patientA = await patientWithDevice(orgA, 'TRUST-A');
});
afterAll(async () => server?.close());

describe('strict input', () => {
  const refused: [string, unknown, string][] = [
    ['a hex number "0x80"', bp('TRUST-A', minutesAgo(5), '0x80', 80), IngestionErrors.notNumber('value_1')],
    ['an exponent " 1.2e2 "', bp('TRUST-A', minutesAgo(5), ' 1.2e2 ', 80), IngestionErrors.notNumber('value_1')],
    ['an exponent "1.2e2"', bp('TRUST-A', minutesAgo(5), 130, '1.2e1'), IngestionErrors.notNumber('value_2')],
    ['a padded " 120"', bp('TRUST-A', minutesAgo(5), ' 120', 80), IngestionErrors.notNumber('value_1')],
    ['a boolean pressure', bp('TRUST-A', minutesAgo(5), true, 80), IngestionErrors.notNumber('value_1')],
    [
      'a day that does not exist (2026-09-31)',
      bp('TRUST-A', '2026-09-31T10:00:00Z', 120, 80),
      IngestionErrors.calendar('timestamp'),
    ],
    ['hour 24', bp('TRUST-A', '2026-01-01T24:00:00Z', 120, 80), IngestionErrors.calendar('timestamp')],
    [
      '29 February of a common year',
      bp('TRUST-A', '2025-02-29T10:00:00Z', 120, 80),
      IngestionErrors.calendar('timestamp'),
    ],
    ['year 0001', bp('TRUST-A', '0001-01-01T00:00:00Z', 120, 80), IngestionErrors.beforeEarliest('timestamp')],
    ['year 1900', bp('TRUST-A', '1900-06-01T00:00:00Z', 120, 80), IngestionErrors.beforeEarliest('timestamp')],
    [
      'a reading older than the limit',
      bp('TRUST-A', daysAgo(ReadingLimits.maxAgeDays + 1), 120, 80),
      IngestionErrors.tooOld('timestamp', ReadingLimits.maxAgeDays),
    ],
    ['an irregular flag of 2', irregular('TRUST-A', minutesAgo(5), 2), IngestionErrors.irregular('value_1')],
    ['an irregular flag of "yes"', irregular('TRUST-A', minutesAgo(5), 'yes'), IngestionErrors.irregular('value_1')],
    ['an irregular flag of -1', irregular('TRUST-A', minutesAgo(5), -1), IngestionErrors.irregular('value_1')],
    [
      'a string index',
      { ...bp('TRUST-A', minutesAgo(5), 120, 80), filter_params: { measurement_index: '3' } },
      IngestionErrors.notInteger('filter_params.measurement_index'),
    ],
    [
      'a device id as a number',
      { ...bp('TRUST-A', minutesAgo(5), 120, 80), hwi_device_id: 12 },
      IngestionErrors.required('hwi_device_id'),
    ],
  ];
  it.each(refused)('refuses %s with 400 naming the rule, and stores nothing', async (_name, body, message) => {
    const before = [await count('observations'), await count('unmatched_readings')];
    const res = await send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect([await count('observations'), await count('unmatched_readings')]).toEqual(before);
  });

  it('accepts strictly decimal strings, a 41-day-old reading, and 0/1/true/false irregular flags', async () => {
    const t = daysAgo(41);
    const res = await send([bp('TRUST-A', t, '128', '82.0'), irregular('TRUST-A', t, false)]);
    expect(res.status).toBe(200);
    expect(res.body.stored).toBe(1);
    const stored = await server.db.pool.query(
      `SELECT systolic, diastolic, irregular_heartbeat FROM observations WHERE patient_id = $1 AND created_at = $2`,
      [patientA, t],
    );
    expect(stored.rows).toEqual([{ systolic: 128, diastolic: 82, irregular_heartbeat: false }]);
    for (const flag of [0, 1, true, '0', '1'])
      expect((await send(irregular('TRUST-A', minutesAgo(70), flag))).status).toBe(200);
    // Tenovi's records type values as strings: a pulse's unused value_2 may come empty.
    expect((await send({ ...pulse('TRUST-A', minutesAgo(71), '64'), value_2: '' })).status).toBe(200);
    expect((await send(bp('TRUST-A', minutesAgo(72), '120', ''))).body.message).toBe(
      IngestionErrors.required('value_2'),
    );
    expect((await send(irregular('TRUST-A', minutesAgo(73), ''))).body.message).toBe(
      IngestionErrors.irregular('value_1'),
    );
  });

  it('reads the age limit from READING_MAX_AGE_DAYS', async () => {
    const strict = await startTestServer({ READING_MAX_AGE_DAYS: '7' });
    try {
      const org = await createOrganization(strict);
      const a = await signInNewStaff(strict, 'admin', org.id);
      const s = (
        await a.post<IngestionSourceWithSecret>('/api/integrations', {
          name: 'S',
          kind: 'tenovi',
          organization_id: org.id,
        })
      ).body;
      const res = await strict.app.inject({
        method: 'POST',
        url: `/api/ingest/tenovi/${s.id}`,
        headers: { 'content-type': 'application/json', [DEFAULT_INGEST_AUTH_HEADER]: s.secret },
        payload: JSON.stringify(bp('X', daysAgo(8), 120, 80)),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(IngestionErrors.tooOld('timestamp', 7));
    } finally {
      await strict.close();
    }
  });
});

describe('exactly once', () => {
  it('the same reading with indexes 0..4 is stored once', async () => {
    const t = minutesAgo(30);
    const copies = [0, 1, 2, 3, 4].flatMap((i) => [bp('TRUST-A', t, 133, 84, i), pulse('TRUST-A', t, 71, 4 - i)]);
    const first = await send(copies);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ received: 10, stored: 1 });
    for (const i of [0, 1, 2, 3, 4]) expect((await send(bp('TRUST-A', t, 133, 84, i))).body.stored).toBe(0);
    const rows = await server.db.pool.query(
      `SELECT systolic, pulse FROM observations WHERE patient_id = $1 AND created_at = $2`,
      [patientA, t],
    );
    expect(rows.rows).toEqual([{ systolic: 133, pulse: 71 }]);
  });
});

describe('bounded', () => {
  it(`answers 413 above ${INGEST_MAX_MEASUREMENTS} measurements, stores nothing and records why`, async () => {
    const over = Array.from({ length: INGEST_MAX_MEASUREMENTS + 1 }, (_, i) =>
      pulse('TRUST-A', minutesAgo(200 + i), 70),
    );
    const before = await count('unmatched_readings');
    const res = await send(over);
    expect(res.status).toBe(413);
    expect(res.body.message).toBe(IngestionErrors.tooMany);
    expect(await count('unmatched_readings')).toBe(before);
    const list = await admin.get<IngestionSource[]>('/api/integrations');
    expect(list.body.find((s) => s.id === source.id)?.recent_rejections[0]?.reason).toBe(IngestionErrors.tooMany);
  });

  it('a 1 MiB body of 11,500 lone pulses is refused with 413 before any reading is stored', async () => {
    // The review's body: 11,500 lone pulses just under the 1 MiB body limit, which one by one
    // held a database connection for 12.5 s. Now the count refuses it before any is read.
    // Short items (a two-letter device, a time without milliseconds) fit 11,500 into 1 MiB.
    const pulses = Array.from({ length: 11_500 }, (_, i) => ({
      metric: 'pulse',
      hwi_device_id: 'P1',
      value_1: 70,
      timestamp: `${minutesAgo(60 + i).slice(0, 19)}Z`,
    }));
    const bytes = Buffer.byteLength(JSON.stringify(pulses));
    expect(bytes).toBeGreaterThan(900 * 1024);
    expect(bytes).toBeLessThanOrEqual(1024 * 1024);
    const before = [await count('observations'), await count('unmatched_readings')];
    let res: Awaited<ReturnType<typeof send>> | undefined;
    const statements = await statementsInTransactions(async () => {
      res = await send(pulses);
    });
    expect(res?.status).toBe(413);
    expect(res?.body.message).toBe(IngestionErrors.tooMany);
    expect([await count('observations'), await count('unmatched_readings')]).toEqual(before);
    // At most the refusal's record: no statement per pulse.
    expect(statements).toBeLessThan(10);
  });

  it(`5,000 unmatched readings in one request are refused with 413, and ${INGEST_MAX_MEASUREMENTS} a request stop at the source quota`, async () => {
    const u = await newSource(orgA, 'Five thousand');
    const t = minutesAgo(70);
    const unknown = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => bp(`${prefix}-${i}`, t, 120 + (i % 30), 80));
    const before = await count('unmatched_readings');
    const all = await send(unknown(5_000, 'NOBODY-5K'), u);
    expect(all.status).toBe(413);
    expect(all.body.message).toBe(IngestionErrors.tooMany);
    expect(await count('unmatched_readings')).toBe(before);
    // The most one request may carry, all for unknown devices: only the quota is kept.
    const most = await send(unknown(INGEST_MAX_MEASUREMENTS, 'NOBODY-500'), u);
    expect(most.status).toBe(200);
    expect(most.body).toMatchObject({ unmatched: QUOTA, rejected: INGEST_MAX_MEASUREMENTS - QUOTA });
    expect(await count(`unmatched_readings WHERE source_id = $1`, [u.id])).toBe(QUOTA);
  });

  it(`stores ${INGEST_MAX_MEASUREMENTS} lone pulses and battery levels of one call with one statement each`, async () => {
    // The pulses complete readings stored earlier: one UPDATE for all of them.
    const times = Array.from({ length: INGEST_MAX_MEASUREMENTS / 2 }, (_, i) => minutesAgo(1000 + i));
    expect((await send(times.map((t) => bp('TRUST-A', t, 120, 80)))).body.stored).toBe(times.length);
    let res: Awaited<ReturnType<typeof send>> | undefined;
    const statements = await statementsInTransactions(async () => {
      res = await send([
        ...times.map((t) => pulse('TRUST-A', t, 66)),
        ...times.map((t) => ({ metric: 'battery_percentage', hwi_device_id: 'TRUST-A', value_1: 50, timestamp: t })),
      ]);
    });
    expect(res?.status).toBe(200);
    expect(res?.body).toMatchObject({
      received: INGEST_MAX_MEASUREMENTS,
      duplicates: times.length,
      battery_updates: 1,
    });
    expect(await count(`observations WHERE patient_id = $1 AND pulse = 66`, [patientA])).toBe(times.length);
    // One by one it was two statements per pulse and one per battery level (750 here); now the
    // transaction is a handful (BEGIN, pulses, batteries, audit, COMMIT), with room for the sealer's.
    expect(statements).toBeGreaterThanOrEqual(3);
    expect(statements).toBeLessThan(20);
  });

  it('stores and checks the alert rules of 100 blood pressures of an active patient in a handful of statements', async () => {
    const times = Array.from({ length: 100 }, (_, i) => minutesAgo(3000 + i * 5));
    let res: Awaited<ReturnType<typeof send>> | undefined;
    // Counted where every statement leaves, whatever sends it (Kysely keeps its own reference
    // to a client's query method): simple queries and extended-protocol executions.
    const connection = pg.Connection.prototype as unknown as Record<'query' | 'execute', (...a: unknown[]) => unknown>;
    const { query, execute } = connection;
    let statements = 0;
    connection.query = function (this: unknown, ...a: unknown[]) {
      statements++;
      return query.apply(this, a);
    };
    connection.execute = function (this: unknown, ...a: unknown[]) {
      statements++;
      return execute.apply(this, a);
    };
    try {
      res = await send(times.map((t) => bp('TRUST-A', t, 121, 79)));
    } finally {
      Object.assign(connection, { query, execute });
    }
    expect(res?.status).toBe(200);
    expect(res?.body).toMatchObject({ received: 100, stored: 100 });
    // BEGIN with the source (one simple query), store (with the audit record), the readings to
    // check with their windows, COMMIT, with room for the sealer's and the job queue's: each
    // reading's window was once a statement of its own (over 100 here).
    expect(statements).toBeGreaterThanOrEqual(4);
    expect(statements).toBeLessThan(40);
  });
});

describe('planning', () => {
  it('plans the storing statement and its alert check once per connection, and leaves the connection as it found it', async () => {
    // Looked at on each connection a webhook's transaction used, just before it goes back to the
    // pool: prepared statements and settings belong to the connection.
    const pool = server.db.pool;
    const connect = pool.connect;
    const seen: { name: string; generic_plans: number; custom_plans: number; mode: string }[] = [];
    pool.connect = (async (...args: unknown[]) => {
      if (args.length > 0) return (connect as (...a: unknown[]) => unknown).apply(pool, args);
      const client = await (connect as () => Promise<PoolClient>).call(pool);
      const { release } = client;
      client.release = (err?: Error | boolean) => {
        client.release = release;
        void client
          .query<{ name: string; generic_plans: number; custom_plans: number; mode: string }>(
            `SELECT name, generic_plans::int, custom_plans::int, current_setting('plan_cache_mode') AS mode
               FROM pg_prepared_statements
              WHERE name IN ('ingest_store_readings_audited', 'alerts_readings_to_check_v3')`,
          )
          .then(({ rows }) => seen.push(...rows))
          .finally(() => release.call(client, err));
      };
      return client;
    }) as typeof pool.connect;
    try {
      // More calls than PostgreSQL's five custom plans before it would weigh a generic one.
      for (let i = 0; i < 8; i++) expect((await send([bp('TRUST-A', minutesAgo(4000 + i), 124, 81)])).status).toBe(200);
    } finally {
      pool.connect = connect;
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.map((s) => s.name)).toContain('ingest_store_readings_audited');
    expect(seen.map((s) => s.name)).toContain('alerts_readings_to_check_v3');
    for (const s of seen) {
      expect(s.custom_plans).toBe(0);
      expect(s.generic_plans).toBeGreaterThan(0);
      // The generic planning was the transaction's own (SET LOCAL), not the connection's.
      expect(s.mode).toBe('auto');
    }
  });
});

describe("the call's transaction", () => {
  it('gives its connection back on every refusal, before recording it', async () => {
    const pool = server.db.pool;
    const unknown = { ...source, id: '00000000-0000-4000-8000-00000000abcd' };
    const wrong = { ...source, secret: source.secret.slice(0, -2) + 'xx' };
    // More refusals at once than the pool has connections: had a refused call kept its
    // transaction's connection while it recorded the refusal on another, they would wait on each
    // other until the pool's timeout.
    const refused = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 3 === 0
          ? send([bp('TRUST-A', minutesAgo(5000), 'x', 80)])
          : send([bp('TRUST-A', minutesAgo(5000), 120, 80)], i % 3 === 1 ? unknown : wrong),
      ),
    );
    expect(refused.map((r) => r.status).sort()).toEqual([...Array(8).fill(400), ...Array(16).fill(401)]);
    // The portal's background work (the audit sealer, jobs) shares the pool and may hold a
    // connection for a moment; what must not happen is a connection kept by a refused call.
    await expect.poll(() => pool.totalCount - pool.idleCount, { timeout: 2000, interval: 20 }).toBe(0);
    expect((await send([bp('TRUST-A', minutesAgo(5001), 120, 80)])).status).toBe(200);
  });
});

describe('unmatched readings', () => {
  it('refuses new unmatched readings beyond the source quota, still stores readings of its patients, and records the refusal', async () => {
    const q = await newSource(orgA, 'Quota');
    const t0 = minutesAgo(10);
    const first = await send(
      Array.from({ length: QUOTA - 2 }, (_, i) => bp(`UNKNOWN-${i}`, t0, 120, 80)),
      q,
    );
    expect(first.body).toMatchObject({ unmatched: QUOTA - 2, rejected: 0 });
    const t = minutesAgo(9);
    // Room for two: the lone pulse (stored first) and the first unknown reading take it.
    const res = await send(
      [bp('UNKNOWN-X', t, 121, 80), bp('UNKNOWN-Y', t, 122, 80), pulse('UNKNOWN-Z', t, 70), bp('TRUST-A', t, 123, 80)],
      q,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: 4, stored: 1, unmatched: 1, rejected: 1 });
    expect(await count(`unmatched_readings WHERE source_id = $1`, [q.id])).toBe(QUOTA);
    expect(await count(`unmatched_readings WHERE device_identifier = 'UNKNOWN-Y'`)).toBe(0);
    expect((await send(pulse('UNKNOWN-W', t, 70), q)).body).toMatchObject({ rejected: 1 });
    // A retry of a parked reading is still a duplicate, not a refusal.
    expect((await send(bp('UNKNOWN-0', t0, 120, 80), q)).body).toMatchObject({ duplicates: 1, rejected: 0 });
    const list = await admin.get<IngestionSource[]>('/api/integrations');
    const shown = list.body.find((s) => s.id === q.id)!;
    expect(shown).toMatchObject({
      unmatched_count: QUOTA,
      unmatched_quota: QUOTA,
      unmatched_retention_days: UNMATCHED_RETENTION_DAYS,
    });
    expect(shown.recent_rejections.map((r) => r.reason)).toEqual([
      IngestionErrors.unmatchedQuota(QUOTA),
      IngestionErrors.unmatchedQuota(QUOTA),
    ]);
    const audit = await server.db.pool.query(
      `SELECT details FROM audit_logs WHERE action = 'ingest.tenovi' AND resource_id = $1 ORDER BY id`,
      [q.id],
    );
    expect(audit.rows[1].details).toMatchObject({ stored: 1, unmatched: 1, rejected: 1, pulses_rejected: 0 });
    expect(audit.rows[2].details).toMatchObject({ pulses_rejected: 1 });
  });

  it('deletes unmatched readings received more than the retention ago, daily by a scheduled job, audited as a system action', async () => {
    const r = await newSource(orgA, 'Retention');
    await send(
      [
        bp('OLD-1', minutesAgo(20), 120, 80),
        bp('OLD-2', minutesAgo(20), 120, 80),
        bp('NEW-1', minutesAgo(20), 120, 80),
      ],
      r,
    );
    await setUnmatchedReceivedAt(server.db.pool, ['OLD-1', 'OLD-2'], { ago: `${UNMATCHED_RETENTION_DAYS + 1} days` });
    const result = await purgeExpiredUnmatched(server.db.pool, UNMATCHED_RETENTION_DAYS, 'job:test');
    expect(result.deleted).toBe(2);
    expect(await count(`unmatched_readings WHERE source_id = $1`, [r.id])).toBe(1);
    const audit = await server.db.pool.query(
      `SELECT user_id, ip_address, details FROM audit_logs WHERE action = 'unmatched.retention' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit.rows[0]).toMatchObject({
      user_id: null,
      ip_address: 'system',
      details: { deleted: 2, retention_days: UNMATCHED_RETENTION_DAYS, by_source: { [r.id]: 2 } },
    });
    const schedule = await server.db.pool.query(`SELECT cron FROM pgboss.schedule WHERE name = $1`, [
      UNMATCHED_RETENTION_QUEUE,
    ]);
    expect(schedule.rows).toEqual([{ cron: UNMATCHED_RETENTION_CRON }]);
  });
});

describe('organization scoping', () => {
  it('one Tenovi secret cannot store readings or raise alerts for devices of two organizations in one call', async () => {
    const patientB = await patientWithDevice(orgB, 'TRUST-B');
    // A fresh source of A: the quota of the first one is used up by the tests above.
    const sourceA = await newSource(orgA, 'Tenovi A2');
    const t = minutesAgo(3);
    // Crisis values: each would raise a critical alert for the patient it is stored for.
    const res = await send(
      [bp('TRUST-A', t, 210, 125), bp('TRUST-B', t, 211, 126), pulse('TRUST-B', minutesAgo(2), 80)],
      sourceA,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ stored: 1, unmatched: 1 });
    expect(await count(`observations WHERE patient_id = $1`, [patientB])).toBe(0);
    expect(await count(`alerts WHERE patient_id = $1 OR organization_id = $2`, [patientB, orgB])).toBe(0);
    expect(await count(`alerts WHERE patient_id = $1 AND rule = 'bp_crisis'`, [patientA])).toBe(1);
    // Nor does it complete B's readings with a pulse, or set B's battery.
    const own = await newSource(orgB, 'Tenovi B');
    const t2 = minutesAgo(1);
    expect((await send(bp('TRUST-B', t2, 130, 80), own)).body.stored).toBe(1);
    const battery = { metric: 'battery_percentage', hwi_device_id: 'TRUST-B', value_1: 5, timestamp: t2 };
    expect((await send([pulse('TRUST-B', t2, 99), battery], sourceA)).body).toMatchObject({
      duplicates: 0,
      battery_updates: 0,
    });
    // Its own organization's source may (the test can fail).
    expect((await send([pulse('TRUST-B', t2, 99), battery], own)).body).toMatchObject({
      duplicates: 1,
      battery_updates: 1,
    });
    const b = await server.db.pool.query(`SELECT pulse FROM observations WHERE patient_id = $1`, [patientB]);
    expect(b.rows).toEqual([{ pulse: 99 }]);
    // Assigning B's device again does not move A's parked reading to B's patient.
    await unassignDevice(server.db.pool, 'TRUST-B');
    await assignDevice(server.db.pool, 'TRUST-B', patientB);
    expect(await count(`observations WHERE patient_id = $1 AND systolic = 211`, [patientB])).toBe(0);
  });
});

describe('late readings', () => {
  it('a 41-day-old reading opens its critical alert on the worklist but e-mails no provider', async () => {
    const old = await patientWithDevice(orgA, 'TRUST-41D');
    // Within the 90-day limit, so accepted, but far too late for anyone to act on a page.
    expect((await send(bp('TRUST-41D', daysAgo(41), 214, 127))).body).toMatchObject({ stored: 1 });
    const alert = (
      await server.db.pool.query<{ id: string; severity: string }>(
        `SELECT id, severity FROM alerts WHERE patient_id = $1`,
        [old],
      )
    ).rows[0]!;
    expect(alert.severity).toBe('critical');
    await claimCriticalNotifications(server.db.pool, null);
    const notified = await server.db.pool.query<{ notified: boolean }>(
      `SELECT notified_at IS NOT NULL AS notified FROM alerts WHERE id = $1`,
      [alert.id],
    );
    expect(notified.rows[0]!.notified).toBe(false);
  });

  it(`a critical alert raised by a reading older than ${LATE_READING_HOURS} h is on the worklist but sends no e-mail`, async () => {
    const late = await patientWithDevice(orgA, 'TRUST-LATE');
    const fresh = await patientWithDevice(orgA, 'TRUST-FRESH');
    await send([
      bp('TRUST-LATE', ago((LATE_READING_HOURS + 1) * 3_600_000), 212, 126),
      bp('TRUST-FRESH', minutesAgo(1), 212, 126),
    ]);
    const alertOf = async (patientId: number) =>
      (
        await server.db.pool.query<{ id: string; severity: string }>(
          `SELECT id, severity FROM alerts WHERE patient_id = $1`,
          [patientId],
        )
      ).rows[0]!;
    const [lateAlert, freshAlert] = [await alertOf(late), await alertOf(fresh)];
    expect(lateAlert.severity).toBe('critical');
    // The sweep of the scheduled job claims what no instance sent; the fresh one may be sent already.
    await claimCriticalNotifications(server.db.pool, null);
    const notified = await server.db.pool.query<{ id: string; notified: boolean }>(
      `SELECT id, notified_at IS NOT NULL AS notified FROM alerts WHERE id = ANY($1::int8[]) ORDER BY id`,
      [[lateAlert.id, freshAlert.id]],
    );
    expect(Object.fromEntries(notified.rows.map((r) => [r.id, r.notified]))).toEqual({
      [lateAlert.id]: false,
      [freshAlert.id]: true,
    });
  });
});
