/**
 * `npm run restore -- DIR [--force]`: brings a backup made by `npm run backup` back, into an empty
 * database at DATABASE_URL or an empty data directory (DATA_DIR, embedded), and its keys into
 * DATA_DIR (unless AUDIT_HMAC_KEY / PORTAL_MASTER_KEY are set, to the same keys). Refuses a
 * non-empty target without --force. The portal then starts on it as usual (`npm start`), which
 * gives its runtime role its login and privileges again.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../../config.ts';
import { runRestore } from './backup.ts';
import { readPassphrase } from './passphrase.ts';

const say = (line: string) => process.stdout.write(`restore: ${line}\n`);
try {
  const { values, positionals } = parseArgs({
    options: { force: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) throw new Error('usage: npm run restore -- BACKUP_DIR [--force]');
  const config = loadConfig();
  const passphrase = await readPassphrase({ confirm: false });
  // npm runs the script from packages/server: a relative path means where the operator typed it.
  const from = path.resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]!);
  await runRestore(config, { from, force: values.force, passphrase, say });
  say(
    'done: start the portal (npm start), then check the audit trail with npm run audit:verify -- --expect <the head you kept>',
  );
} catch (err) {
  const lines = err instanceof ConfigError ? err.problems : [(err as Error).message];
  for (const l of lines) process.stderr.write(`restore: ${l}\n`);
  process.exitCode = 1;
}
