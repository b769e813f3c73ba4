import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { BackupError } from './pg-tools.ts';

export const PASSPHRASE_ENV = 'BACKUP_PASSPHRASE';

/**
 * The passphrase of the keys file: BACKUP_PASSPHRASE, or asked on the terminal without echo
 * (twice when making a backup). Never logged, never on a command line.
 */
export async function readPassphrase(opts: { confirm: boolean }): Promise<string> {
  const fromEnv = process.env[PASSPHRASE_ENV];
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) {
    throw new BackupError(`set ${PASSPHRASE_ENV}, or run on a terminal to be asked for the passphrase`);
  }
  const first = await ask('passphrase for the keys file: ');
  if (opts.confirm && (await ask('again: ')) !== first) throw new BackupError('the two passphrases differ');
  return first;
}

function ask(prompt: string): Promise<string> {
  process.stderr.write(prompt);
  // Typed characters are not echoed: the readline writes to a sink.
  const muted = new Writable({ write: (_c, _e, cb) => cb() });
  const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
  return new Promise((resolve) =>
    rl.question('', (answer) => {
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    }),
  );
}
