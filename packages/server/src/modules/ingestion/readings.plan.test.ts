import { bloodPressure } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { buildDevice, buildOrganization, buildPatient, unique } from '../../../test/support/factories.ts';
import { genericPlanOf, seqScanned } from '../../../test/support/plans.ts';
import { serviceDatabase } from '../../../test/support/service-database.ts';
import { storeLonePulses, storeReadings } from './readings.repository.ts';

/*
 * The webhook's storing statement is planned once per connection (generically), often while the
 * month's readings table is nearly empty: a new month, a new install. A step that joined the
 * readings table was then planned as a hash of a scan of all of it, and kept that plan while the
 * table grew (readings.repository.ts has the figures). Here the tables are as small as at that
 * moment, so the plan is the one such a connection would keep.
 */

const db = serviceDatabase();

/** A cuff of an active patient, the source that sends for its organization, and its readings. */
async function activeCuff(prefix: string) {
  const org = (await buildOrganization(db.pool)).id;
  const patient = await buildPatient(db.pool, { organizationId: org, enrolledRpm: true, enrollmentStatus: 'Active' });
  const deviceIdentifier = unique(prefix);
  await buildDevice(db.pool, { deviceId: deviceIdentifier, patientId: patient, assignedFrom: { ago: '30 days' } });
  const now = Date.now();
  return {
    deviceIdentifier,
    sender: { sourceId: null, organizationId: org, unmatchedQuota: null },
    pressure: (minutesAgo: number, index: number) => ({
      deviceIdentifier,
      measuredAt: new Date(now - minutesAgo * 60_000),
      index,
      kind: bloodPressure.kind,
      components: { systolic: 120, diastolic: 80 },
      unit: bloodPressure.components[0]!.ucum,
      irregular: null,
    }),
  };
}

describe('the storing statement, in the generic plan the portal runs', () => {
  it('never scans a month table of readings: a duplicate is found by a probe of its key', async () => {
    const { sender, pressure } = await activeCuff('PLAN');
    await storeReadings(db.pool, sender, [pressure(10, 1)]);
    // The second call repeats the first reading: a duplicate, found through that lookup.
    const { result, nodes } = await genericPlanOf(db.pool, (client) =>
      storeReadings(client, sender, [pressure(10, 1), pressure(5, 2)]),
    );
    expect(result.map((r) => r.status)).toEqual(['duplicate', 'stored']);
    expect(seqScanned(nodes, 'observations')).toEqual([]);
  });
});

describe('the lone pulses statement, in the generic plan the portal runs', () => {
  it('finds the stored reading a pulse belongs to by its key, never by a scan of a month table', async () => {
    const { deviceIdentifier, sender, pressure } = await activeCuff('PULSE');
    const stored = pressure(10, 1);
    await storeReadings(db.pool, sender, [stored]);
    const pulse = { deviceIdentifier, measuredAt: stored.measuredAt, index: 1, pulse: 64, irregular: null };
    const { result, nodes } = await genericPlanOf(db.pool, (client) => storeLonePulses(client, sender, [pulse]));
    expect(result.merged).toBe(1);
    expect(seqScanned(nodes, 'observations')).toEqual([]);
  });
});
