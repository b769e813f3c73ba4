import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createMissingRoles, serverMajor } from './backup.repository.ts';
import { findPgTool, libpqEnv, run } from './pg-tools.ts';

/**
 * pg_dump's custom format: one consistent snapshot of the database (a single repeatable-read
 * transaction), taken while the portal keeps serving, and restorable into any server of the
 * same or a newer major version.
 */
export async function logicalBackup(url: string, archive: string): Promise<{ tool: string; serverMajor: number }> {
  const major = await withClient(url, serverMajor);
  const tool = await findPgTool('pg_dump', major);
  await run(tool.file, ['--format=custom', '--compress=6', '--file', archive], { env: libpqEnv(url) });
  // Patient data: readable by the operator only, whatever the umask (pg_dump creates it 0666 & ~umask).
  await chmod(archive, 0o600);
  return { tool: tool.file, serverMajor: major };
}

/**
 * Restores the archive into the (empty) database at `url`. Objects become the restoring user's
 * (`--no-owner`: the owner on the old server may not exist on the new one); privileges are
 * restored as they were (the runtime role's grants, the functions kept from PUBLIC), after the
 * roles they name are made where missing. One transaction: a failure leaves the database empty.
 */
export async function logicalRestore(url: string, archive: string): Promise<{ createdRoles: string[] }> {
  const major = await withClient(url, serverMajor);
  const tool = await findPgTool('pg_restore', major);
  const roles = await grantees(tool.file, archive);
  const createdRoles = await withClient(url, (c) => createMissingRoles(c, roles));
  await run(tool.file, ['--no-owner', '--exit-on-error', '--single-transaction', '--dbname', dbnameOf(url), archive], {
    env: libpqEnv(url),
  });
  return { createdRoles };
}

/** The roles the archive's privileges name (GRANT … TO, REVOKE … FROM, FOR ROLE), but PUBLIC. */
async function grantees(pgRestore: string, archive: string): Promise<string[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rpm-restore-'));
  try {
    const toc = await run(pgRestore, ['--list', archive]);
    const acl = toc.split('\n').filter((line) => /^\d+;.* (ACL|DEFAULT ACL) /.test(line));
    if (acl.length === 0) return [];
    const list = path.join(dir, 'acl.list');
    await writeFile(list, acl.join('\n') + '\n');
    const sql = await run(pgRestore, ['--use-list', list, '--file', '-', archive]);
    const ident = String.raw`("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)`;
    const roles = new Set<string>();
    for (const re of [
      new RegExp(String.raw`^GRANT .* TO ${ident}`, 'gm'),
      new RegExp(String.raw`^REVOKE .* FROM ${ident}`, 'gm'),
      new RegExp(String.raw`FOR ROLE ${ident}`, 'gm'),
    ]) {
      for (const m of sql.matchAll(re)) roles.add(unquote(m[1]!));
    }
    roles.delete('PUBLIC');
    return [...roles].sort();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const unquote = (id: string) => (id.startsWith('"') ? id.slice(1, -1).replace(/""/g, '"') : id);

/** The URL without its password (which goes through PGPASSWORD): pg_restore needs -d to restore. */
function dbnameOf(url: string): string {
  const u = new URL(url);
  u.password = '';
  return u.toString();
}

/** One connection for `fn`, closed after it. */
export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
