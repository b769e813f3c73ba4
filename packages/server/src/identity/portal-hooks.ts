import type { Queryable } from '../db/pool.ts';
import { audit } from '../modules/audit/audit.service.ts';
import type { Actor } from '../plugins/context.ts';
import type { PoolHooks } from './local-pool.ts';

/**
 * The local pool's view of the portal: authentication events go into the portal's audit log
 * (resource type `auth`, the pool username as resource id, the linked portal user as target and,
 * when the caller proved to be that user, as actor), and an organization's "require MFA" setting
 * reaches the pool's sign-in. Both run in the pool's transaction when it has one.
 */
export const portalHooks: PoolHooks = {
  async audit(db, caller, event) {
    const portalUser = event.username ? await portalUserOf(db, event.username) : null;
    await audit(
      db,
      {
        actor: event.byUser ? portalUser : null,
        ip: caller.ip,
        userAgent: caller.userAgent ?? null,
        requestId: caller.requestId ?? '',
      },
      {
        action: event.action,
        outcome: event.outcome,
        resourceType: 'auth',
        resourceId: event.username,
        targetUserId: portalUser?.id ?? null,
        reason: event.reason ?? null,
        details: event.details ?? null,
      },
    );
  },

  async mfaRequiredFor(db, username) {
    const { rows } = await db.query<{ required: boolean }>(
      `SELECT o.require_mfa AS required
         FROM users u JOIN organizations o ON o.id = u.organization_id
        WHERE u.cognito_username = $1`,
      [username],
    );
    return rows[0]?.required === true;
  },
};

async function portalUserOf(db: Queryable, username: string): Promise<Actor | null> {
  const { rows } = await db.query<{ id: number; email: string; role: Actor['role']; organization_id: number | null }>(
    'SELECT id, email, role, organization_id FROM users WHERE cognito_username = $1',
    [username],
  );
  const row = rows[0];
  return row ? { id: row.id, email: row.email, role: row.role, organizationId: row.organization_id, cognitoUsername: username } : null;
}
