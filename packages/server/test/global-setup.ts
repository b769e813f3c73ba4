import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { TEMPLATE_DB } from './db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

/**
 * One real PostgreSQL for the whole run: the system one when DATABASE_URL is set (it must point
 * at a server where we may create databases), otherwise an embedded one in a temporary folder.
 * A fully migrated template database makes each test file's fresh database a fast copy.
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
  await pool.end();

  project.provide('postgresAdminUrl', adminUrl);

  return async () => {
    if (embedded) await embedded.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  };
}
