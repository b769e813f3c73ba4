import pg from 'pg';

/** The catalog reads and changes a backup or a restore makes, as the database's owner. */

export async function serverMajor(db: pg.ClientBase | pg.Pool): Promise<number> {
  const { rows } = await db.query<{ v: number }>("SELECT current_setting('server_version_num')::int AS v");
  return Math.floor(Number(rows[0]!.v) / 10000);
}

const USER_SCHEMAS = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'
  AND n.nspname NOT LIKE 'pg\\_temp%'`;

/** Tables, views and sequences outside the system schemas: none in a database a restore may fill. */
export async function userRelationCount(db: pg.ClientBase | pg.Pool): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${USER_SCHEMAS}`,
  );
  return rows[0]!.n;
}

/**
 * Empties the database for `restore --force`: every schema but the system ones is dropped with all
 * it holds, and an empty public schema is made again (pg_dump assumes it exists).
 */
export async function dropUserSchemas(db: pg.ClientBase | pg.Pool): Promise<void> {
  const { rows } = await db.query<{ nspname: string }>(`SELECT n.nspname FROM pg_namespace n WHERE ${USER_SCHEMAS}`);
  for (const { nspname } of rows) await db.query(`DROP SCHEMA ${pg.escapeIdentifier(nspname)} CASCADE`);
  await db.query('CREATE SCHEMA IF NOT EXISTS public');
}

/**
 * Roles are the cluster's, not the database's: pg_dump leaves them out, and a grant to a role the
 * target cluster lacks would fail the restore. Each missing one is made without login (the portal
 * gives its runtime role its login and password again at start; an operator's own role keeps
 * whatever login the operator gives it).
 */
export async function createMissingRoles(db: pg.ClientBase | pg.Pool, roles: string[]): Promise<string[]> {
  const created: string[] = [];
  for (const role of roles) {
    const { rowCount } = await db.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    if (rowCount) continue;
    await db.query(`CREATE ROLE ${pg.escapeIdentifier(role)} NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT`);
    created.push(role);
  }
  return created;
}

/** The non-exclusive low-level backup (PostgreSQL 15+), held by one session from start to stop. */
export async function backupStart(client: pg.ClientBase, label: string): Promise<string> {
  const { rows } = await client.query<{ wal: string }>('SELECT pg_walfile_name(pg_backup_start($1, true)) AS wal', [
    label,
  ]);
  return rows[0]!.wal;
}

export async function backupStop(
  client: pg.ClientBase,
): Promise<{ stopWal: string; labelFile: string; spcmapFile: string }> {
  const { rows } = await client.query<{ wal: string; labelfile: string; spcmapfile: string }>(
    'SELECT pg_walfile_name(lsn) AS wal, labelfile, spcmapfile FROM pg_backup_stop(false)',
  );
  return { stopWal: rows[0]!.wal, labelFile: rows[0]!.labelfile, spcmapFile: rows[0]!.spcmapfile };
}
