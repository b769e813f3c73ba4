import type pg from 'pg';
import type { Config } from '../config.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded.ts';
import { createPool } from './pool.ts';

/**
 * Runs a command-line tool's work on the portal's database: DATABASE_URL, or the embedded one in
 * DATA_DIR (which must then not be in use by a running portal), closed again when `fn` is done.
 */
export async function withCliDatabase<T>(config: Config, fn: (pool: pg.Pool) => Promise<T>): Promise<T> {
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir });
    url = embedded.url;
  }
  const pool = createPool(url, 2);
  try {
    return await fn(pool);
  } finally {
    await pool.end();
    await embedded?.stop();
  }
}
