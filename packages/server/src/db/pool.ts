import pg from 'pg';

// Return DATE columns as 'YYYY-MM-DD' strings: a calendar date has no time zone, and turning it
// into a JS Date would shift birthdays by a day west of UTC.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
// bigint ids (vitals, audit) fit in a double for any realistic count.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function createPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  return pool;
}

/** Runs `fn` in one transaction; everything it does commits or rolls back together. */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** Either a pool or a client inside a transaction: repositories accept both. */
export type Queryable = pg.Pool | pg.PoolClient;
