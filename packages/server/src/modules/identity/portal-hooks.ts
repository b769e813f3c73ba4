import { audit } from '../../kernel/audit-writer.ts';
import type { PoolHooks } from './pool/context.ts';
import { organizationRequiresMfa, portalUserOf } from './repositories/portal-users.repository.ts';

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

  mfaRequiredFor: organizationRequiresMfa,
};
