import {
  IngestionErrors,
  UNKNOWN_METRIC_KIND,
  UnmatchedErrors,
  checkComponents,
  fromCanonical,
  glucose,
  heartRate,
  MEASUREMENT_KINDS,
  oxygenSaturation,
  roundTo,
  toCanonical,
  unmatchedAttachPath,
  weight,
  type IngestResult,
  type IngestionSourceWithSecret,
  type MeasurementKind,
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
import { buildDevice, buildPatient, unique } from '../../../test/support/factories.ts';

/** Webhooks of every kind of the measurement registry: converted, checked, stored, kept unmatched. */

let server: TestServer;
let admin: ApiClient;
let provider: ApiClient;
let source: IngestionSourceWithSecret;
let patient: number;
let scale: string;
let glucometer: string;
let oximeter: string;

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
/** The Tenovi metric of a kind, as the registry names it. */
const metricOf = (kind: MeasurementKind) => kind.vendorMetrics.find((m) => m.vendor === 'tenovi')!;
const measurement = (
  kind: MeasurementKind,
  device: string,
  timestamp: string,
  value_1: unknown,
  value_2?: unknown,
) => ({
  metric: metricOf(kind).metric,
  hwi_device_id: device,
  value_1,
  value_2: value_2 ?? null,
  timestamp,
  filter_params: { measurement_index: 0 },
});
/** A canonical value in the unit the vendor sends it in. */
const sent = (kind: MeasurementKind, canonical: number) => {
  const m = metricOf(kind);
  return fromCanonical(kind, m.component, canonical, m.unit)!;
};
/** The registry's refusal of a canonical value, as the webhook words it for `field`. */
const refusal = (kind: MeasurementKind, component: string, canonical: number, field: string) => {
  const decimals = kind.components.find((c) => c.code === component)!.decimals;
  const checked = checkComponents(kind, { [component]: roundTo(canonical, decimals) });
  if (checked.ok) throw new Error('expected a refusal');
  return IngestionErrors.measurement(field, checked.message);
};

async function send(body: unknown) {
  const res = await server.app.inject({
    method: 'POST',
    url: `/api/ingest/tenovi/${source.id}`,
    headers: { 'content-type': 'application/json', 'x-rpm-ingest-secret': source.secret },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.json() as IngestResult & { message: string } };
}

const observationsOf = async (device: string) =>
  (
    await server.db.pool.query<{ kind: string; components: Record<string, number>; unit: string; created_at: Date }>(
      `SELECT o.kind, o.components, o.unit, o.created_at FROM observations o JOIN devices d ON d.id = o.device_id
        WHERE d.device_id = $1 ORDER BY o.created_at, o.id`,
      [device],
    )
  ).rows;
const count = async (table: string) =>
  (await server.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;

beforeAll(async () => {
  server = await startTestServer();
  const org = await createOrganization(server);
  admin = await signInNewStaff(server, 'admin', org.id);
  provider = await signInNewStaff(server, 'provider', org.id);
  const db = server.db.pool;
  patient = await buildPatient(db, {
    firstName: 'Kim',
    lastName: 'Kinds',
    organizationId: org.id,
    createdAt: { ago: '30 days' },
  });
  scale = unique('SCALE');
  glucometer = unique('GLUCO');
  oximeter = unique('OXI');
  for (const [deviceId, type] of [
    [scale, 'scale'],
    [glucometer, 'glucometer'],
    [oximeter, 'pulse_oximeter'],
  ] as const) {
    await buildDevice(db, { deviceId, type, patientId: patient, assignedFrom: { ago: '30 days' } });
  }
  const res = await admin.post<IngestionSourceWithSecret>('/api/integrations', {
    name: 'Tenovi cloud',
    kind: 'tenovi',
    organization_id: org.id,
  });
  expect(res.status).toBe(201);
  source = res.body;
});
afterAll(async () => server?.close());

describe('Tenovi measurements of every kind', () => {
  it('stores a weight sent in pounds in kilograms, and leaves the vitals answer as it was', async () => {
    const vitalsBefore = await provider.get<VitalPage>(`/api/patients/${patient}/vitals`);
    const res = await send(measurement(weight, scale, minutesAgo(10), 180.4));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: 1, stored: 1, unmatched: 0, duplicates: 0 });
    const stored = await observationsOf(scale);
    const expected = roundTo(
      toCanonical(weight, 'weight', 180.4, metricOf(weight).unit)!,
      weight.components[0]!.decimals,
    );
    expect(expected).toBe(81.83);
    expect(stored).toEqual([
      expect.objectContaining({ kind: weight.kind, components: { weight: expected }, unit: 'kg' }),
    ]);
    const vitalsAfter = await provider.get<VitalPage>(`/api/patients/${patient}/vitals`);
    expect(vitalsAfter.status).toBe(200);
    expect(vitalsAfter.body).toEqual(vitalsBefore.body);
  });

  it('stores a retry of a weight once', async () => {
    const body = measurement(weight, scale, minutesAgo(20), 181);
    expect((await send(body)).body).toMatchObject({ stored: 1 });
    expect((await send(body)).body).toMatchObject({ stored: 0, duplicates: 1 });
    expect(
      (await observationsOf(scale)).filter((o) => o.components.weight === roundTo(181 * 0.45359237, 2)),
    ).toHaveLength(1);
  });

  it('stores a glucose in mg/dL', async () => {
    const res = await send(measurement(glucose, glucometer, minutesAgo(10), '112'));
    expect(res.body).toMatchObject({ stored: 1 });
    expect(await observationsOf(glucometer)).toEqual([
      expect.objectContaining({ kind: glucose.kind, components: { glucose: 112 }, unit: 'mg/dL' }),
    ]);
  });

  it('joins the pulse of the same device and time to the SpO2 reading', async () => {
    const at = minutesAgo(10);
    const pulse = { ...measurement(heartRate, oximeter, at, 72), filter_params: { measurement_index: 1 } };
    const res = await send([measurement(oxygenSaturation, oximeter, at, 96), pulse]);
    expect(res.body).toMatchObject({ received: 2, stored: 1, unmatched: 0 });
    expect(await observationsOf(oximeter)).toEqual([
      expect.objectContaining({ kind: oxygenSaturation.kind, components: { spo2: 96, pulse: 72 }, unit: '%' }),
    ]);
  });

  const boundaries: [string, MeasurementKind, () => string][] = [
    ['weight', weight, () => scale],
    ['glucose', glucose, () => glucometer],
    ['SpO2', oxygenSaturation, () => oximeter],
  ];
  it.each(boundaries)(
    'accepts a %s at its plausible range and refuses one just outside it',
    async (_n, kind, device) => {
      const component = kind.components.find((c) => c.code === kind.primary)!;
      const step = 10 ** -component.decimals;
      const { min, max } = component.range;
      const t = (m: number) => minutesAgo(60 + m);
      const ok = await send([
        measurement(kind, device(), t(1), sent(kind, min)),
        measurement(kind, device(), t(2), sent(kind, max)),
      ]);
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ stored: 2 });
      const values = (await observationsOf(device())).map((o) => o.components[component.code]);
      expect(values).toEqual(expect.arrayContaining([min, max]));

      const before = await count('observations');
      const unmatchedBefore = await count('unmatched_readings');
      for (const [value, field] of [
        [min - step, '[1].value_1'],
        [max + step, '[1].value_1'],
      ] as const) {
        // A good measurement first: the whole request is refused, nothing of it stored.
        const res = await send([
          measurement(kind, device(), t(3), sent(kind, min + 1)),
          measurement(kind, device(), t(4), sent(kind, value)),
        ]);
        expect(res.status).toBe(400);
        expect(res.body.message).toBe(refusal(kind, component.code, value, field));
      }
      expect(await count('observations')).toBe(before);
      expect(await count('unmatched_readings')).toBe(unmatchedBefore);
    },
  );

  it('keeps a metric the portal does not know as unmatched, lists it and refuses to attach it', async () => {
    const at = minutesAgo(5);
    const res = await send([
      { metric: 'peak_flow', hwi_device_id: scale, value_1: 420, value_2: '3.5', timestamp: at },
      { metric: 'steps', hwi_device_id: scale, value_1: '8000', timestamp: minutesAgo(6) },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: 2, stored: 0, unmatched: 2 });
    const list = await admin.get<UnmatchedReadingsResponse>('/api/unmatched-readings');
    const peak = list.body.items.find((r) => r.device_id === scale && r.metric === 'peak_flow');
    expect(peak).toMatchObject({
      kind: UNKNOWN_METRIC_KIND,
      components: { value_1: 420, value_2: 3.5 },
      systolic: null,
      diastolic: null,
    });
    expect(list.body.items.find((r) => r.metric === 'steps')?.components).toEqual({ value_1: 8000 });
    const attach = await admin.post<{ message: string }>(unmatchedAttachPath, {
      reading_ids: [peak!.id],
      patient_id: patient,
    });
    expect(attach.status).toBe(400);
    expect(attach.body.message).toBe(UnmatchedErrors.unknownMetric);
    expect(await count(`unmatched_readings WHERE kind = '${UNKNOWN_METRIC_KIND}'`)).toBe(2);
    // A value of an unknown metric must still be a number.
    const bad = await send({ metric: 'peak_flow', hwi_device_id: scale, value_1: 'lots', timestamp: at });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(IngestionErrors.notNumber('value_1'));
  });

  it('keeps a weight of a device nobody has as unmatched, and attaches it when the device is assigned', async () => {
    const device = unique('LOANER-SCALE');
    const res = await send(measurement(weight, device, minutesAgo(15), 200));
    expect(res.body).toMatchObject({ stored: 0, unmatched: 1 });
    const list = await admin.get<UnmatchedReadingsResponse>('/api/unmatched-readings');
    const row = list.body.items.find((r) => r.device_id === device);
    expect(row).toMatchObject({ kind: weight.kind, metric: null, unit: 'kg', components: { weight: 90.72 } });
    await buildDevice(server.db.pool, {
      deviceId: device,
      type: 'scale',
      patientId: patient,
      assignedFrom: { ago: '1 day' },
    });
    expect(await count(`unmatched_readings WHERE device_identifier = '${device}'`)).toBe(0);
    expect(await observationsOf(device)).toEqual([
      expect.objectContaining({ kind: weight.kind, components: { weight: 90.72 }, unit: 'kg' }),
    ]);
  });

  // Every kind a Tenovi device sends as one value, whatever the registry holds (temperature was
  // added after this test and needed nothing here): sent in the vendor's unit at the range ends,
  // stored in the canonical unit; just outside refused with the registry's words.
  const singleValueKinds = (MEASUREMENT_KINDS as readonly MeasurementKind[]).filter(
    (k) => k.vendorMetrics.some((m) => m.vendor === 'tenovi' && !m.component2) && k.kind !== heartRate.kind,
  );
  it.each(singleValueKinds.map((k) => [k.kind, k] as const))(
    'takes %s at its range ends from its own device',
    async (_name, kind) => {
      const device = unique(kind.deviceType.toUpperCase());
      await buildDevice(server.db.pool, {
        deviceId: device,
        type: kind.deviceType,
        patientId: patient,
        assignedFrom: { ago: '30 days' },
      });
      const { component } = metricOf(kind);
      const { min, max } = kind.components.find((c) => c.code === component)!.range;
      const ok = await send([
        measurement(kind, device, minutesAgo(20), sent(kind, min)),
        measurement(kind, device, minutesAgo(19), sent(kind, max)),
      ]);
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ stored: 2 });
      const stored = await observationsOf(device);
      expect(stored.map((o) => [o.kind, o.unit])).toEqual([
        [kind.kind, kind.components.find((c) => c.code === component)!.ucum],
        [kind.kind, kind.components.find((c) => c.code === component)!.ucum],
      ]);
      expect(stored[0]!.components[component]).toBeCloseTo(min, 1);
      expect(stored[1]!.components[component]).toBeCloseTo(max, 1);
      const outside = max + (max - min) / 100;
      const refused = await send(measurement(kind, device, minutesAgo(18), sent(kind, outside)));
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(
        refusal(kind, component, toCanonical(kind, component, sent(kind, outside), metricOf(kind).unit)!, 'value_1'),
      );
      expect(await observationsOf(device)).toHaveLength(2);
    },
  );
});
