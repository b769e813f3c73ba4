import pg from 'pg';

/**
 * The statements that provision the runtime role, run through the owner's connection. Role names
 * and passwords cannot be bound parameters in CREATE or ALTER ROLE: they are quoted here, by the
 * driver's own escaping, and nowhere else.
 */

/** Whether PostgreSQL has this login role (not a portal role: those are in the roles table). */
export async function loginRoleExists(owner: pg.ClientBase | pg.Pool, role: string): Promise<boolean> {
  const { rowCount } = await owner.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
  return (rowCount ?? 0) > 0;
}

/** A login role with no power beyond logging in (no superuser, no CREATEDB, no CREATEROLE). */
export async function createLoginRole(owner: pg.ClientBase | pg.Pool, role: string, password: string): Promise<void> {
  await owner.query(
    `CREATE ROLE ${pg.escapeIdentifier(role)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD ${pg.escapeLiteral(password)}`,
  );
}

/** Only what an owner with CREATEROLE may change. */
export async function setLoginPassword(owner: pg.ClientBase | pg.Pool, role: string, password: string): Promise<void> {
  await owner.query(`ALTER ROLE ${pg.escapeIdentifier(role)} LOGIN PASSWORD ${pg.escapeLiteral(password)}`);
}

/** The runtime role's privileges on the current database (migration 0741's function). */
export async function grantRuntimePrivileges(owner: pg.ClientBase | pg.Pool, role: string): Promise<void> {
  await owner.query('SELECT rpm_grant_runtime_role($1)', [role]);
}

/** Whether the connected role could bypass or rewrite the audit trail. */
export async function connectedRolePowers(runtime: pg.Pool): Promise<{ superuser: boolean; owns: boolean } | undefined> {
  const { rows } = await runtime.query<{ superuser: boolean; owns: boolean }>(
    `SELECT r.rolsuper OR r.rolbypassrls AS superuser,
            EXISTS (SELECT 1 FROM pg_class c WHERE c.relowner = r.oid
                     AND c.relname IN ('audit_logs', 'audit_chain', 'audit_unsealed')) AS owns
       FROM pg_roles r WHERE r.rolname = current_user`,
  );
  return rows[0];
}
