// bench-alert-burden --demo: the share of patients with an open high or critical alert in a live database.
import type pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.ts';
import { createPool } from '../src/db/pool.ts';
/** Share of patients with an open high or critical alert the demo database should stay under. */
const DEMO_TARGET = 0.2;

// --- --demo: the burden on a live database ---------------------------------------------------

export async function demo() {
  const config = loadConfig();
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort }).catch(
      (err: unknown) => {
        console.error(
          `bench-alert-burden: cannot open the portal's embedded database in ${config.dataDir} (stop the portal, or set DATABASE_URL): ` +
            (err instanceof Error ? err.message : String(err)),
        );
        return process.exit(1);
      },
    );
    url = embedded.url;
  }
  const pool: pg.Pool = createPool(url, 1);
  try {
    const client = await pool.connect();
    try {
      await client.query('BEGIN READ ONLY');
      const { rows } = await client.query<{ scope: string; patients: number; burdened: number }>(
        `SELECT scope, count(*)::int AS patients,
                count(*) FILTER (WHERE EXISTS (SELECT 1 FROM alerts a WHERE a.patient_id = p.id
                                               AND a.status <> 'resolved' AND a.severity <> 'info'))::int AS burdened
           FROM patients p, LATERAL (VALUES ('all patients'), (CASE WHEN p.enrolled_rpm THEN 'RPM-enrolled' END)) s(scope)
          WHERE scope IS NOT NULL
          GROUP BY scope ORDER BY scope`,
      );
      await client.query('COMMIT');
      for (const r of rows) {
        const share = r.patients ? r.burdened / r.patients : 0;
        console.log(
          `${r.scope}: ${r.patients} patients, ${r.burdened} with an open (not resolved) high or critical alert = ` +
            `${(100 * share).toFixed(1)} %`,
        );
      }
      const all = rows.find((r) => r.scope === 'all patients');
      const share = all && all.patients ? all.burdened / all.patients : 0;
      console.log(
        `TARGET under 1 in 5 patients with an open high/critical alert: ${share < DEMO_TARGET ? 'yes' : 'NO'} (${(100 * share).toFixed(1)} %)`,
      );
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
    await embedded?.stop();
  }
}
