import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { ensureRuntimeRole, grantRuntimeRole } from '../src/db/runtime-role.ts';
import { TEMPLATE_DB } from './db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    /** The same server as the run's runtime role: what the portal's queries run as. */
    postgresRuntimeUser: { role: string; password: string };
  }
}

/**
 * One real PostgreSQL for the whole run: the system one when DATABASE_URL is set (it must point
 * at a server where we may create databases), otherwise an embedded one in a temporary folder.
 * A fully migrated template database makes each test file's fresh database a fast copy; the
 * runtime role's grants are copied with it, so that tests query as the portal does in production.
 * The role is this run's own (roles are cluster-wide: two runs on one server must not share one).
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | undefined;
  let dataDir: string | undefined;
  let adminUrl: string;
  if (process.env.DATABASE_URL) {
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = '/postgres';
    adminUrl = u.toString();
  } else {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'rpm-test-pg-'));
    embedded = await startEmbeddedPostgres({ dataDir, database: 'postgres' });
    adminUrl = embedded.url;
  }

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB}`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  await admin.end();
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${TEMPLATE_DB}`;
  const pool = new pg.Pool({ connectionString: templateUrl.toString(), max: 1 });
  await runMigrations(pool);
  const runtime = { role: `rpm_test_app_${randomBytes(5).toString('hex')}`, password: randomBytes(24).toString('base64url') };
  await ensureRuntimeRole(pool, runtime.role, runtime.password);
  await grantRuntimeRole(pool, runtime.role);
  await pool.end();

  project.provide('postgresAdminUrl', adminUrl);
  project.provide('postgresRuntimeUser', runtime);

  return async () => {
    if (embedded) await embedded.stop();
    else await dropRuntimeRole(adminUrl, runtime.role).catch(() => {});
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  };
}

/** On a shared server: the role goes with the run, once its databases are gone. */
async function dropRuntimeRole(adminUrl: string, role: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
    await admin.query(`DROP ROLE IF EXISTS ${pg.escapeIdentifier(role)}`);
  } finally {
    await admin.end();
  }
}
