import type { Queryable } from '../../db/pool.ts';

export async function listRoleNames(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>('SELECT name FROM roles ORDER BY name');
  return rows.map((r) => r.name);
}

export async function roleExists(db: Queryable, name: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM roles WHERE name = $1', [name]);
  return (rowCount ?? 0) > 0;
}
