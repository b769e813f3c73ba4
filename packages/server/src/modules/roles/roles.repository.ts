import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

export async function listRoleNames(db: Queryable): Promise<string[]> {
  const rows = await kysely(db).selectFrom('roles').select('name').orderBy('name').execute();
  return rows.map((r) => r.name);
}

export async function roleExists(db: Queryable, name: string): Promise<boolean> {
  const row = await kysely(db).selectFrom('roles').select('name').where('name', '=', name).executeTakeFirst();
  return row !== undefined;
}
