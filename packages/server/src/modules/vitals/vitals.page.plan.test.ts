import { describe, expect, it } from 'vitest';
import { buildOrganization, buildPatient, buildReadings } from '../../../test/support/factories.ts';
import { genericPlanOf, seqScanned } from '../../../test/support/plans.ts';
import { serviceDatabase } from '../../../test/support/service-database.ts';
import { readScopedVitalPage } from './vitals.repository.ts';

/*
 * The patient page's first read, the portal's most frequent one, is a statement planned once per
 * connection (generically), often while the readings and audit tables are nearly empty: a new
 * month, a new install. A scan chosen then would be kept as the tables grow (the webhook's
 * storing statement did, readings.repository.ts). Here the tables are that small.
 */

const db = serviceDatabase();

describe('the undated vitals page, in the generic plan the portal runs', () => {
  it('reads the page over the patient-and-time index and its total from the counter, never a whole month table', async () => {
    const org = (await buildOrganization(db.pool)).id;
    const patient = await buildPatient(db.pool, { organizationId: org });
    await buildReadings(db.pool, patient, [{ systolic: 121 }, { systolic: 122 }, { systolic: 123 }]);
    const { result, nodes } = await genericPlanOf(db.pool, (client) =>
      readScopedVitalPage(
        client,
        { patientId: patient, visibleOrganization: org, limit: 2, offset: 0, from: null, to: null },
        { action: 'vitals.list', outcome: 'success', resourceType: 'patient', resourceId: patient },
      ),
    );
    expect(result?.total).toBe(3);
    expect(result?.rows.map((r) => r.systolic)).toEqual([123, 122]);
    expect(seqScanned(nodes, 'observations')).toEqual([]);
    expect(seqScanned(nodes, 'audit_logs')).toEqual([]);
  });
});
