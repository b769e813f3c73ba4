import { bloodPressure } from '@rpm/contracts';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, preparedStatementTarget } from '../../db/pool.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import {
  buildManyReadings,
  buildOrganization,
  buildPatient,
  buildStoredReadings,
} from '../../../test/support/factories.ts';
import { genericPlanOf, seqScanned } from '../../../test/support/plans.ts';
import { monthBounds } from './billing-rules.ts';
import { worklistDetails } from './billing.details.repository.ts';

/*
 * The worklist's triage columns are a named statement (worklistDetails): a connection keeps its
 * generic plan, made before the month's bounds are known. That plan must still leave out the month
 * tables of observations outside the window when it starts, and must not read a month table whole
 * because it was nearly empty when planned (a new month): the month tables grow by the minute.
 */

let db: TestDatabase;
let pool: pg.Pool;
beforeAll(async () => {
  db = await createTestDatabase();
  // Nothing analyzes the month tables during the test (see alerts.windows.plan.test.ts).
  await db.ownerPool.query(`
    DO $$ DECLARE t regclass; BEGIN
      FOR t IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'observations'::regclass LOOP
        EXECUTE format('ALTER TABLE %s SET (autovacuum_enabled = false)', t);
      END LOOP;
    END $$`);
  pool = createPool(db.url, 1, { planLifetimeMs: Infinity });
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

describe("the worklist's triage columns, in the generic plan a connection keeps", () => {
  it('probe the month tables by patient and time, and only those of the window, after the tables grew', async () => {
    const org = (await buildOrganization(db.pool)).id;
    const patient = await buildPatient(db.pool, { organizationId: org, enrolledRpm: true, enrollmentStatus: 'Active' });
    const other = await buildPatient(db.pool, { organizationId: org, enrolledRpm: true, enrollmentStatus: 'Active' });
    const [latest] = (await buildStoredReadings(db.pool, patient, [{ at: { ago: '1 hour' }, systolic: 141 }])).slice(-1);
    const { start, end } = monthBounds(new Date().toISOString().slice(0, 7));
    // Planned now, on the pool's prepared connection, with the month tables nearly empty.
    await worklistDetails(pool, start, end, [patient]);
    await buildManyReadings(db.pool, other, { count: 20_000, kind: bloodPressure.kind, every: '10 seconds' });

    const { result, nodes } = await genericPlanOf(preparedStatementTarget(pool) as pg.Pool, (client) =>
      worklistDetails(client, start, end, [patient, other]),
    );
    const byPatient = new Map(result.map((r) => [r.patient_id, r]));
    expect(byPatient.get(patient)?.last_reading_at?.toISOString()).toBe(latest!.at.toISOString());
    expect(byPatient.get(other)?.last_reading_at).toBeInstanceOf(Date);
    expect(seqScanned(nodes, 'observations')).toEqual([]);
    // The window's month tables are chosen as the plan starts: the month's and the next one's (the
    // window reaches two days past the month), never the default table of readings outside every
    // month table. The whole history is probed only for a patient with no reading in the window.
    const window = nodes.find((n) => (n['Subplans Removed'] ?? 0) > 0);
    const probed = (window?.Plans ?? []).map((n) => n['Relation Name']);
    expect(probed.length).toBeGreaterThan(0);
    expect(probed.length).toBeLessThanOrEqual(2);
    expect(probed.every((name) => name?.startsWith('observations_y'))).toBe(true);
  });
});
