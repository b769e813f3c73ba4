import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { chmod, copyFile, lchown, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { placeForPostgresUser } from '../embedded-placement.ts';
import { startEmbeddedPostgres } from '../embedded.ts';
import { backupStart, backupStop } from './backup.repository.ts';
import { BackupError, run } from './pg-tools.ts';

/**
 * The embedded PostgreSQL's backup. Its package ships the server but not pg_dump, and a pg_dump of
 * an older major version refuses a newer server; so when no pg_dump of the embedded server's
 * version is installed, the backup is a physical one, taken online with PostgreSQL's own
 * low-level API (pg_backup_start / pg_backup_stop): the cluster's files copied while it runs, plus
 * the write-ahead log from the start to the end of the copy, which PostgreSQL replays at the
 * first start of the restored copy. Consistent, and the portal keeps serving meanwhile.
 */

export const CREDENTIALS_FILE = 'pg-credentials.json';

export interface EmbeddedSession {
  url: string;
  pgDir: string;
  /** The cluster superuser's password (pg-credentials.json), which a physical copy carries. */
  credentials: string;
  /** Whether a portal (or another tool) had it running: then it is left running. */
  wasRunning: boolean;
  close(): Promise<void>;
}

/** The embedded cluster of `dataDir`: the running one (no downtime), else started for the tool. */
export async function openEmbedded(dataDir: string): Promise<EmbeddedSession> {
  const { pgDir } = await placeForPostgresUser(dataDir, () => {});
  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    throw new BackupError(`no embedded PostgreSQL in ${dataDir} (set DATA_DIR, or DATABASE_URL for an external one)`);
  }
  const credentials = (JSON.parse(await readFile(path.join(dataDir, CREDENTIALS_FILE), 'utf8')) as { password: string })
    .password;
  const port = await runningPort(pgDir);
  if (port) {
    return {
      url: `postgres://postgres:${encodeURIComponent(credentials)}@127.0.0.1:${port}/rpm`,
      pgDir,
      credentials,
      wasRunning: true,
      close: async () => {},
    };
  }
  const embedded = await startEmbeddedPostgres({ dataDir });
  return { url: embedded.url, pgDir, credentials, wasRunning: false, close: () => embedded.stop() };
}

/** The port of the postmaster running on pgDir, from its lock file, when it is alive. */
export async function runningPort(pgDir: string): Promise<number | undefined> {
  let lines: string[];
  try {
    lines = (await readFile(path.join(pgDir, 'postmaster.pid'), 'utf8')).split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  return port;
}

// Contents PostgreSQL rebuilds at start, or that belong to the running server only (the
// documented list for a base backup); the directories themselves are kept.
const EXCLUDED = [
  'postmaster.pid',
  'postmaster.opts',
  'backup_label',
  'tablespace_map',
  'pg_wal/*',
  'pg_replslot/*',
  'pg_stat_tmp/*',
  'pg_dynshmem/*',
  'pg_notify/*',
  'pg_serial/*',
  'pg_snapshots/*',
  'pg_subtrans/*',
  'pgsql_tmp*',
  'pg_internal.init',
];

/** Writes `archive` (a gzip'd tar of the cluster, its backup label and the WAL it needs). */
export async function physicalBackup(session: EmbeddedSession, archive: string): Promise<void> {
  const client = new pg.Client({ connectionString: session.url });
  await client.connect();
  const extra = await mkdtemp(path.join(path.dirname(archive), '.backup-'));
  const tarFile = `${archive}.tar.partial`;
  try {
    const startWal = await backupStart(client, `rpm-portal ${new Date().toISOString()}`);
    // GNU tar exits 1 when a file changed or vanished while it read it: expected in an online
    // copy, which the WAL replay makes consistent.
    await run('tar', ['-cf', tarFile, ...EXCLUDED.flatMap((e) => [`--exclude=./${e}`]), '-C', session.pgDir, '.'], {
      okCodes: [0, 1],
    });
    const { stopWal, labelFile, spcmapFile } = await backupStop(client);
    await mkdir(path.join(extra, 'pg_wal'), { recursive: true });
    await writeFile(path.join(extra, 'backup_label'), labelFile);
    const names = ['backup_label'];
    if (spcmapFile) {
      await writeFile(path.join(extra, 'tablespace_map'), spcmapFile);
      names.push('tablespace_map');
    }
    // WAL file names sort in LSN order within a timeline (the first 8 hex digits).
    const wal = (await readdir(path.join(session.pgDir, 'pg_wal')))
      .filter((f) => /^[0-9A-F]{24}$/.test(f) && f.slice(8) >= startWal.slice(8) && f.slice(8) <= stopWal.slice(8))
      .sort();
    if (!wal.includes(startWal) || !wal.includes(stopWal)) {
      throw new BackupError('the write-ahead log of the backup was recycled while it ran; run the backup again');
    }
    for (const f of wal) await copyFile(path.join(session.pgDir, 'pg_wal', f), path.join(extra, 'pg_wal', f));
    names.push(...wal.map((f) => `pg_wal/${f}`));
    await run('tar', ['-rf', tarFile, '-C', extra, ...names]);
    await compress(tarFile, archive);
  } finally {
    // A backup started and not stopped (a failure half-way) ends with its session.
    await client.end().catch(() => {});
    await rm(extra, { recursive: true, force: true });
    await rm(tarFile, { force: true });
  }
}

async function compress(from: string, to: string): Promise<void> {
  await pipeline(createReadStream(from), createGzip({ level: 6 }), createWriteStream(to, { mode: 0o600 }));
}

/** Whether `dataDir` holds a cluster, keys or credentials that a restore would replace. */
export async function dataDirContents(dataDir: string): Promise<string[]> {
  if (!existsSync(dataDir)) return [];
  return (await readdir(dataDir)).filter((f) => !f.startsWith('.'));
}

/** Unpacks the archive as the cluster of `dataDir` (which must hold none), owned as PostgreSQL needs. */
export async function physicalRestore(archive: string, dataDir: string, credentials: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (process.getuid?.() === 0) await chmod(dataDir, 0o711);
  const { pgDir } = await placeForPostgresUser(dataDir, () => {});
  if (existsSync(path.join(pgDir, 'PG_VERSION'))) throw new BackupError(`${pgDir} already holds a cluster`);
  await mkdir(pgDir, { recursive: true, mode: 0o700 });
  await run('tar', ['-xzf', archive, '-C', pgDir]);
  // Run as root, the copy's files come back under their owners' names (PostgreSQL's `postgres`
  // user); what the backup itself added was written by root: give the whole tree to the owner of
  // the cluster's directory, as PostgreSQL refuses files it cannot read.
  if (process.getuid?.() === 0) {
    const owner = await stat(pgDir);
    await chownTree(pgDir, owner.uid, owner.gid);
  }
  await chmod(pgDir, 0o700);
  await writeFile(path.join(dataDir, CREDENTIALS_FILE), JSON.stringify({ password: credentials }), { mode: 0o600 });
}

async function chownTree(dir: string, uid: number, gid: number): Promise<void> {
  await lchown(dir, uid, gid);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(p, uid, gid);
    else await lchown(p, uid, gid);
  }
}

export const newStamp = () =>
  `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}Z-${randomBytes(2).toString('hex')}`;
