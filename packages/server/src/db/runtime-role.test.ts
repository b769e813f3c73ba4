import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { createPool } from './pool.ts';
import { assertRestrictedRole, derivedRuntimeRole, prepareRuntimeRole } from './runtime-role.ts';

let db: TestDatabase;
const masterKey = randomBytes(32);
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
  // The role this test derived is the cluster's; it goes once its database is gone.
  const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
  await admin.connect();
  await admin
    .query(`DROP ROLE IF EXISTS ${pg.escapeIdentifier(derivedRuntimeRole(db.ownerUrl, masterKey).role)}`)
    .catch(() => {});
  await admin.end();
});

describe('the runtime role the portal derives from its owner connection', () => {
  it('is created once by concurrent starts, and answers a restricted connection', async () => {
    const urls = await Promise.all(
      Array.from({ length: 4 }, () =>
        prepareRuntimeRole(db.ownerPool, { ownerUrl: db.ownerUrl, runtimeUrl: undefined, masterKey }),
      ),
    );
    expect(new Set(urls).size).toBe(1);
    const role = derivedRuntimeRole(db.ownerUrl, masterKey).role;
    expect(role).toMatch(/^rpm_test_[0-9a-f]+_app$/);
    const runtime = createPool(urls[0]!, 1);
    try {
      await expect(assertRestrictedRole(runtime)).resolves.toBeUndefined();
      const { rows } = await runtime.query<{ user: string }>('SELECT current_user AS user');
      expect(rows[0]!.user).toBe(role);
      await runtime.query(`INSERT INTO audit_logs (action, outcome) VALUES ('derived.role', 'success')`);
      await expect(runtime.query(`UPDATE audit_logs SET action = 'x'`)).rejects.toThrow(/permission denied/);
    } finally {
      await runtime.end();
    }
  });

  it('refuses a DATABASE_RUNTIME_URL naming the owner itself', async () => {
    await expect(
      prepareRuntimeRole(db.ownerPool, { ownerUrl: db.ownerUrl, runtimeUrl: db.ownerUrl, masterKey }),
    ).rejects.toThrow(/another role/);
  });
});
