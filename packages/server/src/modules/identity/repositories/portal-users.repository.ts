import type { Role } from '@rpm/contracts';
import { sql } from 'kysely';
import { kysely } from '../../../db/kysely.ts';
import type { Queryable } from '../../../db/pool.ts';
import { actorOf, type Actor } from '../../../policies/actor.ts';

/**
 * The portal's side of a pool user: the `public.users` row linked by cognito_username, and its
 * organization's MFA rule. Read by the pool's hooks and by the first admin's provisioning.
 */

export async function portalUserOf(db: Queryable, username: string): Promise<Actor | null> {
  const row = await kysely(db)
    .selectFrom('users')
    .select(['id', 'email', 'role', 'organization_id'])
    .where('cognito_username', '=', username)
    .$narrowType<{ role: Role }>()
    .executeTakeFirst();
  return row
    ? actorOf({ id: row.id, email: row.email, role: row.role, organizationId: row.organization_id, cognitoUsername: username })
    : null;
}

export async function organizationRequiresMfa(db: Queryable, username: string): Promise<boolean> {
  const row = await kysely(db)
    .selectFrom('users as u')
    .innerJoin('organizations as o', 'o.id', 'u.organization_id')
    .select('o.require_mfa')
    .where('u.cognito_username', '=', username)
    .executeTakeFirst();
  return row?.require_mfa === true;
}

/** `email` normalised. */
export async function findPortalUserByEmail(
  db: Queryable,
  email: string,
): Promise<{ id: number; cognito_username: string | null } | null> {
  const row = await kysely(db)
    .selectFrom('users')
    .select(['id', 'cognito_username'])
    .where(sql<string>`lower(email)`, '=', email)
    .executeTakeFirst();
  return row ?? null;
}

/** False when the row was already linked (another instance got there first). */
export async function linkPortalUser(
  db: Queryable,
  id: number,
  pool: { username: string; sub: string },
): Promise<boolean> {
  const result = await kysely(db)
    .updateTable('users')
    .set({ cognito_username: pool.username, cognito_sub: pool.sub, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('cognito_username', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows !== 0n;
}
