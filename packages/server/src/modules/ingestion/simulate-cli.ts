/**
 * Sends realistic Tenovi-format readings for the demo devices to a running portal, so that a new
 * user can watch readings arrive.
 *
 *   npm run simulate:devices -- --source <source id> --secret <secret> [--url http://localhost:3000]
 *     [--header x-rpm-ingest-secret] [--rate 1] [--duration 60] [--devices DEMO-BP-0001,DEMO-BP-0002]
 *     [--types cuff | scale | glucometer | pulse_oximeter | cuff,scale,... | all]
 *
 * The secret may come from RPM_INGEST_SECRET instead of the command line (keeps it out of the
 * shell history). Rate is readings per second across all devices; duration in seconds. Types
 * are the devices' (cuff by default): one type for all, or several (`all`: every type the
 * simulator knows) given to the devices in turn.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_INGEST_AUTH_HEADER } from '@rpm/contracts';
import type { DeviceType } from '@rpm/contracts';
import {
  SIMULATED_DEVICE_TYPES,
  isSimulatedType,
  roundRobinType,
  simulatedDevice,
  tenoviMeasurement,
} from './tenovi-simulator.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://localhost:3000' },
    source: { type: 'string' },
    secret: { type: 'string' },
    header: { type: 'string', default: DEFAULT_INGEST_AUTH_HEADER },
    rate: { type: 'string', default: '1' },
    duration: { type: 'string', default: '60' },
    devices: { type: 'string' },
    count: { type: 'string', default: '50' },
    types: { type: 'string', default: 'cuff' },
  },
});

const secret = values.secret ?? process.env.RPM_INGEST_SECRET;
const rate = Number(values.rate);
const duration = Number(values.duration);
if (!values.source || !secret || !(rate > 0) || !(duration > 0)) {
  console.error(
    'usage: npm run simulate:devices -- --source <id> --secret <secret> [--url URL] [--rate N/s] [--duration s]',
  );
  process.exit(2);
}
const requested =
  values.types === 'all'
    ? SIMULATED_DEVICE_TYPES
    : values.types
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
const unknownType = requested.find((t) => !isSimulatedType(t));
if (requested.length === 0 || unknownType !== undefined) {
  console.error(`--types: one or more of ${SIMULATED_DEVICE_TYPES.join(', ')}, or all`);
  process.exit(2);
}
const types = requested as readonly DeviceType[];
/** Generated device ids say their type (DEMO-BP-0001 is a cuff, as the demo's devices are). */
const PREFIX: Partial<Record<DeviceType, string>> = {
  cuff: 'BP',
  scale: 'SCALE',
  glucometer: 'GLUCO',
  pulse_oximeter: 'OXI',
};
const ids = values.devices
  ? values.devices
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
  : Array.from(
      { length: Number(values.count) },
      (_, i) => `DEMO-${PREFIX[roundRobinType(types, i)] ?? 'DEV'}-${String(i + 1).padStart(4, '0')}`,
    );
const devices = ids.map((id, i) => simulatedDevice(id, i + 1, roundRobinType(types, i)));
const endpoint = `${values.url.replace(/\/+$/, '')}/api/ingest/tenovi/${values.source}`;

let sent = 0;
let stored = 0;
let failed = 0;
const started = Date.now();
console.log(
  `Sending ${rate} reading(s)/s for ${duration} s to ${endpoint} (${devices.length} devices: ${types.join(', ')})`,
);
while (Date.now() - started < duration * 1000) {
  const device = devices[Math.floor(Math.random() * devices.length)]!;
  // One reading in ten was stored on the device and is uploaded a few minutes late.
  const delay = Math.random() < 0.1 ? 60 + Math.random() * 600 : Math.random() * 5;
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [values.header]: secret },
    body: JSON.stringify(tenoviMeasurement(device, new Date(), delay)),
  }).catch((err: unknown) => ({ ok: false, status: 0, text: async () => String(err) }));
  sent++;
  if (res.ok) {
    const body = (await (res as Response).json()) as { stored: number };
    stored += body.stored;
  } else {
    failed++;
    console.error(`${device.id}: ${res.status} ${(await res.text()).slice(0, 200)}`);
    if (res.status === 401) process.exit(1);
  }
  await new Promise((r) => setTimeout(r, 1000 / rate));
}
console.log(`Sent ${sent} readings: ${stored} stored, ${failed} failed.`);
