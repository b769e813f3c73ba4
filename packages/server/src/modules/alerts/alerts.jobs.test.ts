import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { buildOrganization, buildPatient } from '../../../test/support/factories.ts';
import { startAlertJobs, STALE_CHECK_QUEUE, type AlertJobs } from './alerts.jobs.ts';
import { requestReevaluation } from './alerts.reevaluation.ts';

let db: TestDatabase;
const log = pino({ level: 'silent' });
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

describe('the stale-data job', () => {
  it('runs once per run with two instances on one database, as the portal’s runtime role', async () => {
    const runs = [0, 0];
    const instances: AlertJobs[] = [];
    for (const i of [0, 1]) {
      instances.push(
        await startAlertJobs({
          pool: db.pool,
          log,
          pollingIntervalSeconds: 0.5,
          // A real cron tick during the count would add a second, legitimate run (the default ticks at :07 each hour; seen in CI).
          cron: '0 0 1 1 *',
          escalationCron: '0 0 1 1 *',
          runStaleCheck: async () => {
            runs[i]!++;
          },
          runEscalationCheck: async () => undefined,
          reevaluate: async () => undefined,
        }),
      );
    }
    try {
      // Both instances are asked for the same run (as both clocks tick at once): one job is queued.
      const ids = await Promise.all(instances.map((j) => j.requestStaleCheck('run-1')));
      expect(ids.filter((id) => id !== null)).toHaveLength(1);
      const started = Date.now();
      while (runs[0]! + runs[1]! < 1 && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 1500));
      expect(runs[0]! + runs[1]!).toBe(1);
      // The cron schedule is one row, whichever instance registered it last.
      const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM pgboss.schedule WHERE name = $1', [
        STALE_CHECK_QUEUE,
      ]);
      expect(rows[0].n).toBe(1);
    } finally {
      for (const j of instances) await j.stop();
    }
  });
});

describe('the re-evaluation job', () => {
  it('re-evaluates the patients a change asked for (an organization: its actively enrolled ones) once, and audits it', async () => {
    const org = (await buildOrganization(db.pool)).id;
    const active = await buildPatient(db.pool, { organizationId: org, enrolledRpm: true, enrollmentStatus: 'Active' });
    await buildPatient(db.pool, { organizationId: org, enrolledRpm: true, enrollmentStatus: 'Discharged' });
    const calls: number[][] = [];
    const instances: AlertJobs[] = [];
    for (const _ of [0, 1]) {
      instances.push(
        await startAlertJobs({
          pool: db.pool,
          log,
          pollingIntervalSeconds: 0.5,
          cron: '0 0 1 1 *',
          escalationCron: '0 0 1 1 *',
          runStaleCheck: async () => undefined,
          runEscalationCheck: async () => undefined,
          reevaluate: async (ids) => {
            calls.push(ids);
          },
        }),
      );
    }
    try {
      await requestReevaluation(db.pool, { cause: 'organization-settings', organization_id: org });
      await requestReevaluation(db.pool, { cause: 'programs', patient_ids: [active] });
      const started = Date.now();
      while (calls.length < 2 && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 1000));
      expect(calls).toHaveLength(2);
      expect(calls).toEqual(expect.arrayContaining([[active], [active]]));
      const { rows } = await db.ownerPool.query(
        `SELECT resource_type, details FROM audit_logs WHERE action = 'alert.reevaluate' ORDER BY id`,
      );
      expect(rows).toEqual(
        expect.arrayContaining([
          { resource_type: 'organization', details: { cause: 'organization-settings', patient_ids: [active] } },
          { resource_type: 'patient', details: { cause: 'programs', patient_ids: [active] } },
        ]),
      );
    } finally {
      for (const j of instances) await j.stop();
    }
  });
});
