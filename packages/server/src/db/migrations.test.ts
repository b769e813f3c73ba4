import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { bootstrapPortal } from './bootstrap.ts';
import { runMigrations } from './migrate.ts';
import { createPool } from './pool.ts';
import { assertRestrictedRole } from './runtime-role.ts';

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
      'observations',
      'notes',
      'tracking_entries',
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
    expect(await runMigrations(db.ownerPool)).toEqual([]);
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
    // Even for the tables' owner: the triggers hold whoever runs the statement.
    await db.ownerPool.query(`INSERT INTO audit_logs (action, outcome) VALUES ('test.append', 'success')`);
    await expect(db.ownerPool.query(`UPDATE audit_logs SET action = 'x'`)).rejects.toThrow(/append-only/);
    await expect(db.ownerPool.query(`DELETE FROM audit_logs`)).rejects.toThrow(/append-only/);
    await expect(db.ownerPool.query(`TRUNCATE audit_logs`)).rejects.toThrow(/append-only/);
  });
});

describe('the runtime role the portal queries as', () => {
  it('is no superuser and owns nothing', async () => {
    const { rows } = await db.pool.query<{ rolsuper: boolean; owned: number }>(
      `SELECT rolsuper, (SELECT count(*)::int FROM pg_class WHERE relowner = r.oid) AS owned
         FROM pg_roles r WHERE rolname = current_user`,
    );
    expect(rows[0]).toEqual({ rolsuper: false, owned: 0 });
    await expect(assertRestrictedRole(db.pool)).resolves.toBeUndefined();
    await expect(assertRestrictedRole(db.ownerPool)).rejects.toThrow(/superuser/);
  });

  it('writes and reads the audit trail, but cannot switch off its triggers, change or empty it', async () => {
    await db.pool.query(`INSERT INTO audit_logs (action, outcome) VALUES ('runtime.append', 'success')`);
    expect((await db.pool.query(`SELECT 1 FROM audit_logs WHERE action = 'runtime.append'`)).rowCount).toBe(1);
    for (const sql of [
      `ALTER TABLE audit_logs DISABLE TRIGGER audit_logs_no_update_delete`,
      `ALTER TABLE audit_logs DISABLE TRIGGER ALL`,
      `ALTER TABLE audit_chain DISABLE TRIGGER audit_chain_no_update_delete`,
      `UPDATE audit_logs SET action = 'x'`,
      `DELETE FROM audit_logs`,
      `TRUNCATE audit_logs`,
      `UPDATE audit_chain SET hash = '\\x00'`,
      `DELETE FROM audit_chain`,
      `TRUNCATE audit_chain`,
      `DROP TABLE audit_chain`,
      `DROP TRIGGER audit_logs_enqueue ON audit_logs`,
      `SET session_replication_role = replica`,
      `CREATE TABLE public.scratch (n int)`,
      `SELECT rpm_grant_runtime_role(current_user)`,
    ]) {
      await expect(db.pool.query(sql), sql).rejects.toThrow(/permission denied|must be owner|must be superuser/);
    }
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

// Moved here from the patient list's tests: it is a test of a migration, on a database of its own.
describe('enrollment status list', () => {
  it('maps the free-text values of before, keeping an unknown one visible as the previous status', async () => {
    // A database at the migration before the list, with the kinds of values clinics typed.
    const adminUrl = inject('postgresAdminUrl');
    const name = `rpm_test_status_${Date.now()}`;
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`CREATE DATABASE ${name}`);
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    const pool = createPool(u.toString(), 2);
    try {
      await runMigrations(pool, { before: '0761' });
      const org = await pool.query<{ id: number }>(`INSERT INTO organizations (name) VALUES ('Old') RETURNING id`);
      const before = ['Active', 'active', ' Enrolled ', 'ON HOLD', 'discharged', 'Declined', 'Waiting for cuff', '  ', null];
      for (const [i, s] of before.entries()) {
        await pool.query(`INSERT INTO patients (first_name, last_name, organization_id, enrollment_status) VALUES ($1, 'Old', $2, $3)`, [
          `P${i}`,
          org.rows[0]!.id,
          s,
        ]);
      }
      expect(await runMigrations(pool)).toContain('0761_enrollment_status_list.sql');
      const { rows } = await pool.query<{ enrollment_status: string | null; enrollment_status_legacy: string | null }>(
        `SELECT enrollment_status, enrollment_status_legacy FROM patients ORDER BY id`,
      );
      expect(rows).toEqual([
        { enrollment_status: 'Active', enrollment_status_legacy: null },
        { enrollment_status: 'Active', enrollment_status_legacy: null },
        { enrollment_status: 'Active', enrollment_status_legacy: null },
        { enrollment_status: 'Paused', enrollment_status_legacy: null },
        { enrollment_status: 'Discharged', enrollment_status_legacy: null },
        { enrollment_status: 'Declined', enrollment_status_legacy: null },
        { enrollment_status: null, enrollment_status_legacy: 'Waiting for cuff' },
        { enrollment_status: null, enrollment_status_legacy: null },
        { enrollment_status: null, enrollment_status_legacy: null },
      ]);
    } finally {
      await pool.end();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    }
  });
});
