/**
 * The demo's patients, made through the portal's services as staff make them on its pages: an
 * admin registers the devices and creates the patient with insurance and devices, enrolls them in
 * their programs; their provider types in their readings (each checked against the alert rules
 * as it is stored), writes notes, logs tracking time and, for a patient who stopped measuring,
 * an outreach call. Every step is checked and audited by its service like any other request.
 *
 * What the services' rules do not allow is not done: a patient created today was not active, and
 * had no device, before today. So the 90 days of readings are typed-in readings (which never
 * count as device data for billing), enrollment starts today, and only time logged today counts
 * for this month's billing; device data accrues from today, as the device simulator sends it.
 */
import { bloodPressure, MAX_PAGE_LIMIT, type Device, type DeviceType, type MeasurementKind } from '@rpm/contracts';
import { isBillingMonthClosed, readingsInClosedMonths } from '../src/modules/billing/index.ts';
import { createDevice, getDevices } from '../src/modules/devices/index.ts';
import { addNote } from '../src/modules/notes/index.ts';
import { addManualObservation } from '../src/modules/observations/index.ts';
import { recordOutreach } from '../src/modules/outreach/index.ts';
import { createPatient, listPatientsFor } from '../src/modules/patients/index.ts';
import { updatePatientPrograms } from '../src/modules/programs/index.ts';
import { addTrackingEntry, trackingToday } from '../src/modules/tracking/index.ts';
import type { Actor } from '../src/policies/actor.ts';
import { cuffReadings, demoPatient, NOTES, rng, type DemoPatient } from './seed-demo.people.ts';
import { diagnosesFor, programDevices, programsFor, stoppedDaysAgo, type SeedReading } from './seed-demo-kinds.ts';
import { contextOf, type SeedDeps } from './seed-demo.staff.ts';

const DAY_MS = 86_400_000;

export interface SeedTotals {
  created: number;
  existing: number;
  readings: number;
  /** New patients per program. */
  enrolled: Record<string, number>;
  /** Readings stored per kind. */
  byKind: Record<string, number>;
  /** Readings and tracking entries left out because their month is closed for billing. */
  closed: number;
}

/** One reading to type in: its kind, unit (the kind's canonical unit), values and time. */
interface Entry {
  kind: string;
  unit: string;
  components: Record<string, number>;
  at: Date;
}

/** What is left to do for a new patient once they exist (their provider's work). */
interface Care {
  id: number;
  p: DemoPatient;
  providers: Actor[];
  entries: Entry[];
  stopped: number;
}

const patientKey = (organizationId: number, first: string, last: string, dob: string | null) =>
  `${organizationId}|${first}|${last}|${dob ?? ''}`;

/** Every patient the admin sees, by organization, name and birth date (the seed's natural key). */
async function existingPatients(deps: SeedDeps, admin: Actor): Promise<Set<string>> {
  const keys = new Set<string>();
  for (let offset = 0; ; offset += MAX_PAGE_LIMIT) {
    const page = await listPatientsFor(deps, contextOf(admin), { limit: MAX_PAGE_LIMIT, offset });
    for (const p of page.items) keys.add(patientKey(p.organization_id, p.first_name, p.last_name, p.date_of_birth));
    if (page.items.length < MAX_PAGE_LIMIT) return keys;
  }
}

/** Calendar arithmetic on YYYY-MM-DD days. */
const dayBefore = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);

/**
 * The readings a device of the patient's would have measured, as typed-in entries: `d` whole days
 * before today (UTC), `m` minutes after that midnight; none after now nor since the patient
 * stopped measuring.
 */
function entriesOf(
  kind: MeasurementKind,
  unit: string,
  readings: SeedReading[],
  stopped: number,
  now: number,
): Entry[] {
  const midnight = Math.floor(now / DAY_MS) * DAY_MS;
  return readings.flatMap(({ d, m, c }) => {
    const at = midnight - d * DAY_MS + m * 60_000;
    return at <= now && d >= stopped ? [{ kind: kind.kind, unit, components: c, at: new Date(at) }] : [];
  });
}

/**
 * The device of `label`: registered unless it is, and free unless an earlier run's patient has it
 * (then the new patient goes without it). Answers its id, or null.
 */
async function deviceFor(
  deps: SeedDeps,
  admin: Actor,
  devices: Map<string, Device>,
  d: { label: string; model: string; type: DeviceType },
): Promise<number | null> {
  const known = devices.get(d.label.toLowerCase());
  if (known) return known.patient_id === null ? known.id : null;
  const created = await createDevice(deps.db, contextOf(admin), { device_id: d.label, model: d.model, type: d.type });
  devices.set(d.label.toLowerCase(), created);
  return created.id;
}

/** Creates the patient with insurance and devices, and enrolls them in their programs (an admin's work). */
async function admit(
  deps: SeedDeps,
  admin: Actor,
  devices: Map<string, Device>,
  p: DemoPatient,
  organizationId: number,
  providers: Actor[],
  days: number,
): Promise<Care> {
  const now = Date.now();
  const stopped = stoppedDaysAgo(p.n);
  const cuff = {
    label: `DEMO-BP-${String(p.n + 1).padStart(4, '0')}`,
    model: 'BP7250',
    type: bloodPressure.deviceType,
  };
  const others = programDevices(p.n, rng(5000 + p.n), days);
  const deviceIds: number[] = [];
  for (const d of [cuff, ...others]) {
    const id = await deviceFor(deps, admin, devices, d);
    if (id !== null) deviceIds.push(id);
  }
  const provider = providers[p.n % 2]!;
  const today = new Date(now).toISOString().slice(0, 10);
  const patient = await createPatient(deps, contextOf(admin), {
    first_name: p.first,
    last_name: p.last,
    date_of_birth: p.dob,
    gender: p.gender,
    organization_id: organizationId,
    primary_provider_id: provider.id,
    enrolled_rpm: p.status === 'Active' || p.status === 'Paused',
    enrollment_status: p.status === '' ? null : p.status,
    // Ordered by their primary provider; consent given the day before the first reading.
    ordering_provider_id: provider.id,
    consent_date: dayBefore(today, days + 1),
    diagnosis_codes: diagnosesFor(p.n),
    insurances: p.insurances,
    device_ids: deviceIds,
  });
  await updatePatientPrograms(deps, contextOf(admin), patient.id, { programs: programsFor(p.n) });
  const entries = [
    ...entriesOf(bloodPressure, 'mm[Hg]', cuffReadings(p, rng(3000 + p.n), days), stopped, now),
    ...others.flatMap((d) => entriesOf(d.kind, d.unit, d.readings, stopped, now)),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  return { id: patient.id, p, providers, entries, stopped };
}

/**
 * The provider's work for one patient: the readings typed in oldest first (so each is checked
 * against the alert rules with the readings before it, as they arrive), then notes and tracking
 * time, and an outreach call when the patient stopped measuring. Answers readings stored per kind.
 */
async function care(deps: SeedDeps, c: Care): Promise<{ byKind: Record<string, number>; closed: number }> {
  const { id, p, providers } = c;
  const byKind: Record<string, number> = {};
  // A month closed for billing takes no more readings or time, whoever asks: what would fall in
  // one is left out (asked first, so the services are not made to refuse it thousands of times).
  const inClosedMonth = await readingsInClosedMonths(
    deps.db,
    c.entries.map((e) => ({ patientId: id, at: e.at.toISOString() })),
  );
  let closed = inClosedMonth.filter(Boolean).length;
  for (const [i, e] of c.entries.entries()) {
    if (inClosedMonth[i]) continue;
    const body = { kind: e.kind, unit: e.unit, components: e.components, created_at: e.at.toISOString() };
    await addManualObservation(deps, contextOf(providers[p.n % 2]!), id, body);
    byKind[e.kind] = (byKind[e.kind] ?? 0) + 1;
  }
  const today = await trackingToday(deps.db, id);
  const { r } = p;
  for (let j = 0; j < 1 + Math.floor(r() * 3); j++) {
    const author = contextOf(providers[j % 2]!);
    await addNote(deps, author, id, NOTES[(p.n + j) % NOTES.length]!);
    const minutes = 10 + Math.floor(r() * 30);
    // The month's review is a live call; earlier entries mostly too, the rest reviews of readings.
    const call = r() < 0.6 || j === 0;
    const date = dayBefore(today, j * 20);
    if (await isBillingMonthClosed(deps.db, date)) {
      closed++;
      continue;
    }
    await addTrackingEntry(deps, author, id, {
      date,
      duration_minutes: minutes,
      notes: j === 0 ? 'Monthly review of readings' : null,
      activity: call ? 'phone_call' : 'review_readings',
      contact_type: call ? 'phone' : null,
    });
  }
  if (c.stopped > 0) {
    // The care team tried to reach the patient who stopped measuring.
    await recordOutreach(deps, contextOf(providers[0]!), id, {
      outcome: 'left_message',
      notes: 'No readings for several days; asked to call back',
    });
  }
  return { byKind, closed };
}

/** Runs `work` on every item, at most `at` at a time. */
async function inTurns<T>(items: T[], at: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(at, items.length) }, worker));
}

/**
 * `perOrg` patients in each organization, each unless one of the same organization, name and
 * birth date exists (a second run adds nothing twice). Patients are created one after the other
 * (their ids follow their order); their providers' work runs for `concurrency` patients at a time.
 */
export async function seedPatients(
  deps: SeedDeps,
  admin: Actor,
  orgIds: number[],
  providers: Actor[][],
  opts: { perOrg: number; days: number; concurrency: number },
): Promise<SeedTotals> {
  const existing = await existingPatients(deps, admin);
  const devices = new Map(
    (await getDevices(deps.db, contextOf(admin))).map((d) => [d.device_id.trim().toLowerCase(), d]),
  );
  const totals: SeedTotals = { created: 0, existing: 0, readings: 0, enrolled: {}, byKind: {}, closed: 0 };
  const admitted: Care[] = [];
  for (const [o, organizationId] of orgIds.entries()) {
    for (let k = 0; k < opts.perOrg; k++) {
      const p = demoPatient(o * opts.perOrg + k, o);
      if (existing.has(patientKey(organizationId, p.first, p.last, p.dob))) {
        totals.existing++;
        continue;
      }
      admitted.push(await admit(deps, admin, devices, p, organizationId, providers[o]!, opts.days));
      totals.created++;
      for (const program of programsFor(p.n)) totals.enrolled[program] = (totals.enrolled[program] ?? 0) + 1;
    }
  }
  await inTurns(admitted, opts.concurrency, async (c) => {
    const { byKind, closed } = await care(deps, c);
    totals.closed += closed;
    for (const [kind, count] of Object.entries(byKind)) {
      totals.byKind[kind] = (totals.byKind[kind] ?? 0) + count;
      totals.readings += count;
    }
  });
  return totals;
}
