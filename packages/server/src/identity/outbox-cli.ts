/**
 * `npm run outbox`: prints the user pool's undelivered messages (invitations with a temporary
 * password, reset codes) from the portal's database (DATABASE_URL, or the embedded one in
 * DATA_DIR, which must not be in use by a running portal), for an operator who has no SMTP
 * server to deliver them by. `npm run outbox -- --mark-delivered` marks the printed ones.
 * The output holds secrets: show it to no one but the recipients.
 */
import { loadConfig } from '../config.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded.ts';
import { createPool } from '../db/pool.ts';
import { printUndelivered } from './mailer.ts';

const config = loadConfig();
let embedded: EmbeddedDatabase | undefined;
let url = config.databaseUrl;
if (!url) {
  embedded = await startEmbeddedPostgres({ dataDir: config.dataDir });
  url = embedded.url;
}
const pool = createPool(url, 2);
try {
  await printUndelivered(pool, (text) => process.stdout.write(text), { markDelivered: process.argv.includes('--mark-delivered') });
} finally {
  await pool.end();
  await embedded?.stop();
}
