import { sql } from 'kysely';
import { kysely } from './kysely.ts';
import type { Queryable } from './pool.ts';

/** Serialises concurrent first starts of several instances, until the transaction ends. */
export async function lockFirstStart(tx: Queryable): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(727002)`.execute(kysely(tx));
}

export async function anyUserExists(tx: Queryable): Promise<boolean> {
  return (await kysely(tx).selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** The named organization, created unless one of that name (ignoring case and blanks) exists. */
export async function upsertOrganization(tx: Queryable, name: string): Promise<number> {
  const row = await kysely(tx)
    .insertInto('organizations')
    .values({ name })
    .onConflict((oc) => oc.expression(sql`lower(btrim(name))`).doUpdateSet({ name: (eb) => eb.ref('excluded.name') }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertFirstAdmin(tx: Queryable, email: string, organizationId: number): Promise<void> {
  await kysely(tx)
    .insertInto('users')
    .values({
      email,
      role: 'admin',
      status: 'active',
      first_name: 'Portal',
      last_name: 'Administrator',
      organization_id: organizationId,
    })
    .execute();
}
