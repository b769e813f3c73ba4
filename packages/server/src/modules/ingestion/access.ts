import { ApiErrors } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';
import type { SignedInContext } from '../../plugins/context.ts';
import { HttpError } from '../../plugins/errors.ts';
import { audit } from '../audit/audit.service.ts';

/**
 * The access call every ingestion admin service method starts with: checks the policy and, on a
 * refusal, writes the same audit record as the route-level admin check does.
 */
export async function requireAllowed(
  db: Queryable,
  ctx: SignedInContext,
  allowed: boolean,
  action: string,
  resourceType: string,
): Promise<void> {
  if (allowed) return;
  await audit(db, ctx, { action, outcome: 'denied', resourceType, reason: 'admin role required' });
  throw new HttpError(403, ApiErrors.forbidden);
}
