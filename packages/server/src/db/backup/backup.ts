import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT, type Config } from '../../config.ts';
import { KEY_FILES, keyFileDiffers, loadPortalKeys, restoreKeyFile } from '../../keys.ts';
import { placeForPostgresUser } from '../embedded-placement.ts';
import { startEmbeddedPostgres } from '../embedded.ts';
import { dropUserSchemas, serverMajor, userRelationCount } from './backup.repository.ts';
import { readSecretsFile, writeSecretsFile } from './keys-file.ts';
import { logicalBackup, logicalRestore, withClient } from './logical.ts';
import {
  CREDENTIALS_FILE,
  dataDirContents,
  newStamp,
  openEmbedded,
  physicalBackup,
  physicalRestore,
  runningPort,
} from './physical.ts';
import { BackupError, findPgTool } from './pg-tools.ts';

/** The files of one backup, in its own directory. */
export const BACKUP_FILES = {
  /** pg_dump's custom format (-Fc). */
  dump: 'database.dump',
  /** The embedded cluster, copied online (when no pg_dump of its version is installed). */
  cluster: 'database.tar.gz',
  /** The audit HMAC key and the master key, encrypted with the operator's passphrase. */
  keys: 'portal-keys.enc',
} as const;

type Say = (line: string) => void;

export async function runBackup(
  config: Config,
  opts: { out?: string; passphrase: string; say: Say },
): Promise<{ dir: string; files: string[] }> {
  // The keys first: a backup whose keys are missing could never be verified or opened.
  const keys = await loadPortalKeys(config, { create: false });
  const dir = path.resolve(opts.out ?? path.join(REPO_ROOT, 'backups', `rpm-${newStamp()}`));
  if (existsSync(dir) && (await readdir(dir)).length > 0) throw new BackupError(`${dir} is not empty`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const files: string[] = [];
  let embeddedPassword: string | undefined;
  try {
    if (config.databaseUrl) {
      const { tool, serverMajor: major } = await logicalBackup(config.databaseUrl, path.join(dir, BACKUP_FILES.dump));
      opts.say(`database (PostgreSQL ${major}) dumped with ${tool}`);
      files.push(BACKUP_FILES.dump);
    } else {
      const session = await openEmbedded(config.dataDir);
      try {
        const major = await withClient(session.url, serverMajor);
        const pgDump = await findPgTool('pg_dump', major).catch(() => undefined);
        if (pgDump) {
          await logicalBackup(session.url, path.join(dir, BACKUP_FILES.dump));
          opts.say(`embedded database (PostgreSQL ${major}) dumped with ${pgDump.file}`);
          files.push(BACKUP_FILES.dump);
        } else {
          await physicalBackup(session, path.join(dir, BACKUP_FILES.cluster));
          embeddedPassword = session.credentials;
          opts.say(
            `embedded PostgreSQL ${major} copied online (no pg_dump ${major} installed; set PG_BIN_DIR to use one)` +
              (session.wasRunning ? ', while it kept running' : ''),
          );
          files.push(BACKUP_FILES.cluster);
        }
      } finally {
        await session.close();
      }
    }
    await writeSecretsFile(path.join(dir, BACKUP_FILES.keys), { ...keys, embeddedPassword }, opts.passphrase);
    files.push(BACKUP_FILES.keys);
  } catch (err) {
    // Half a backup is worse than none: it looks like one.
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return { dir, files };
}

export async function runRestore(
  config: Config,
  opts: { from: string; force: boolean; passphrase: string; say: Say },
): Promise<void> {
  const dir = path.resolve(opts.from);
  const dump = path.join(dir, BACKUP_FILES.dump);
  const cluster = path.join(dir, BACKUP_FILES.cluster);
  if (!existsSync(dump) && !existsSync(cluster)) {
    throw new BackupError(`${dir} holds no ${BACKUP_FILES.dump} or ${BACKUP_FILES.cluster}`);
  }
  const secrets = await readSecretsFile(path.join(dir, BACKUP_FILES.keys), opts.passphrase);

  // A key set in the environment wins over the key file: it must be the backed-up one.
  for (const [field, envName] of [
    ['auditHmacKey', 'AUDIT_HMAC_KEY'],
    ['masterKey', 'PORTAL_MASTER_KEY'],
  ] as const) {
    const set = config[field];
    if (set && !set.equals(secrets[field])) {
      throw new BackupError(
        `${envName} is set to another key than the backup's: unset it (the restored key file then serves) or set it to the backed-up key`,
      );
    }
  }
  const differing: string[] = [];
  for (const field of ['auditHmacKey', 'masterKey'] as const) {
    if (!config[field] && (await keyFileDiffers(config.dataDir, KEY_FILES[field], secrets[field]))) {
      differing.push(path.join(config.dataDir, KEY_FILES[field]));
    }
  }

  if (config.databaseUrl) {
    if (!existsSync(dump)) {
      throw new BackupError(
        `${BACKUP_FILES.cluster} is a copy of an embedded cluster: restore it without DATABASE_URL`,
      );
    }
    await withClient(config.databaseUrl, async (c) => {
      const relations = await userRelationCount(c);
      if (relations > 0 || differing.length > 0) {
        if (!opts.force) {
          throw new BackupError(
            `the database at DATABASE_URL is not empty (${relations} tables, views or sequences)` +
              (differing.length ? ` and ${differing.join(', ')} hold other keys` : '') +
              '; restore into an empty one, or pass --force to replace it',
          );
        }
        opts.say('--force: emptying the database at DATABASE_URL');
        await dropUserSchemas(c);
      }
    });
    const { createdRoles } = await logicalRestore(config.databaseUrl, dump);
    if (createdRoles.length)
      opts.say(`created the roles the backup's grants name, without login: ${createdRoles.join(', ')}`);
    opts.say('database restored at DATABASE_URL');
  } else {
    // As the portal makes it: private, but traversable by PostgreSQL's own user when run as root.
    await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
    if (process.getuid?.() === 0) await chmod(config.dataDir, 0o711);
    const { pgDir } = await placeForPostgresUser(config.dataDir, () => {});
    if (await runningPort(pgDir))
      throw new BackupError(`a PostgreSQL is running on ${config.dataDir}: stop the portal first`);
    const contents = await dataDirContents(config.dataDir);
    if (contents.length > 0) {
      if (!opts.force) {
        throw new BackupError(
          `${config.dataDir} is not empty (${contents.join(', ')}); restore into an empty data directory, or pass --force to replace it`,
        );
      }
      opts.say(`--force: replacing the database and keys in ${config.dataDir}`);
      await rm(pgDir, { recursive: true, force: true });
      for (const f of [CREDENTIALS_FILE, KEY_FILES.auditHmacKey, KEY_FILES.masterKey, 'pg-location']) {
        await rm(path.join(config.dataDir, f), { force: true });
      }
    }
    if (existsSync(cluster)) {
      if (!secrets.embeddedPassword) throw new BackupError(`${BACKUP_FILES.keys} lacks the cluster's password`);
      await physicalRestore(cluster, config.dataDir, secrets.embeddedPassword);
      opts.say(`embedded PostgreSQL restored in ${pgDir}; it replays its log at the next start`);
    } else {
      const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir });
      try {
        const { createdRoles } = await logicalRestore(embedded.url, dump);
        if (createdRoles.length)
          opts.say(`created the roles the backup's grants name, without login: ${createdRoles.join(', ')}`);
      } finally {
        await embedded.stop();
      }
      opts.say(`embedded database restored in ${config.dataDir}`);
    }
  }

  for (const field of ['auditHmacKey', 'masterKey'] as const) {
    if (config[field]) {
      opts.say(`key ${KEY_FILES[field]}: set in the environment, and the same as the backup's`);
      continue;
    }
    await restoreKeyFile(config.dataDir, KEY_FILES[field], secrets[field], { replace: true });
    opts.say(`key restored: ${path.join(config.dataDir, KEY_FILES[field])} (mode 0600)`);
  }
}

export async function sizeOf(file: string): Promise<string> {
  const bytes = (await stat(file)).size;
  return bytes > 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}
