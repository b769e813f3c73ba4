import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPool } from '../src/db/pool.ts';

export const TEMPLATE_DB = 'rpm_test_template';

/**
 * The keys a test file's portal runs with (keys.ts); one pair per test file, so that a restart
 * within a file finds the same ones.
 */
export const testKeys = { auditHmacKey: randomBytes(32), masterKey: randomBytes(32) };

export interface TestDatabase {
  /** As the portal's runtime role: not a superuser, not the owner, DML only. */
  pool: pg.Pool;
  url: string;
  /** As the owner, for what only an owner may do (a test playing a database administrator). */
  ownerPool: pg.Pool;
  ownerUrl: string;
  drop(): Promise<void>;
}

/**
 * A fresh, fully migrated database of its own on the run's real PostgreSQL; with `empty`, one
 * with nothing in it (a migration's test applies the migrations itself, as an upgrade would).
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = inject('postgresAdminUrl');
  const name = `rpm_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // A template can be copied by one session at a time; retry briefly when files race.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name}${options.empty ? '' : ` TEMPLATE ${TEMPLATE_DB}`}`);
        break;
      } catch (err) {
        if (attempt >= 20 || !/being accessed by other users/.test((err as Error).message)) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const ownerUrl = u.toString();
  const ownerPool = createPool(ownerUrl, 2);
  const runtime = inject('postgresRuntimeUser');
  u.username = runtime.role;
  u.password = runtime.password;
  const url = u.toString();
  const pool = createPool(url, 5);
  return {
    pool,
    url,
    ownerPool,
    ownerUrl,
    async drop() {
      await pool.end();
      await ownerPool.end();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
