import { isAdmin } from './staff.ts';
import type { Actor } from './actor.ts';
import { mayAccessPatient, patientListScope } from './patients.ts';

/**
 * Alerts are patient data: who sees or works an alert follows the patient rule (admins every
 * organization, a provider only their own), in lists as in single alerts and live events.
 */
export const mayWorkAlert = (actor: Actor, alert: { organization_id: number }): boolean =>
  mayAccessPatient(actor, alert);

/** The organization the worklist, badge and live events are limited to; null for all. */
export const alertListScope = (actor: Actor): number | null => patientListScope(actor);

/** A patient's thresholds are set by the providers who may see the patient (and admins). */
export const maySetPatientThresholds = (actor: Actor, patient: { organization_id: number }): boolean =>
  mayAccessPatient(actor, patient);

/** Staff of an organization may read its alert settings (the patient page shows the defaults). */
export const mayReadAlertSettings = (actor: Actor, organizationId: number): boolean =>
  mayAccessPatient(actor, { organization_id: organizationId });

/** Organization defaults apply to every patient of it: admins only. */
export const mayEditAlertSettings = (actor: Actor): boolean => isAdmin(actor);

/** A live event reaches a stream limited to `scope` (alertListScope; null for all) if it is of that organization. */
export const streamHearsAlert = (scope: number | null, alert: { organization_id: number }): boolean =>
  scope === null || scope === alert.organization_id;
