import { normalizeEmail } from '@rpm/contracts';
import type pg from 'pg';
import { withTransaction } from './pool.ts';

/**
 * First start against an empty database: one organization and the first admin's portal record.
 * Making that admin able to sign in is the identity module's step (provisionFirstAdmin), run
 * after this one. Idempotent: a database that already has users is left alone.
 */
export async function bootstrapPortal(
  pool: pg.Pool,
  opts: { adminEmail: string; organizationName: string },
): Promise<{ created: boolean }> {
  return withTransaction(pool, async (client) => {
    // Serialize concurrent first starts of several instances.
    await client.query('SELECT pg_advisory_xact_lock(727002)');
    const { rowCount } = await client.query('SELECT 1 FROM users LIMIT 1');
    if (rowCount && rowCount > 0) return { created: false };
    const org = await client.query<{ id: number }>(
      `INSERT INTO organizations (name) VALUES ($1)
       ON CONFLICT ((lower(btrim(name)))) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
      [opts.organizationName],
    );
    await client.query(
      `INSERT INTO users (email, role, status, first_name, last_name, organization_id)
       VALUES ($1, 'admin', 'active', 'Portal', 'Administrator', $2)`,
      [normalizeEmail(opts.adminEmail), org.rows[0]!.id],
    );
    return { created: true };
  });
}
