import type { Actor } from './actor.ts';
import { patientListScope } from './patients.ts';
import { isAdmin } from './staff.ts';

/**
 * Whose patients' monthly summaries an actor may generate as one archive: a provider their own
 * (as primary or ordering provider), an admin any provider's. The answer is the provider and the
 * organization the patients are limited to (`null`: every one), or `false` when refused.
 * One patient's summary follows the patient rule (requirePatientAccess).
 */
export function summaryArchiveScope(
  actor: Actor,
  requestedProviderId: number | null,
): { providerId: number; organizationId: number | null } | false {
  const providerId = requestedProviderId ?? actor.id;
  if (providerId !== actor.id && !isAdmin(actor)) return false;
  return { providerId, organizationId: patientListScope(actor) };
}
