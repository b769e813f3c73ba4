import { sql } from 'kysely';
import { kysely } from '../../../db/kysely.ts';
import type { Queryable } from '../../../db/pool.ts';

/**
 * identity.users: the pool's accounts. A user is named by username (a UUID) or by address, as
 * Cognito allows; addresses arrive normalised (normalizeEmail) by the caller.
 */

export type UserStatus = 'FORCE_CHANGE_PASSWORD' | 'CONFIRMED' | 'RESET_REQUIRED';

export interface UserRow {
  username: string;
  email: string;
  email_verified: boolean;
  status: UserStatus;
  enabled: boolean;
  srp_salt: string;
  srp_verifier: string;
  temporary_password_expires_at: Date | null;
  totp_secret: Buffer | null;
  totp_pending_secret: Buffer | null;
  totp_last_step: number | null;
  mfa_enabled: boolean;
  mfa_preferred: boolean;
  tokens_valid_after: Date | null;
  password_changed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const USER_COLUMNS = [
  'username',
  'email',
  'email_verified',
  'status',
  'enabled',
  'srp_salt',
  'srp_verifier',
  'temporary_password_expires_at',
  'totp_secret',
  'totp_pending_secret',
  'totp_last_step',
  'mfa_enabled',
  'mfa_preferred',
  'password_changed_at',
  'created_at',
  'updated_at',
] as const;

// The column's default, '-infinity' (never signed out), reads as null.
const tokensValidAfter_ = sql<Date | null>`CASE WHEN tokens_valid_after = '-infinity' THEN NULL ELSE tokens_valid_after END`;
const USER_SELECTION = [...USER_COLUMNS, tokensValidAfter_.as('tokens_valid_after')] as const;

const now = sql<Date>`now()`;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUsername(login: string): boolean {
  return UUID_PATTERN.test(login);
}

/** `forUpdate` locks the row for the rest of the caller's transaction. */
export async function findUser(db: Queryable, login: string, { forUpdate = false } = {}): Promise<UserRow | null> {
  let q = kysely(db)
    .selectFrom('identity.users')
    .select(USER_SELECTION)
    .where(isUsername(login) ? 'username' : 'email_key', '=', login)
    .$narrowType<{ status: UserStatus }>();
  if (forUpdate) q = q.forUpdate();
  return (await q.executeTakeFirst()) ?? null;
}

/** Null when the address is taken. */
export async function insertUser(
  db: Queryable,
  u: { username: string; email: string; salt: string; verifier: string; temporaryPasswordExpiresAt: Date },
): Promise<UserRow | null> {
  const row = await kysely(db)
    .insertInto('identity.users')
    .values({
      username: u.username,
      email: u.email,
      email_key: u.email,
      status: 'FORCE_CHANGE_PASSWORD',
      srp_salt: u.salt,
      srp_verifier: u.verifier,
      temporary_password_expires_at: u.temporaryPasswordExpiresAt,
    })
    .onConflict((oc) => oc.doNothing())
    .returning(USER_SELECTION)
    .$narrowType<{ status: UserStatus }>()
    .executeTakeFirst();
  return row ?? null;
}

/** A permanent password confirms the user; a temporary one expires and must be changed. */
export async function setPassword(
  db: Queryable,
  username: string,
  p: { salt: string; verifier: string; permanent: boolean; temporaryPasswordExpiresAt?: Date },
): Promise<void> {
  await kysely(db)
    .updateTable('identity.users')
    .set({
      srp_salt: p.salt,
      srp_verifier: p.verifier,
      ...(p.permanent
        ? { status: 'CONFIRMED', temporary_password_expires_at: null, password_changed_at: now }
        : { status: 'FORCE_CHANGE_PASSWORD', temporary_password_expires_at: p.temporaryPasswordExpiresAt ?? null }),
      updated_at: now,
    })
    .where('username', '=', username)
    .execute();
}

export async function setEnabled(db: Queryable, username: string, enabled: boolean): Promise<void> {
  await kysely(db)
    .updateTable('identity.users')
    .set({ enabled, updated_at: now })
    .where('username', '=', username)
    .execute();
}

export async function setPendingTotp(db: Queryable, username: string, sealed: Buffer): Promise<void> {
  await kysely(db)
    .updateTable('identity.users')
    .set({ totp_pending_secret: sealed, updated_at: now })
    .where('username', '=', username)
    .execute();
}

/** The verified pending secret becomes the user's secret; its code may not be used again. */
export async function promotePendingTotp(db: Queryable, username: string, step: number): Promise<void> {
  await kysely(db)
    .updateTable('identity.users')
    .set((eb) => ({
      totp_secret: eb.ref('totp_pending_secret'),
      totp_pending_secret: null,
      totp_last_step: step,
      updated_at: now,
    }))
    .where('username', '=', username)
    .where('totp_pending_secret', 'is not', null)
    .execute();
}

/** Claims a time step atomically, so one code cannot be used twice even by two instances at once. */
export async function claimTotpStep(db: Queryable, username: string, step: number): Promise<boolean> {
  const result = await kysely(db)
    .updateTable('identity.users')
    .set({ totp_last_step: step })
    .where('username', '=', username)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Lost phone: the TOTP secret is forgotten, so MFA must be set up again. */
export async function clearMfa(db: Queryable, username: string): Promise<void> {
  await kysely(db)
    .updateTable('identity.users')
    .set({
      totp_secret: null,
      totp_pending_secret: null,
      totp_last_step: null,
      mfa_enabled: false,
      mfa_preferred: false,
      updated_at: now,
    })
    .where('username', '=', username)
    .execute();
}

export async function setMfa(db: Queryable, username: string, enabled: boolean, preferred: boolean): Promise<void> {
  await kysely(db)
    .updateTable('identity.users')
    .set({ mfa_enabled: enabled, mfa_preferred: preferred, updated_at: now })
    .where('username', '=', username)
    .execute();
}

/** Every access token issued until now is refused from now on (global sign-out). */
export async function refuseTokensIssuedUntilNow(db: Queryable, username: string): Promise<void> {
  await kysely(db)
    .updateTable('identity.users')
    .set({ tokens_valid_after: now })
    .where('username', '=', username)
    .execute();
}

export async function tokensValidAfter(db: Queryable, username: string): Promise<Date | null> {
  const row = await kysely(db)
    .selectFrom('identity.users')
    .select(tokensValidAfter_.as('t'))
    .where('username', '=', username)
    .executeTakeFirst();
  return row?.t ?? null;
}

/** A page of users in (created_at, username) order, each with the exact cursor of its position. */
export async function listUsers(
  db: Queryable,
  limit: number,
  after: { createdAt: string; username: string } | null,
  filter: { attribute: 'email' | 'sub'; value: string } | null,
): Promise<Array<UserRow & { cursor_time: string }>> {
  let q = kysely(db)
    .selectFrom('identity.users')
    .select([
      ...USER_SELECTION,
      // The cursor keeps microseconds: the keyset of the pagination token must be exact.
      sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('cursor_time'),
    ])
    .$narrowType<{ status: UserStatus }>();
  if (after)
    q = q.where(sql<boolean>`(created_at, username) > (${after.createdAt}::timestamptz, ${after.username}::uuid)`);
  if (filter?.attribute === 'email') q = q.where('email_key', '=', filter.value);
  // A sub that is not a UUID matches no one (rather than failing the uuid cast).
  if (filter?.attribute === 'sub') q = q.where(sql<string>`username::text`, '=', filter.value);
  return q.orderBy('created_at').orderBy('username').limit(limit).execute();
}
