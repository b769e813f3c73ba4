import type { Queryable } from '../../../src/db/pool.ts';
import { kysely } from '../../../src/db/kysely.ts';
import { insertOrganization } from '../../../src/modules/organizations/organizations.repository.ts';
import { unique } from './common.ts';

export async function buildOrganization(
  db: Queryable,
  o: { name?: string; requireMfa?: boolean; timeZone?: string } = {},
) {
  const row = await insertOrganization(db, o.name ?? unique('Clinic'));
  if (!row) throw new Error(`an organization named ${o.name} exists already`);
  if (o.requireMfa !== undefined || o.timeZone !== undefined) {
    await kysely(db)
      .updateTable('organizations')
      .set({
        ...(o.requireMfa === undefined ? {} : { require_mfa: o.requireMfa }),
        ...(o.timeZone ? { time_zone: o.timeZone } : {}),
      })
      .where('id', '=', row.id)
      .execute();
  }
  return { id: row.id, name: row.name };
}
