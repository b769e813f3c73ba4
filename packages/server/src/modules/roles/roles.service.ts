import type pg from 'pg';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { authorize } from '../../kernel/access.ts';
import { auditedTransaction } from '../../kernel/audited-transaction.ts';
import { mayAdministerUsers } from '../../policies/users.ts';
import { listRoleNames, roleExists } from './roles.repository.ts';

/** Whether the portal has this role: the user forms check a chosen role here. */
export { roleExists };

/** The roles a new staff member may be given: only the registration form needs them. */
export async function getRoles(db: pg.Pool, ctx: SignedInContext): Promise<string[]> {
  return auditedTransaction(db, ctx, async (tx) => {
    authorize(mayAdministerUsers(ctx.actor), { action: 'role.list', resourceType: 'role', reason: 'roles are for admins' });
    return listRoleNames(tx);
  });
}
