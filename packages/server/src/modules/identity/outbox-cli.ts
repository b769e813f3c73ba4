/**
 * `npm run outbox`: prints the user pool's undelivered messages (invitations with a temporary
 * password, reset codes) from the portal's database (DATABASE_URL, or the embedded one in
 * DATA_DIR, which must not be in use by a running portal), for an operator who has no SMTP
 * server to deliver them by. `npm run outbox -- --mark-delivered` marks the printed ones.
 * The output holds secrets: show it to no one but the recipients.
 */
import { loadConfig } from '../../config.ts';
import { withCliDatabase } from '../../db/cli-database.ts';
import { printUndelivered } from './mailer.ts';

const config = loadConfig();
await withCliDatabase(config, (pool) =>
  printUndelivered(pool, (text) => process.stdout.write(text), { markDelivered: process.argv.includes('--mark-delivered') }),
);
