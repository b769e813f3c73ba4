/**
 * A throw-away database for a benchmark on the PostgreSQL server in DATABASE_URL: created
 * empty, and dropped (with any sessions still on it) by `drop()`.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createPool } from '../src/db/pool.ts';

export async function createBenchDatabase(poolSize: number): Promise<{ pool: pg.Pool; drop: () => Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('set DATABASE_URL to a PostgreSQL server where databases may be created');
  const name = `rpm_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = createPool(url.toString(), poolSize);
  const drop = async () => {
    await pool.end();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  };
  return { pool, drop };
}
