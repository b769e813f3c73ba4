import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

// Next to this module in the source and compiled trees (db/migrations); the bundled server entry
// (dist/server.js, one level up) finds the same directory under db/.
const here = path.dirname(fileURLToPath(import.meta.url));
const MIGRATIONS_DIR = [path.join(here, 'migrations'), path.join(here, 'db', 'migrations')].find((dir) => existsSync(dir)) ?? path.join(here, 'migrations');
// Any fixed number: it only has to be the same for every instance of the portal.
const MIGRATION_LOCK = 727_001;

/**
 * Applies the committed SQL migrations in file-name order, each in its own transaction, once.
 * An advisory lock makes concurrent start-ups of several instances safe. `before` (tests only)
 * stops at the first file named at or after it.
 */
export async function runMigrations(pool: pg.Pool, opts: { before?: string } = {}): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set(
      (await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name),
    );
    const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
    for (const file of files) {
      // Tests of a data migration stop before it, fill in old data, then run the rest.
      if (opts.before !== undefined && file >= opts.before) break;
      if (done.has(file)) continue;
      const sql = await readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
        await client.query('COMMIT');
        applied.push(file);
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(err as Error).message}`, { cause: err });
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
  return applied;
}

let migrationFiles: Promise<string[]> | undefined;

/** Committed migrations the database has not applied yet (readiness: none may be left). */
export async function pendingMigrations(pool: pg.Pool): Promise<string[]> {
  // The files do not change while the process runs: read the directory once.
  migrationFiles ??= readdir(MIGRATIONS_DIR).then((files) => files.filter((f) => f.endsWith('.sql')));
  const { rows } = await pool.query<{ name: string }>('SELECT name FROM schema_migrations');
  const done = new Set(rows.map((r) => r.name));
  return (await migrationFiles).filter((f) => !done.has(f));
}
