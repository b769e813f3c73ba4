import type { PatientListItem, PatientSort } from '@rpm/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../policies/actor.ts';
import { auditsOf } from '../../../test/support/audit.ts';
import { buildAlert, buildOrganization, buildPatient, buildReadings, buildStaff, buildTrackingEntry, contextOf, setAlertStatus } from '../../../test/support/factories.ts';
import { serviceDatabase } from '../../../test/support/service-database.ts';
import { listPatientsFor } from './patients.service.ts';

/**
 * The list's triage figures on a fixed clock: "this month" is March 2026 in New York (EST until
 * the 8th, EDT after), so readings near both ends of the month fall on the right side of it.
 */
const db = serviceDatabase();
const NOW = new Date('2026-03-15T16:00:00Z');
const deps = () => ({ db: db.pool, now: () => NOW });
let provider: Actor;
let admin: Actor;
const id: Record<string, number> = {};
const device = { source: 'dev-1' } as const;

beforeAll(async () => {
  const org = (await buildOrganization(db.pool, { timeZone: 'America/New_York' })).id;
  const other = (await buildOrganization(db.pool, { timeZone: 'America/New_York' })).id;
  provider = await buildStaff(db.pool, 'provider', { organizationId: org });
  admin = await buildStaff(db.pool, 'admin');
  for (const last of ['Alpha', 'Beta', 'Gamma', 'Delta']) {
    id[last] = await buildPatient(db.pool, { organizationId: org, firstName: 'Pat', lastName: last, enrolledRpm: true });
  }
  id.Other = await buildPatient(db.pool, { organizationId: other, firstName: 'Pat', lastName: 'Other' });
  // Alpha: two device readings on 2 March (one day), one on 10 March, and a typed-in one on 12
  // March (the last reading, but no day of device data): 2 days.
  await buildReadings(db.pool, id.Alpha!, [
    { at: '2026-03-02T12:00:00Z', ...device },
    { at: '2026-03-02T18:00:00Z', ...device },
    { at: '2026-03-10T12:00:00Z', ...device },
    { at: '2026-03-12T12:00:00Z', source: 'manual' },
  ]);
  // Beta: 28 Feb 23:30 in New York (not March), 1 March 00:30, 31 March 19:00 and 1 April 00:30 (EDT): 2 days.
  await buildReadings(db.pool, id.Beta!, [
    { at: '2026-03-01T04:30:00Z', ...device },
    { at: '2026-03-01T05:30:00Z', ...device },
    { at: '2026-03-31T23:00:00Z', ...device },
    { at: '2026-04-01T04:30:00Z', ...device },
  ]);
  // Delta: three days, one of them a weight (any physiologic kind counts).
  await buildReadings(db.pool, id.Delta!, [
    { at: '2026-03-03T15:00:00Z', ...device },
    { at: '2026-03-04T15:00:00Z', kind: 'weight', components: { weight: 80 }, unit: 'kg', ...device },
    { at: '2026-03-05T15:00:00Z', ...device },
  ]);
  await buildReadings(db.pool, id.Other!, [{ at: '2026-03-05T15:00:00Z', ...device }]);
  for (const [patient, date, minutes] of [
    ['Alpha', '2026-03-03', 15],
    ['Alpha', '2026-02-28', 10],
    ['Beta', '2026-03-31', 30],
    ['Delta', '2026-03-01', 20],
    ['Gamma', '2026-04-01', 40],
  ] as const) {
    await buildTrackingEntry(db.pool, { patientId: id[patient]!, date, durationMinutes: minutes });
  }
  await buildAlert(db.pool, { patientId: id.Alpha!, organizationId: org, rule: 'bp_stage2' });
  const resolved = await buildAlert(db.pool, { patientId: id.Alpha!, organizationId: org, rule: 'bp_crisis' });
  await setAlertStatus(db.pool, { id: resolved }, 'resolved', { resolvedAt: { ago: '0 seconds' } });
  await buildAlert(db.pool, { patientId: id.Beta!, organizationId: org, rule: 'bp_stage2' });
  const acknowledged = await buildAlert(db.pool, { patientId: id.Beta!, organizationId: org, rule: 'bp_crisis' });
  await setAlertStatus(db.pool, { id: acknowledged }, 'acknowledged');
});

const list = (sort: PatientSort, order: 'asc' | 'desc', more: { limit?: number; offset?: number } = {}) =>
  listPatientsFor(deps(), contextOf(provider), { sort, order, ...more });
const lastNames = (items: PatientListItem[]) => items.map((p) => p.last_name);

describe('the patient list triage columns', () => {
  it('shows the last reading, open alerts, minutes and days with device data of the month', async () => {
    const { items } = await list('name', 'asc');
    const byName = Object.fromEntries(items.map((p) => [p.last_name, p]));
    expect(byName.Alpha).toMatchObject({
      last_reading_at: '2026-03-12T12:00:00.000Z',
      open_alerts: 1,
      minutes_this_month: 15,
      device_days_this_month: 2,
    });
    expect(byName.Beta).toMatchObject({
      last_reading_at: '2026-04-01T04:30:00.000Z',
      open_alerts: 2,
      minutes_this_month: 30,
      device_days_this_month: 2,
    });
    expect(byName.Gamma).toMatchObject({ last_reading_at: null, open_alerts: 0, minutes_this_month: 0, device_days_this_month: 0 });
    expect(byName.Delta).toMatchObject({ open_alerts: 0, minutes_this_month: 20, device_days_this_month: 3 });
    expect(byName.Other).toBeUndefined();
  });

  it('sorts by each figure both ways, ties by name, patients without a reading last', async () => {
    expect(lastNames((await list('last_reading', 'desc')).items)).toEqual(['Beta', 'Alpha', 'Delta', 'Gamma']);
    expect(lastNames((await list('last_reading', 'asc')).items)).toEqual(['Delta', 'Alpha', 'Beta', 'Gamma']);
    expect(lastNames((await list('open_alerts', 'desc')).items)).toEqual(['Beta', 'Alpha', 'Delta', 'Gamma']);
    expect(lastNames((await list('open_alerts', 'asc')).items)).toEqual(['Delta', 'Gamma', 'Alpha', 'Beta']);
    expect(lastNames((await list('minutes_this_month', 'desc')).items)).toEqual(['Beta', 'Delta', 'Alpha', 'Gamma']);
    expect(lastNames((await list('minutes_this_month', 'asc')).items)).toEqual(['Gamma', 'Alpha', 'Delta', 'Beta']);
    expect(lastNames((await list('device_days_this_month', 'desc')).items)).toEqual(['Delta', 'Alpha', 'Beta', 'Gamma']);
    expect(lastNames((await list('device_days_this_month', 'asc')).items)).toEqual(['Gamma', 'Alpha', 'Beta', 'Delta']);
  });

  it('pages a figure sort without overlap, and records the sort', async () => {
    const ctx = contextOf(provider);
    const first = await listPatientsFor(deps(), ctx, { sort: 'device_days_this_month', order: 'desc', limit: 2 });
    const second = await list('device_days_this_month', 'desc', { limit: 2, offset: 2 });
    expect([...lastNames(first.items), ...lastNames(second.items)]).toEqual(['Delta', 'Alpha', 'Beta', 'Gamma']);
    expect(first.total).toBe(4);
    expect(await auditsOf(db.pool, ctx)).toEqual([
      expect.objectContaining({ action: 'patient.list', outcome: 'success', details: expect.objectContaining({ sort: 'device_days_this_month' }) }),
    ]);
  });

  it("counts each organization's month in its own time zone for an admin", async () => {
    const { items } = await listPatientsFor(deps(), contextOf(admin), { sort: 'device_days_this_month', order: 'desc' });
    expect(items.find((p) => p.last_name === 'Other')).toMatchObject({ device_days_this_month: 1, open_alerts: 0 });
  });
});
