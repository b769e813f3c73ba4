import { createHmac } from 'node:crypto';
import type pg from 'pg';
import {
  connectedRolePowers,
  createLoginRole,
  grantRuntimePrivileges,
  loginRoleExists,
  setLoginPassword,
} from './runtime-role.repository.ts';

/**
 * The portal's queries run as a runtime role, apart from the owner that runs the migrations:
 * LOGIN, no superuser, owner of nothing, with DML on the portal's tables and only reading and
 * appending on the audit tables (migration 0741). It therefore cannot switch off the append-only
 * triggers, UPDATE, DELETE or TRUNCATE the audit trail, or change the schema.
 *
 * Embedded PostgreSQL, or DATABASE_URL alone: the portal creates the role itself through the
 * owner's connection, named after the database (`rpm_app` for the database `rpm`), with a
 * password derived from the master key, so that every instance sharing that key agrees on it
 * without storing it anywhere. DATABASE_RUNTIME_URL instead names a role an operator created;
 * the portal then only grants it its privileges.
 */
export interface RuntimeRole {
  role: string;
  password: string;
  url: string;
}

export function derivedRuntimeRole(ownerUrl: string, masterKey: Buffer): RuntimeRole {
  const u = new URL(ownerUrl);
  const database = decodeURIComponent(u.pathname.slice(1));
  const role = `${database
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 40)}_app`;
  const password = createHmac('sha256', masterKey).update(`rpm-runtime-role-password:${role}`).digest('base64url');
  u.username = role;
  u.password = password;
  return { role, password, url: u.toString() };
}

export function runtimeRoleOfUrl(url: string): string {
  return decodeURIComponent(new URL(url).username);
}

// Concurrent creations or grants on one cluster (several instances or test databases starting
// at once) can collide in the shared catalogs; the loser retries.
const RETRYABLE = new Set(['42710', '23505', 'XX000', '40001', '40P01']);

async function retrying(fn: () => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (attempt >= 10 || !RETRYABLE.has(code)) throw err;
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 80));
    }
  }
}

/** Creates the role when missing (or sets its password), race-safe across concurrent starts. */
export async function ensureRuntimeRole(owner: pg.ClientBase | pg.Pool, role: string, password: string): Promise<void> {
  await retrying(async () => {
    if (!(await loginRoleExists(owner, role))) {
      try {
        await createLoginRole(owner, role, password);
        return;
      } catch (err) {
        // Created by another start in between: fall through to setting the password.
        if ((err as { code?: string }).code !== '42710') throw err;
      }
    }
    // A superuser runtime role is refused at start (assertRestrictedRole).
    await setLoginPassword(owner, role, password);
  });
}

/** Grants the runtime role its privileges on the current database (run after the migrations). */
export async function grantRuntimeRole(owner: pg.ClientBase | pg.Pool, role: string): Promise<void> {
  await retrying(() => grantRuntimePrivileges(owner, role));
}

/** Refuses to serve through a role that could rewrite the audit trail. */
export async function assertRestrictedRole(runtime: pg.Pool): Promise<void> {
  const powers = await connectedRolePowers(runtime);
  if (powers?.superuser) throw new Error('the runtime database role is a superuser; it must not be');
  if (powers?.owns) throw new Error('the runtime database role owns the audit tables; it must not');
}

/**
 * After the migrations, through the owner's connection: makes the runtime role ready and answers
 * the URL the portal's pool connects with.
 */
export async function prepareRuntimeRole(
  owner: pg.Pool,
  opts: { ownerUrl: string; runtimeUrl: string | undefined; masterKey: Buffer },
): Promise<string> {
  if (opts.runtimeUrl) {
    const role = runtimeRoleOfUrl(opts.runtimeUrl);
    if (role === runtimeRoleOfUrl(opts.ownerUrl)) {
      throw new Error('DATABASE_RUNTIME_URL must name another role than DATABASE_URL (the owner runs the migrations)');
    }
    await grantRuntimeRole(owner, role);
    return opts.runtimeUrl;
  }
  const derived = derivedRuntimeRole(opts.ownerUrl, opts.masterKey);
  await ensureRuntimeRole(owner, derived.role, derived.password);
  await grantRuntimeRole(owner, derived.role);
  return derived.url;
}
