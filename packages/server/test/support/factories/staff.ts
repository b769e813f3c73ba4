import type { Role } from '@rpm/contracts';
import type { Queryable } from '../../../src/db/pool.ts';
import { kysely } from '../../../src/db/kysely.ts';
import { actorOf, type Actor } from '../../../src/policies/actor.ts';
import { unique } from './common.ts';

export interface StaffOptions {
  organizationId?: number | null;
  firstName?: string | null;
  lastName?: string | null;
  title?: string | null;
  email?: string;
  status?: 'active' | 'disabled';
  /** The user pool account's name; none by default (a portal-only user the pool is never asked about). */
  cognitoUsername?: string | null;
  cognitoSub?: string | null;
}

/** A staff member, returned as the actor a signed-in request of theirs would carry. */
export async function buildStaff(db: Queryable, role: Role, s: StaffOptions = {}): Promise<Actor> {
  const email = s.email ?? `${unique(role)}@example.com`;
  // Not users.repository's insertUser: staff here may have no organization, no name or be disabled.
  const row = await kysely(db)
    .insertInto('users')
    .values({
      email,
      role,
      organization_id: s.organizationId ?? null,
      first_name: s.firstName === undefined ? 'Sam' : s.firstName,
      last_name: s.lastName === undefined ? 'Staff' : s.lastName,
      title: s.title ?? null,
      status: s.status ?? 'active',
      cognito_username: s.cognitoUsername ?? null,
      cognito_sub: s.cognitoSub ?? null,
    })
    .returning(['id', 'email', 'organization_id', 'cognito_username'])
    .executeTakeFirstOrThrow();
  return actorOf({
    id: row.id,
    email: row.email,
    role,
    organizationId: row.organization_id,
    cognitoUsername: row.cognito_username,
  });
}

/** A staff member disabled by the row alone (no session ended, no notification), as a test's starting state. */
export async function disableUser(db: Queryable, userId: number): Promise<void> {
  await kysely(db).updateTable('users').set({ status: 'disabled' }).where('id', '=', userId).execute();
}

/** The portal's copy of a user's MFA flag set, as the pool's MFA event leaves it. */
export async function markMfaEnabled(db: Queryable, userId: number): Promise<void> {
  await kysely(db).updateTable('users').set({ mfa_enabled: true }).where('id', '=', userId).execute();
}

/** A staff member's name, for a user the test did not make (the portal's first admin). */
export async function renameStaff(db: Queryable, userId: number, firstName: string, lastName: string): Promise<void> {
  await kysely(db)
    .updateTable('users')
    .set({ first_name: firstName, last_name: lastName })
    .where('id', '=', userId)
    .execute();
}
