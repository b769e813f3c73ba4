import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { startAlertJobs, STALE_CHECK_QUEUE, type AlertJobs } from './alerts.jobs.ts';

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
          runStaleCheck: async () => {
            runs[i]!++;
          },
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
      const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM pgboss.schedule WHERE name = $1', [STALE_CHECK_QUEUE]);
      expect(rows[0].n).toBe(1);
    } finally {
      for (const j of instances) await j.stop();
    }
  });
});
