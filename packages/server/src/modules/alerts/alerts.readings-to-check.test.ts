import { describe, expect, it } from 'vitest';
import { buildOrganization, buildPatient, buildStoredReadings } from '../../../test/support/factories.ts';
import { genericPlanOf } from '../../../test/support/plans.ts';
import { serviceDatabase } from '../../../test/support/service-database.ts';
import { readingsToCheck } from './alerts.repository.ts';

/*
 * The readings a webhook call just stored are read back for the alert check by id and by their
 * time span: observations are partitioned by month, and an id alone was looked up in every month
 * table, a probe per month and reading (alerts.repository.ts has the figures).
 */

const db = serviceDatabase();

describe('the readings to check', () => {
  it('are the stored readings, the first and last of their span included (to the microsecond), each once', async () => {
    const org = (await buildOrganization(db.pool)).id;
    const patient = await buildPatient(db.pool, { organizationId: org, enrolledRpm: true, enrollmentStatus: 'Active' });
    const [early, between, late] = await buildStoredReadings(db.pool, patient, [
      { at: '2026-03-31T23:59:59.5Z', systolic: 131 },
      { at: '2026-04-10T08:00:00Z', systolic: 132 },
      { at: '2026-04-30T08:00:00.123456Z', systolic: 133 },
    ]);
    const read = await readingsToCheck(db.pool, [late!, early!]);
    expect(read.map((r) => [r.vital_id, r.components.systolic])).toEqual([
      [early!.id, 131],
      [late!.id, 133],
    ]);
    expect(read.map((r) => r.vital_id)).not.toContain(between!.id);
  });

  it('in the generic plan the portal runs, look only in the month tables of their span', async () => {
    const org = (await buildOrganization(db.pool)).id;
    const patient = await buildPatient(db.pool, { organizationId: org, enrolledRpm: true, enrollmentStatus: 'Active' });
    const stored = await buildStoredReadings(db.pool, patient, [{ systolic: 128 }, { systolic: 129 }]);
    const { result, nodes } = await genericPlanOf(db.pool, (client) => readingsToCheck(client, stored));
    expect(result).toHaveLength(2);
    // Observations are read through an Append whose other month tables (and the default one)
    // were removed when the plan started: one table is left, this month's.
    const append = nodes.find((n) => n['Node Type'] === 'Append');
    expect(append?.['Subplans Removed']).toBeGreaterThan(0);
    expect(append?.Plans).toHaveLength(1);
  });
});
