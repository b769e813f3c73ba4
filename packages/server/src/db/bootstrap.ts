import { normalizeEmail } from '@rpm/contracts';
import type pg from 'pg';
import { anyUserExists, insertFirstAdmin, lockFirstStart, upsertOrganization } from './bootstrap.repository.ts';
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
  return withTransaction(pool, async (tx) => {
    await lockFirstStart(tx);
    if (await anyUserExists(tx)) return { created: false };
    const organizationId = await upsertOrganization(tx, opts.organizationName);
    await insertFirstAdmin(tx, normalizeEmail(opts.adminEmail), organizationId);
    return { created: true };
  });
}
