import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { bootstrapPortal } from './bootstrap.ts';
import { runMigrations } from './migrate.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

describe('migrations', () => {
  it('create a table for every entity of the spec', async () => {
    const { rows } = await db.pool.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    const tables = rows.map((r) => r.table_name);
    for (const t of [
      'patients',
      'insurances',
      'devices',
      'vitals',
      'notes',
      'tracking_sessions',
      'users',
      'organizations',
      'audit_logs',
      'sessions',
      'roles',
    ]) {
      expect(tables).toContain(t);
    }
  });

  it('are applied once: a second run applies nothing', async () => {
    expect(await runMigrations(db.pool)).toEqual([]);
  });

  it('enforce the enumerations of the spec in the database', async () => {
    const { rows } = await db.pool.query<{ id: number }>(`INSERT INTO organizations (name) VALUES ('Enum Clinic') RETURNING id`);
    const org = rows[0]!.id;
    await expect(
      db.pool.query(`INSERT INTO patients (first_name, last_name, organization_id, gender) VALUES ('a', 'b', $1, 'robot')`, [org]),
    ).rejects.toThrow(/patients_gender_check/);
    const p = await db.pool.query<{ id: number }>(
      `INSERT INTO patients (first_name, last_name, organization_id) VALUES ('a', 'b', $1) RETURNING id`,
      [org],
    );
    await expect(
      db.pool.query(`INSERT INTO insurances (patient_id, type) VALUES ($1, 'Gold')`, [p.rows[0]!.id]),
    ).rejects.toThrow(/insurances_type_check/);
    await expect(
      db.pool.query(`INSERT INTO insurances (patient_id, type, policyholder) VALUES ($1, 'Medicare', 'x')`, [p.rows[0]!.id]),
    ).rejects.toThrow(/insurances_policyholder_private/);
  });

  it('make the audit log append-only in the database itself', async () => {
    await db.pool.query(`INSERT INTO audit_logs (action, outcome) VALUES ('test.append', 'success')`);
    await expect(db.pool.query(`UPDATE audit_logs SET action = 'x'`)).rejects.toThrow(/append-only/);
    await expect(db.pool.query(`DELETE FROM audit_logs`)).rejects.toThrow(/append-only/);
    await expect(db.pool.query(`TRUNCATE audit_logs`)).rejects.toThrow(/append-only/);
  });
});

describe('bootstrap', () => {
  it('creates one organization and the first admin once', async () => {
    const fresh = await createTestDatabase();
    try {
      const opts = { adminEmail: 'Boss@Example.com', organizationName: 'First Clinic' };
      expect(await bootstrapPortal(fresh.pool, opts)).toEqual({ created: true });
      expect(await bootstrapPortal(fresh.pool, opts)).toEqual({ created: false });
      const { rows } = await fresh.pool.query(`SELECT email, role, status FROM users`);
      expect(rows).toEqual([{ email: 'boss@example.com', role: 'admin', status: 'active' }]);
      const orgs = await fresh.pool.query(`SELECT name FROM organizations`);
      expect(orgs.rows).toEqual([{ name: 'First Clinic' }]);
    } finally {
      await fresh.drop();
    }
  });
});
