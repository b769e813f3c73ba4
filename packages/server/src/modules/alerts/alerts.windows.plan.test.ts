import { bloodPressure } from '@rpm/contracts';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, preparedStatementTarget } from '../../db/pool.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { buildManyReadings, buildOrganization, buildPatient, buildReadings } from '../../../test/support/factories.ts';
import { genericPlanOf, seqScanned } from '../../../test/support/plans.ts';
import { windowsOf } from './alerts.window.repository.ts';

/*
 * The alert check's window read runs in every webhook call, as a statement each connection plans
 * once (generically). Planned while the month's readings table is nearly empty (a new month, a new
 * install), it reads all of that table, the cheapest way then, and a connection keeps that plan
 * as the table grows until the table is analyzed. A connection's plans are therefore dropped after a
 * lifetime (db/pool.ts), and made again for the table as it is.
 */

let db: TestDatabase;
let pool: pg.Pool;
beforeAll(async () => {
  db = await createTestDatabase();
  // Nothing analyzes the month tables during the test. An ANALYZE by autovacuum (on in the embedded
  // server) would do two things the test must not depend on: drop the stale plan itself, and tell
  // the planner that the one grown patient owns nearly every row, so that a seq scan is right.
  await db.ownerPool.query(`
    DO $$ DECLARE t regclass; BEGIN
      FOR t IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'observations'::regclass LOOP
        EXECUTE format('ALTER TABLE %s SET (autovacuum_enabled = false)', t);
      END LOOP;
    END $$`);
  // One connection of each kind, whose plans are renewed after a second instead of the portal's minute.
  pool = createPool(db.url, 1, { planLifetimeMs: 1_000 });
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

describe('the alert windows, in the generic plan the portal runs', () => {
  it('are read over the patient-and-time index once the table has grown, once the plan made on the empty table has had its lifetime', async () => {
    const org = (await buildOrganization(db.pool)).id;
    const patient = await buildPatient(db.pool, { organizationId: org, enrolledRpm: true, enrollmentStatus: 'Active' });
    const other = await buildPatient(db.pool, { organizationId: org });
    await buildReadings(db.pool, patient, [
      { at: { ago: '2 days' }, systolic: 141 },
      { at: { ago: '1 day' }, systolic: 142 },
      { at: { ago: '1 hour' }, systolic: 143 },
    ]);
    const window = [{ patientId: patient, at: new Date(), timeZone: 'UTC', days: 7 }];
    // Planned now, on the pool's prepared connection, with the readings table nearly empty.
    await windowsOf(pool, window);
    // The table grows, as in a month's first hours, faster than anything analyzes it.
    await buildManyReadings(db.pool, other, { count: 20_000, kind: bloodPressure.kind, every: '1 minute' });
    await new Promise((r) => setTimeout(r, 1_500));
    const { result, nodes } = await genericPlanOf(preparedStatementTarget(pool) as pg.Pool, (client) =>
      windowsOf(client, window),
    );
    expect(result[0]!.readings.map((r) => r.systolic)).toEqual([141, 142, 143]);
    expect(seqScanned(nodes, 'observations')).toEqual([]);
  });
});
