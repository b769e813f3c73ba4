import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

const CURRENT_USER_COLUMNS = [
  'id',
  'email',
  'role',
  'first_name',
  'last_name',
  'organization_id',
  'status',
  'mfa_enabled',
] as const;

export interface CurrentUserRow {
  id: number;
  email: string;
  role: string;
  first_name: string | null;
  last_name: string | null;
  organization_id: number | null;
  status: string;
  mfa_enabled: boolean;
}

export async function findCurrentUser(db: Queryable, id: number): Promise<CurrentUserRow | null> {
  const row = await kysely(db).selectFrom('users').select(CURRENT_USER_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

/** The portal user behind a pool identity: by subject first, then by the pool's username. */
export async function findUserByIdentity(
  db: Queryable,
  sub: string,
  username: string,
): Promise<(CurrentUserRow & { cognito_sub: string | null }) | null> {
  const row = await kysely(db)
    .selectFrom('users')
    .select([...CURRENT_USER_COLUMNS, 'cognito_sub'])
    .where((eb) => eb.or([eb('cognito_sub', '=', sub), eb('cognito_username', '=', username)]))
    .orderBy(
      (eb) => eb('cognito_sub', '=', sub),
      (ob) => ob.desc().nullsLast(),
    )
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

export async function linkSubject(db: Queryable, id: number, sub: string): Promise<void> {
  await kysely(db)
    .updateTable('users')
    .set({ cognito_sub: sub })
    .where('id', '=', id)
    .where('cognito_sub', 'is', null)
    .execute();
}

export async function setMfaEnabled(db: Queryable, id: number, enabled: boolean): Promise<CurrentUserRow | null> {
  const row = await kysely(db)
    .updateTable('users')
    .set((eb) => ({ mfa_enabled: enabled, updated_at: eb.fn<Date>('now') }))
    .where('id', '=', id)
    .returning(CURRENT_USER_COLUMNS)
    .executeTakeFirst();
  return row ?? null;
}

/** Brings the portal's MFA flag in step with the pool; writes only when it differs. */
export async function syncMfaEnabled(db: Queryable, id: number, enabled: boolean): Promise<void> {
  await kysely(db)
    .updateTable('users')
    .set((eb) => ({ mfa_enabled: enabled, updated_at: eb.fn<Date>('now') }))
    .where('id', '=', id)
    .where('mfa_enabled', '<>', enabled)
    .execute();
}
