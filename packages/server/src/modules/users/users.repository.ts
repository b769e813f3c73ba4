import type { Role, UserStatus } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';

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

const USER_COLUMNS = `id, email, role, first_name, last_name, organization_id, status, cognito_username,
  created_at, updated_at, password_changed_at, mfa_enabled`;

export async function listUsers(db: Queryable): Promise<UserRow[]> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users ORDER BY id`);
  return rows;
}

export async function findUser(db: Queryable, id: number): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** `email` comes normalised (normalizeEmail); stored addresses were normalised the same way. */
export async function emailTaken(db: Queryable, email: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM users WHERE lower(email) = $1', [email]);
  return (rowCount ?? 0) > 0;
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
  const { rows } = await db.query<UserRow>(
    `INSERT INTO users (email, first_name, middle_name, last_name, title, role, organization_id,
                        cognito_username, cognito_sub, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'active')
     RETURNING ${USER_COLUMNS}`,
    [u.email, u.firstName, u.middleName, u.lastName, u.title, u.role, u.organizationId, u.cognitoUsername, u.cognitoSub],
  );
  return rows[0]!;
}

export async function setUserMfaEnabled(db: Queryable, id: number, enabled: boolean): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `UPDATE users SET mfa_enabled = $2, updated_at = now() WHERE id = $1 RETURNING ${USER_COLUMNS}`,
    [id, enabled],
  );
  return rows[0] ?? null;
}

export async function setUserStatus(db: Queryable, id: number, status: UserStatus): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `UPDATE users SET status = $2, updated_at = now() WHERE id = $1 RETURNING ${USER_COLUMNS}`,
    [id, status],
  );
  return rows[0] ?? null;
}

/** Locks the row so that concurrent enable/disable of one user apply one after the other. */
export async function lockUser(db: Queryable, id: number): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1 FOR UPDATE`, [id]);
  return rows[0] ?? null;
}
