import type { Actor } from './actor.ts';
import { isAdmin, organizationScope } from './staff.ts';

/**
 * The devices list names patients, so a provider sees the free devices and those of their own
 * organization's patients: the organization the list is limited to, `null` for all.
 */
export function deviceListScope(actor: Actor): number | null {
  return organizationScope(actor);
}

/** Devices are registered by admins only. */
export function mayCreateDevice(actor: Actor): boolean {
  return isAdmin(actor);
}

/** Which patient holds a device decides whose readings it records: admins only. */
export function mayAssignDevices(actor: Actor): boolean {
  return isAdmin(actor);
}
