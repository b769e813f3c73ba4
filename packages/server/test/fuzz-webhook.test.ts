/**
 * Generated Tenovi webhook bodies, through the real app: valid ones, near-valid ones (one field
 * broken: hex and exponent strings, padded numbers, nulls, wrong types, dates that do not exist or
 * are too old, unknown metrics), hostile ones (not JSON objects, prototype-pollution keys, arrays
 * up to and over the measurement limit). The webhook must never answer 5xx; a refused call must
 * leave the readings as they were, and an accepted one must store exactly what it answers.
 *
 * FUZZ_WEBHOOK_REQUESTS sets how many requests (default 5,000); FUZZ_SEED replays a run.
 */
import {
  DEFAULT_INGEST_AUTH_HEADER,
  INGEST_MAX_MEASUREMENTS,
  ReadingLimits,
  type IngestionSourceWithSecret,
  type IngestResult,
} from '@rpm/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, signInNewStaff, startTestServer, type TestServer } from './support/http.ts';
import { buildDevice, buildPatient } from './support/factories.ts';

const REQUESTS = Number(process.env.FUZZ_WEBHOOK_REQUESTS ?? 5_000);
const DAY = 86_400_000;

let server: TestServer;
let source: IngestionSourceWithSecret;
/** Fixed when the run starts, so that a replayed seed sends the same times relative to it. */
const now = Date.now();

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const devices = fc.constantFrom('FUZZ-1', 'FUZZ-2', ' fuzz-3 ', 'FUZZ-B', 'UNKNOWN-1', 'UNKNOWN-2');
/** Whole seconds, so that measurements of one body often meet on (device, time). */
const recentTime = fc
  .integer({ min: 0, max: 80 * 24 * 3600 })
  .map((s) => new Date(Math.floor((now - s * 1000) / 1000) * 1000));
const zoned = (d: Date, offsetMinutes: number) => {
  if (offsetMinutes === 0) return d.toISOString();
  const local = new Date(d.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
};
const validTimestamp = fc.tuple(recentTime, fc.constantFrom(0, 60, -300, 330, 840)).map(([d, o]) => zoned(d, o));
/** A number as vendors send it: JSON or a decimal string. */
const sent = (n: fc.Arbitrary<number>) => fc.oneof(n, n.map(String));
const index = fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined });

const validMeasurement: fc.Arbitrary<Record<string, Json>> = fc.oneof(
  fc
    .record({
      device: devices,
      timestamp: validTimestamp,
      systolic: sent(fc.integer({ min: 90, max: 230 })),
      diastolic: sent(fc.integer({ min: 50, max: 85 })),
      index,
    })
    .map((m) => ({
      metric: 'blood_pressure',
      hwi_device_id: m.device,
      value_1: m.systolic,
      value_2: m.diastolic,
      timestamp: m.timestamp,
      ...(m.index === undefined ? {} : { filter_params: { measurement_index: m.index } }),
    })),
  fc
    .record({ device: devices, timestamp: validTimestamp, pulse: sent(fc.integer({ min: 30, max: 200 })), index })
    .map((m) => ({
      metric: 'pulse',
      hwi_device_id: m.device,
      value_1: m.pulse,
      value_2: null,
      timestamp: m.timestamp,
      ...(m.index === undefined ? {} : { filter_params: { measurement_index: m.index } }),
    })),
  fc
    .record({
      device: devices,
      timestamp: validTimestamp,
      flag: fc.constantFrom<Json>(0, 1, true, false, '0', '1', null),
    })
    .map((m) => ({ metric: 'irregular_heartbeat', hwi_device_id: m.device, value_1: m.flag, timestamp: m.timestamp })),
  fc
    .record({ device: devices, timestamp: validTimestamp, level: sent(fc.integer({ min: 0, max: 100 })) })
    .map((m) => ({ metric: 'battery_percentage', hwi_device_id: m.device, value_1: m.level, timestamp: m.timestamp })),
);

const badNumber = fc.constantFrom<Json>(
  '0x80',
  ' 1.2e2 ',
  '1.2e2',
  '1e2',
  ' 120',
  '120 ',
  '+120',
  '١٢٠',
  'Infinity',
  'NaN',
  '',
  '12,0',
  '0b11',
  '.5',
  '5.',
  -1,
  0,
  301,
  1e308,
  120.5,
  true,
  false,
  null,
  [],
  {},
  [120],
  { value: 120 },
);
const badTimestamp = fc.oneof(
  fc.constantFrom<Json>(
    '2026-09-31T10:00:00Z',
    '2025-02-29T10:00:00Z',
    '2026-13-01T10:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T10:60:00Z',
    '2026-01-01T10:00:60Z',
    '0001-01-01T00:00:00Z',
    '1900-01-01T00:00:00Z',
    '1999-12-31T23:59:59Z',
    '2026-01-01T10:00:00',
    '2026-01-01 10:00:00Z',
    '2026-01-01T10:00:00+25:00',
    '2026-01-01T10:00:00.1234567890Z',
    '20260101T100000Z',
    '',
    null,
    1767261600000,
    true,
    ['2026-01-01T10:00:00Z'],
  ),
  fc.integer({ min: ReadingLimits.maxAgeDays + 1, max: 3650 }).map((d) => new Date(now - d * DAY).toISOString()),
  fc.integer({ min: 11, max: 100_000 }).map((m) => new Date(now + m * 60_000).toISOString()),
);
const badValue = fc.oneof(
  badNumber,
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double(),
);

/** One field of a valid measurement broken, removed, or a stray field added. */
const nearValid: fc.Arbitrary<Json> = fc
  .tuple(
    validMeasurement,
    fc.constantFrom('value_1', 'value_2', 'timestamp', 'metric', 'hwi_device_id', 'filter_params', 'extra', 'drop'),
    badValue,
    badTimestamp,
    fc.constantFrom('value_1', 'value_2', 'timestamp', 'metric', 'hwi_device_id'),
  )
  .map(([m, field, value, time, dropped]): Json => {
    switch (field) {
      case 'timestamp':
        return { ...m, timestamp: time };
      case 'metric':
        return { ...m, metric: value === null ? null : typeof value === 'string' ? value : 'weight' };
      case 'hwi_device_id':
        return { ...m, hwi_device_id: typeof value === 'string' ? value.padEnd(120, 'x') : value };
      case 'filter_params':
        return { ...m, filter_params: typeof value === 'object' ? value : { measurement_index: value } };
      case 'extra':
        return { ...m, patient_id: value, device_name: value };
      case 'drop': {
        const copy = { ...m };
        delete copy[dropped];
        return copy;
      }
      default:
        return { ...m, [field]: value };
    }
  });

const measurementOf = fc.oneof({ weight: 4, arbitrary: validMeasurement }, { weight: 1, arbitrary: nearValid });

interface Call {
  /** The body as sent: JSON text, sometimes with keys JSON.stringify would never write. */
  raw: string;
}

const call: fc.Arbitrary<Call> = fc.oneof(
  { weight: 8, arbitrary: validMeasurement.map((m) => ({ raw: JSON.stringify(m) })) },
  {
    weight: 8,
    arbitrary: fc.array(validMeasurement, { minLength: 1, maxLength: 8 }).map((a) => ({ raw: JSON.stringify(a) })),
  },
  { weight: 8, arbitrary: nearValid.map((m) => ({ raw: JSON.stringify(m) })) },
  {
    weight: 6,
    arbitrary: fc.array(measurementOf, { minLength: 1, maxLength: 8 }).map((a) => ({ raw: JSON.stringify(a) })),
  },
  {
    // The same reading as several measurements with the indexes the sender chose.
    weight: 4,
    arbitrary: fc
      .tuple(devices, validTimestamp, fc.integer({ min: 90, max: 180 }), fc.integer({ min: 2, max: 5 }))
      .map(([device, timestamp, systolic, copies]) => ({
        raw: JSON.stringify(
          Array.from({ length: copies }, (_, i) => ({
            metric: i % 2 ? 'pulse' : 'blood_pressure',
            hwi_device_id: device,
            value_1: i % 2 ? 70 : systolic,
            value_2: i % 2 ? null : 60,
            timestamp,
            filter_params: { measurement_index: i },
          })),
        ),
      })),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(validMeasurement, fc.constantFrom('__proto__', 'constructor', 'prototype')).map(([m, key]) => ({
      raw: `{"${key}":{"polluted":true,"prototype":{"polluted":true}},${JSON.stringify(m).slice(1)}`,
    })),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Call>(
      { raw: 'null' },
      { raw: '[]' },
      { raw: '{}' },
      { raw: '"hello"' },
      { raw: '42' },
      { raw: 'true' },
      { raw: '[[]]' },
      { raw: '[null]' },
      { raw: '{"metric": ' },
      { raw: '' },
    ),
  },
  {
    // Large arrays, up to and just over the limit: rare (1 in 39), they are the slow ones.
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom(100, INGEST_MAX_MEASUREMENTS - 1, INGEST_MAX_MEASUREMENTS, INGEST_MAX_MEASUREMENTS + 1),
        validMeasurement,
        fc.boolean(),
      )
      .map(([n, m, lonePulses]) => ({
        raw: JSON.stringify(
          Array.from({ length: n }, (_, i) => ({
            ...m,
            ...(lonePulses ? { metric: 'pulse', value_1: 70, value_2: null } : {}),
            timestamp: new Date(Math.floor(now / 1000) * 1000 - (i + 1) * 60_000).toISOString(),
          })),
        ),
      })),
  },
);

/** Vitals, unmatched rows, and the alerts open for organization B (which the source is not of). */
async function counts(): Promise<{ vitals: number; unmatched: number; alertsB: number }> {
  const { rows } = await server.db.pool.query<{ vitals: number; unmatched: number; alerts_b: number }>(
    `SELECT (SELECT count(*)::int FROM observations) AS vitals, (SELECT count(*)::int FROM unmatched_readings) AS unmatched,
            (SELECT count(*)::int FROM alerts a JOIN patients p ON p.id = a.patient_id WHERE p.last_name = 'OrgB') AS alerts_b`,
  );
  return { vitals: rows[0]!.vitals, unmatched: rows[0]!.unmatched, alertsB: rows[0]!.alerts_b };
}

beforeAll(async () => {
  server = await startTestServer();
  const orgA = await createOrganization(server);
  const orgB = await createOrganization(server);
  const admin = await signInNewStaff(server, 'admin', orgA.id);
  source = (
    await admin.post<IngestionSourceWithSecret>('/api/integrations', {
      name: 'Fuzz',
      kind: 'tenovi',
      organization_id: orgA.id,
    })
  ).body;
  for (const [firstName, lastName, organizationId, deviceId] of [
    ['F1', 'OrgA', orgA.id, 'FUZZ-1'],
    ['F2', 'OrgA', orgA.id, 'FUZZ-2'],
    ['F3', 'OrgA', orgA.id, 'FUZZ-3'],
    ['FB', 'OrgB', orgB.id, 'FUZZ-B'],
  ] as const) {
    const patientId = await buildPatient(server.db.pool, { firstName, lastName, organizationId });
    await buildDevice(server.db.pool, { deviceId, model: 'BPM', patientId, assignedFrom: { ago: '120 days' } });
  }
});
afterAll(async () => server?.close());

describe('the Tenovi webhook under generated input', () => {
  it(`never answers 5xx, stores nothing it refuses and exactly what it accepts (${REQUESTS} requests)`, async () => {
    const statuses = new Map<number, number>();
    let last = await counts();
    await fc.assert(
      fc.asyncProperty(call, async ({ raw }) => {
        const res = await server.app.inject({
          method: 'POST',
          url: `/api/ingest/tenovi/${source.id}`,
          headers: { 'content-type': 'application/json', [DEFAULT_INGEST_AUTH_HEADER]: source.secret },
          payload: raw,
        });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const after = await counts();
        const before = last;
        last = after;
        expect(res.statusCode, `${res.statusCode} for ${raw.slice(0, 300)}: ${res.body.slice(0, 300)}`).toBeLessThan(
          500,
        );
        expect(after.alertsB).toBe(0);
        if (res.statusCode !== 200) {
          expect([400, 413]).toContain(res.statusCode);
          expect(after).toEqual(before);
          return;
        }
        const answer = res.json() as IngestResult;
        expect(after.vitals - before.vitals).toBe(answer.stored);
        // Each new unmatched row is one of the call's measurements (a parked reading or a waiting pulse).
        expect(after.unmatched - before.unmatched).toBeLessThanOrEqual(answer.received);
        expect(answer.stored + answer.unmatched + answer.rejected).toBeLessThanOrEqual(answer.received);
      }),
      { numRuns: REQUESTS, seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined },
    );
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
    // The generator must reach every kind of answer, or the run proves little.
    expect([...statuses.keys()].sort()).toEqual([200, 400, 413]);
    console.log(`webhook fuzz: ${REQUESTS} requests, answers ${JSON.stringify(Object.fromEntries(statuses))}`);
  }, 300_000);
});
