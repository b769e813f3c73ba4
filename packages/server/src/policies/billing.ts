import { isAdmin } from './staff.ts';
import type { Actor } from './actor.ts';
import { mayAccessPatient, patientListScope } from './patients.ts';

/**
 * The billing report follows the patient rule: admins see every organization (or the one they
 * filter on), a provider only their own organization's patients. The answer is the organization
 * the report is limited to (`null`: all), or `false` when the request asks for rows the actor may
 * not see.
 */
export function billingReportScope(actor: Actor, requestedOrganizationId: number | null): number | null | false {
  const scope = patientListScope(actor);
  if (scope === null) return requestedOrganizationId;
  if (requestedOrganizationId !== null && !mayAccessPatient(actor, { organization_id: requestedOrganizationId }))
    return false;
  return scope;
}

/** Closing a month is a statement to the payer for every organization: admins only. */
export const mayCloseBillingMonth = (actor: Actor): boolean => isAdmin(actor);

/** Reopening a closed month (until its claims are sent) and marking its claims sent: admins only, as closing. */
export const mayReopenBillingMonth = (actor: Actor): boolean => isAdmin(actor);
export const mayMarkClaimsSent = (actor: Actor): boolean => isAdmin(actor);
