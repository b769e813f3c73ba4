/**
 * `npm run backup [-- --out DIR]`: writes a backup of the portal's database (DATABASE_URL, or the
 * embedded one in DATA_DIR, running or not) and, in a second file encrypted with a passphrase
 * (BACKUP_PASSPHRASE, or asked on the terminal), the audit HMAC key and the master key. Files go
 * to DIR, by default backups/rpm-<time>/ in the repository. Exit 0 when written, 1 otherwise.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../../config.ts';
import { runBackup, sizeOf } from './backup.ts';
import { readPassphrase } from './passphrase.ts';

const say = (line: string) => process.stdout.write(`backup: ${line}\n`);
try {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const config = loadConfig();
  const passphrase = await readPassphrase({ confirm: true });
  // npm runs the script from packages/server: a relative --out means where the operator typed it.
  const out = values.out === undefined ? undefined : path.resolve(process.env.INIT_CWD ?? process.cwd(), values.out);
  const { dir, files } = await runBackup(config, { out, passphrase, say });
  for (const f of files) say(`wrote ${path.join(dir, f)} (${await sizeOf(path.join(dir, f))})`);
  say('keep the keys file and its passphrase apart from the database archive: one without the other restores nothing');
} catch (err) {
  const lines = err instanceof ConfigError ? err.problems : [(err as Error).message];
  for (const l of lines) process.stderr.write(`backup: ${l}\n`);
  process.exitCode = 1;
}
