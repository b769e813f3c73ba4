/**
 * Regenerates src/db/types.ts, the Kysely table types, from the migrated schema: a throw-away
 * embedded PostgreSQL, every migration applied, then kysely-codegen. Run after adding a migration:
 *   npm run db:types -w packages/server
 * `--verify` checks instead that the committed file is up to date (the types test does the same).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { codegenArgs } from '../src/db/codegen-args.ts';

const serverDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const verify = process.argv.includes('--verify');
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rpm-db-types-'));
const db = await startEmbeddedPostgres({ dataDir, database: 'rpm_types' });
try {
  const pool = new pg.Pool({ connectionString: db.url, max: 1 });
  await runMigrations(pool);
  await pool.end();
  execFileSync('npx', ['kysely-codegen', ...codegenArgs(db.url), ...(verify ? ['--verify'] : [])], {
    cwd: serverDir,
    stdio: 'inherit',
  });
} finally {
  await db.stop();
  await rm(dataDir, { recursive: true, force: true });
}
