/**
 * `npm run audit:verify`: checks the audit log's hash chain against the portal's database
 * (DATABASE_URL, or the embedded one in DATA_DIR, which must not be in use by a running portal).
 * Exit 0 when intact, 1 when anything was altered, deleted or inserted out of band.
 */
import { loadConfig } from '../../config.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../db/embedded.ts';
import { createPool } from '../../db/pool.ts';
import { verifyAuditChain } from './audit-chain.ts';

const config = loadConfig();
let embedded: EmbeddedDatabase | undefined;
let url = config.databaseUrl;
if (!url) {
  embedded = await startEmbeddedPostgres({ dataDir: config.dataDir });
  url = embedded.url;
}
const pool = createPool(url, 2);
try {
  const report = await verifyAuditChain(pool);
  for (const p of report.problems) {
    console.log(`${p.kind.toUpperCase()}: audit record ${p.logId}${p.seq ? ` (chain link ${p.seq})` : ''}: ${p.detail}`);
  }
  console.log(`checked ${report.checked} chained records; ${report.problems.length} problem(s)`);
  if (report.head) console.log(`chain head: link ${report.head.seq} ${report.head.hash}`);
  process.exitCode = report.problems.length ? 1 : 0;
} finally {
  await pool.end();
  await embedded?.stop();
}
