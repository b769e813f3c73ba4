import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../db.ts';

/**
 * The database of a service test file: a fresh, migrated one on the run's real PostgreSQL,
 * reached as the portal's runtime role. Services are called directly: no HTTP, no sign-in.
 */
export function serviceDatabase(): { readonly pool: pg.Pool } {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db?.drop());
  return {
    get pool() {
      if (!db) throw new Error('the service database is opened in beforeAll');
      return db.pool;
    },
  };
}
