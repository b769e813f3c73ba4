import type { Role, UserStatus } from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

/** A portal user as the administration pages need it; never the pool's subject or secrets. */
export interface UserRow {
  id: number;
  email: string;
  role: Role;
  first_name: string | null;
  last_name: string | null;
  organization_id: number | null;
  status: UserStatus;
  cognito_username: string | null;
  created_at: Date;
  updated_at: Date;
  password_changed_at: Date | null;
  mfa_enabled: boolean;
}

const USER_COLUMNS = [
  'id',
  'email',
  'role',
  'first_name',
  'last_name',
  'organization_id',
  'status',
  'cognito_username',
  'created_at',
  'updated_at',
  'password_changed_at',
  'mfa_enabled',
] as const;

// The columns are text in the database; the CHECK constraints and the roles table keep them to these.
type Narrowed = { role: Role; status: UserStatus };

export async function listUsers(db: Queryable): Promise<UserRow[]> {
  return kysely(db).selectFrom('users').select(USER_COLUMNS).orderBy('id').$narrowType<Narrowed>().execute();
}

export async function findUser(db: Queryable, id: number): Promise<UserRow | undefined> {
  return kysely(db).selectFrom('users').select(USER_COLUMNS).where('id', '=', id).$narrowType<Narrowed>().executeTakeFirst();
}

/** `email` comes normalised (normalizeEmail); stored addresses were normalised the same way. */
export async function emailTaken(db: Queryable, email: string): Promise<boolean> {
  const row = await kysely(db).selectFrom('users').select('id').where(sql<string>`lower(email)`, '=', email).executeTakeFirst();
  return row !== undefined;
}

export interface NewUser {
  email: string;
  firstName: string;
  middleName: string | null;
  lastName: string;
  title: string | null;
  role: string;
  organizationId: number;
  cognitoUsername: string;
  cognitoSub: string | null;
}

export async function insertUser(db: Queryable, u: NewUser): Promise<UserRow> {
  return kysely(db)
    .insertInto('users')
    .values({
      email: u.email,
      first_name: u.firstName,
      middle_name: u.middleName,
      last_name: u.lastName,
      title: u.title,
      role: u.role,
      organization_id: u.organizationId,
      cognito_username: u.cognitoUsername,
      cognito_sub: u.cognitoSub,
      status: 'active',
    })
    .returning(USER_COLUMNS)
    .$narrowType<Narrowed>()
    .executeTakeFirstOrThrow();
}

/** Changes the MFA flag or the status of a user; undefined when there is no such user. */
export async function updateUser(
  db: Queryable,
  id: number,
  changes: { mfa_enabled?: boolean; status?: UserStatus },
): Promise<UserRow | undefined> {
  return kysely(db)
    .updateTable('users')
    .set({ ...changes, updated_at: sql`now()` })
    .where('id', '=', id)
    .returning(USER_COLUMNS)
    .$narrowType<Narrowed>()
    .executeTakeFirst();
}

/** Locks the row so that concurrent enable/disable of one user apply one after the other. */
export async function lockUser(db: Queryable, id: number): Promise<UserRow | undefined> {
  return kysely(db).selectFrom('users').select(USER_COLUMNS).where('id', '=', id).forUpdate().$narrowType<Narrowed>().executeTakeFirst();
}
