import { PARTITION_MONTHS_AHEAD } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { startTestServer, type TestServer } from '../../../test/support/http.ts';
import { PARTITION_MAINTENANCE_QUEUE, startRunKey } from './partitions.jobs.ts';
import { monthsBefore } from './partitions.service.ts';

/**
 * Two instances of the portal started together on one database: the maintenance runs at start
 * once, by one of them, and makes the month tables ahead.
 */
let db: TestDatabase;
const servers: TestServer[] = [];
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  // Both share the database: the last one's close drops it.
  const last = servers.pop();
  for (const s of servers) {
    await s.app.close();
    await s.identity.close();
  }
  if (last) await last.close();
  else await db?.drop();
});

describe('partition maintenance with two app instances', () => {
  it('runs once at start, by one instance, and makes the month tables ahead', async () => {
    const furthest = monthsBefore(new Date(), -PARTITION_MONTHS_AHEAD);
    const table = `observations_y${furthest.slice(0, 4)}m${furthest.slice(5, 7)}`;
    // The template made it at its migration: take it away (empty) to see it made again.
    await db.ownerPool.query(`ALTER TABLE observations DETACH PARTITION partitions.${table}`);
    await db.ownerPool.query(`DROP TABLE partitions.${table}`);
    const there = async () =>
      (await db.ownerPool.query(`SELECT to_regclass($1) IS NOT NULL AS t`, [`partitions.${table}`])).rows[0]
        .t as boolean;
    expect(await there()).toBe(false);

    const runKey = startRunKey();
    servers.push(...(await Promise.all([startTestServer({}, db), startTestServer({}, db)])));
    const started = Date.now();
    while (!(await there()) && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 200));
    expect(await there()).toBe(true);
    await new Promise((r) => setTimeout(r, 2_000));
    const jobs = await db.pool.query(`SELECT state, singleton_key FROM pgboss.job WHERE name = $1`, [
      PARTITION_MAINTENANCE_QUEUE,
    ]);
    expect(jobs.rows).toEqual([{ state: 'completed', singleton_key: runKey }]);
    const ran = servers.map(
      (s) =>
        s
          .logs()
          .split('\n')
          .filter((l) => l.includes('partition maintenance done')).length,
    );
    expect(ran.sort()).toEqual([0, 1]);
  }, 90_000);
});
