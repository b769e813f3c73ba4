import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { sql } from 'kysely';
import { kysely, template } from './kysely.ts';
import { createPool, poolUsage, preparedStatementTarget } from './pool.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

describe('connection settings', () => {
  it('run every connection with JIT compilation off, whatever the server default', async () => {
    const pool = createPool(db.url, 1);
    try {
      const jit = async (q: { query: (text: string) => Promise<{ rows: { jit: string }[] }> }) =>
        (await q.query('SHOW jit')).rows[0]!.jit;
      expect(await jit(pool)).toBe('off');
      expect(await jit(preparedStatementTarget(pool))).toBe('off');
    } finally {
      await pool.end();
    }
  });
});

describe('prepared statements', () => {
  it('run on connections that plan them once, generically; every other statement as before', async () => {
    const pool = createPool(db.url, 2);
    try {
      const mode = async (q: { query: (text: string) => Promise<{ rows: { plan_cache_mode: string }[] }> }) =>
        (await q.query('SHOW plan_cache_mode')).rows[0]!.plan_cache_mode;
      expect(await mode(pool)).toBe('auto');
      expect(await mode(preparedStatementTarget(pool))).toBe('force_generic_plan');

      // A statement whose custom plans PostgreSQL would keep choosing: LIMIT and OFFSET parameters.
      const page = template<{ limit: number; offset: number }, { n: number }>(
        'pool_test_page',
        ['limit', 'offset'],
        (p) =>
          sql<{
            n: number;
          }>`SELECT g AS n FROM generate_series(1, 100000) g ORDER BY g LIMIT ${p.limit} OFFSET ${p.offset}`.compile(
            kysely(pool),
          ),
      );
      for (let i = 0; i < 8; i++)
        expect((await page.run(pool, { limit: 2, offset: i })).map((r) => r.n)).toEqual([i + 1, i + 2]);
      // The prepared connection answered (the pool holds one), and planned the statement once.
      const target = preparedStatementTarget(pool);
      const client = await (target as typeof pool).connect();
      try {
        const { rows } = await client.query<{ generic_plans: number; custom_plans: number }>(
          `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'pool_test_page'`,
        );
        expect(rows).toEqual([{ generic_plans: 8, custom_plans: 0 }]);
      } finally {
        client.release();
      }
      expect(poolUsage(pool)).toEqual({ inUse: 0, waiting: 0 });
    } finally {
      await pool.end();
    }
    // Both sets of connections are closed.
    await expect(preparedStatementTarget(pool).query('SELECT 1')).rejects.toThrow();
  });
});

describe('plan renewal', () => {
  // A connection keeps a statement's generic plan until something invalidates it, and growth of a
  // table does not until it is analyzed (the alert windows' own statement once
  // scanned every month table that way). The plan's staleness is simulated here by the planner's
  // own switches, which a cached plan also ignores: planned with index scans off, the statement
  // keeps its seq scan after they are back on, until the connection's plans are dropped.
  // The statement reads a table of its own that autovacuum leaves alone: an ANALYZE of a shared
  // table during the wait (other tests write patients) invalidated the cached plan, and the
  // "stale plan stays" half failed once in CI on a busy server.
  const planOf = async (lifetimeMs: number): Promise<string> => {
    await db.ownerPool.query(
      `CREATE TABLE IF NOT EXISTS pool_test_renewal_rows (id int PRIMARY KEY) WITH (autovacuum_enabled = off);
       GRANT SELECT ON pool_test_renewal_rows TO "${new URL(db.url).username}"`,
    );
    const pool = createPool(db.url, 1, { planLifetimeMs: lifetimeMs });
    const target = preparedStatementTarget(pool) as typeof pool;
    try {
      const first = await target.connect();
      try {
        await first.query('SET enable_indexscan = off; SET enable_bitmapscan = off');
        await first.query({ name: 'pool_test_renewal', text: 'SELECT id FROM pool_test_renewal_rows WHERE id = $1', values: [1] });
        await first.query('SET enable_indexscan = on; SET enable_bitmapscan = on; SET enable_seqscan = off');
      } finally {
        first.release();
      }
      await new Promise((r) => setTimeout(r, lifetimeMs === Infinity ? 1_100 : lifetimeMs + 100));
      const again = await target.connect();
      try {
        const { rows } = await again.query<{ 'QUERY PLAN': string }>('EXPLAIN EXECUTE pool_test_renewal(1)');
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        again.release();
      }
    } finally {
      await pool.end();
    }
  };

  it("drops a connection's cached plans once they are older than their lifetime, and plans again for the tables as they are", async () => {
    expect(await planOf(1_000)).toMatch(/Index (Only )?Scan/);
    // Without a lifetime the stale plan stays: what the test above would see without renewal.
    expect(await planOf(Infinity)).toMatch(/Seq Scan/);
  });
});
