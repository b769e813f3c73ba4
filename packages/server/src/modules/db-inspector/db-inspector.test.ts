import { DB_SAMPLE_MAX_ROWS, type DbSampleResponse, type DbSchemaResponse, type DbTablesResponse } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrganization,
  startTestServer,
  type ApiClient,
  type TestServer,
  signInNewStaff,
} from '../../../test/support/http.ts';
import { testKeys } from '../../../test/db.ts';
import { loadOrCreateSettings } from '../identity/index.ts';
import { SECRET_COLUMN_PATTERN } from './db-inspector.service.ts';
import { buildDevice } from '../../../test/support/factories.ts';

let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  const org = await createOrganization(server);
  admin = await signInNewStaff(server, 'admin', org.id);
  for (let g = 1; g <= 80; g++) await buildDevice(server.db.pool, { deviceId: `D-${g}`, model: 'BP5' });
});
afterAll(async () => server?.close());

describe('GET /api/db/tables', () => {
  it('lists the portal’s own tables only', async () => {
    const res = await admin.get<DbTablesResponse>('/api/db/tables');
    expect(res.status).toBe(200);
    expect(res.body.tables).toEqual(expect.arrayContaining(['users', 'patients', 'devices', 'audit_logs', 'organizations']));
    expect(res.body.tables).not.toContain('sessions');
    expect(res.body.tables).not.toContain('schema_migrations');
    for (const t of res.body.tables) expect(t).not.toMatch(/identity|pg_|\./);
  });
});

describe('GET /api/db/schema/{table}', () => {
  it('describes the columns and names the withheld ones', async () => {
    const res = await admin.get<DbSchemaResponse>('/api/db/schema/users');
    expect(res.status).toBe(200);
    const names = res.body.columns.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['id', 'email', 'role', 'status']));
    expect(res.body.columns.find((c) => c.name === 'email')).toEqual({ name: 'email', type: 'text', nullable: false });
    expect(res.body.columns.find((c) => c.name === 'middle_name')?.nullable).toBe(true);
    expect(res.body.withheld).toEqual(expect.arrayContaining(['cognito_username', 'cognito_sub', 'password_changed_at']));
    for (const n of names) expect(n).not.toMatch(SECRET_COLUMN_PATTERN);
  });
});

describe('GET /api/db/sample/{table}', () => {
  it('answers at most the sample limit, with withheld columns absent from every row', async () => {
    const res = await admin.get<DbSampleResponse>('/api/db/sample/devices');
    expect(res.status).toBe(200);
    expect(res.body.rows).toHaveLength(DB_SAMPLE_MAX_ROWS);
    const users = await admin.get<DbSampleResponse>('/api/db/sample/users');
    expect(users.body.rows.length).toBeGreaterThan(0);
    for (const row of users.body.rows) {
      expect(Object.keys(row)).not.toContain('cognito_sub');
      expect(Object.keys(row)).not.toContain('password_changed_at');
    }
    const subs = await server.db.pool.query<{ cognito_sub: string; cognito_username: string }>(
      'SELECT cognito_sub, cognito_username FROM users WHERE cognito_sub IS NOT NULL',
    );
    expect(subs.rows.length).toBeGreaterThan(0);
    for (const s of subs.rows) {
      expect(JSON.stringify(users.body)).not.toContain(s.cognito_sub);
      expect(JSON.stringify(users.body)).not.toContain(s.cognito_username);
    }
  });

  it('never shows a hash column of a table added by a later migration', async () => {
    const res = await admin.get<DbSampleResponse>('/api/db/sample/audit_chain');
    expect(res.status).toBe(200);
    expect(res.body.withheld).toEqual(expect.arrayContaining(['prev_hash', 'hash']));
    for (const row of res.body.rows) expect(Object.keys(row).some((k) => SECRET_COLUMN_PATTERN.test(k))).toBe(false);
  });

  it('reads as a role that cannot see withheld columns or sessions, even if asked directly', async () => {
    const client = await server.db.pool.connect();
    try {
      await client.query('BEGIN READ ONLY');
      await client.query('SET LOCAL ROLE rpm_inspector');
      await expect(client.query('SELECT cognito_sub FROM users LIMIT 1')).rejects.toThrow(/permission denied/);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
    const c2 = await server.db.pool.connect();
    try {
      await c2.query('BEGIN READ ONLY');
      await c2.query('SET LOCAL ROLE rpm_inspector');
      await expect(c2.query('SELECT user_id FROM sessions LIMIT 1')).rejects.toThrow(/permission denied/);
      await c2.query('ROLLBACK');
      await c2.query('BEGIN READ ONLY');
      await c2.query('SET LOCAL ROLE rpm_inspector');
      await expect(c2.query('SELECT count(*) FROM identity.users')).rejects.toThrow(/permission denied/);
    } finally {
      await c2.query('ROLLBACK');
      c2.release();
    }
  });

  const HOSTILE = [
    'users; drop table x',
    '"identity"."users"',
    'identity.users',
    'pg_authid',
    'pg_catalog.pg_authid',
    '../etc',
    'sessions',
    'schema_migrations',
    'USERS',
    "users' OR '1'='1",
    'x'.repeat(180),
  ];
  it.each(HOSTILE)('refuses %s without an error 500', async (name) => {
    for (const kind of ['schema', 'sample']) {
      const res = await admin.get(`/api/db/${kind}/${encodeURIComponent(name)}`);
      expect([400, 404]).toContain(res.status);
    }
  });

  it('left the database intact and audited every view', async () => {
    const { rows } = await server.db.pool.query<{ action: string; outcome: string; n: number }>(
      `SELECT action, outcome, count(*)::int AS n FROM audit_logs WHERE action LIKE 'db.%' GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        { action: 'db.tables', outcome: 'success', n: 1 },
        { action: 'db.schema', outcome: 'success', n: 1 },
        { action: 'db.sample', outcome: 'success', n: 3 },
        { action: 'db.schema', outcome: 'failure', n: HOSTILE.length },
        { action: 'db.sample', outcome: 'failure', n: HOSTILE.length },
      ]),
    );
    expect((await server.db.pool.query(`SELECT to_regclass('public.users') AS t`)).rows[0].t).toBe('users');
  });
});

describe('key material', () => {
  it('is never shown: no table sample holds the audit key, the master key or the pool keys', async () => {
    const settings = await loadOrCreateSettings(server.db.pool, testKeys.masterKey);
    const secrets = [
      ...[testKeys.auditHmacKey, testKeys.masterKey, settings.data_key].flatMap((k) => [k.toString('hex'), k.toString('base64')]),
      settings.admin_secret_access_key,
      String(settings.signing_private_jwk.d),
    ];
    const tables = (await admin.get<DbTablesResponse>('/api/db/tables')).body.tables;
    expect(tables).toEqual(expect.arrayContaining(['audit_chain', 'audit_unsealed']));
    for (const table of tables) {
      const res = await admin.get<DbSampleResponse>(`/api/db/sample/${table}`);
      expect(res.status).toBe(200);
      const text = JSON.stringify(res.body);
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });
});
