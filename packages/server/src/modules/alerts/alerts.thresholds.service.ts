import {
  ALERT_ORGANIZATION_SETTING_KEYS,
  AlertErrors,
  ALERT_THRESHOLD_KEYS,
  DEFAULT_ALERT_ORGANIZATION_SETTINGS,
  ORGANIZATION_ONLY_THRESHOLDS,
  effectiveThresholds,
  type AlertSettings,
  type AlertSettingsBody,
  type AlertThresholdOverrides,
  type PatientThresholds,
} from '@rpm/contracts';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import { authorize, requirePatientAccess } from '../../kernel/access.ts';
import { AuditedRefusal, auditedTransaction } from '../../kernel/audited-transaction.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { mayEditAlertSettings, mayReadAlertSettings } from '../../policies/alerts.ts';
import { presentThresholdSet } from './alerts.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { requireOrganization } from '../organizations/index.ts';
import { requestReevaluation } from './alerts.reevaluation.ts';
import {
  activeStaffOf,
  findOrganizationSettings,
  findPatientOverrides,
  patientPrograms,
  saveOrganizationSettings,
  savePatientOverrides,
} from './alerts.thresholds.repository.ts';

/** Refusal of escalation contacts (the contracts have no text for it yet). */
const PATIENT_KEYS = ALERT_THRESHOLD_KEYS.filter((k) => !ORGANIZATION_ONLY_THRESHOLDS.includes(k));

const blankPatientOverrides = (): AlertThresholdOverrides =>
  Object.fromEntries(PATIENT_KEYS.map((k) => [k, null])) as AlertThresholdOverrides;

const blankSettings = (): AlertSettingsBody =>
  ({
    ...Object.fromEntries(ALERT_THRESHOLD_KEYS.map((k) => [k, null])),
    ...Object.fromEntries(ALERT_ORGANIZATION_SETTING_KEYS.map((k) => [k, null])),
    escalation_contact_ids: [],
  }) as AlertSettingsBody;

export async function getPatientThresholds(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
): Promise<PatientThresholds> {
  const action = 'alert.thresholds.read';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const patient = await requirePatientAccess(tx, ctx, patientId, action);
    const answer = await thresholdsOf(tx, patientId, patient.organization_id);
    await audit(tx, ctx, { action, outcome: 'success', resourceType: 'patient', resourceId: patientId });
    return answer;
  });
}

/** The patient's own values, and what applies: theirs, else the organization's, else the default, with the programs. */
async function thresholdsOf(tx: Queryable, patientId: number, organizationId: number): Promise<PatientThresholds> {
  const overrides = (await findPatientOverrides(tx, patientId)) ?? blankPatientOverrides();
  const organization = await findOrganizationSettings(tx, organizationId);
  const programs = await patientPrograms(tx, patientId);
  return {
    patient_id: patientId,
    overrides,
    effective: presentThresholdSet(effectiveThresholds(organization, overrides, programs)),
  };
}

/** Sets the patient's own thresholds and queues the re-evaluation of the patient's alerts. */
export async function putPatientThresholds(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
  body: AlertThresholdOverrides,
): Promise<PatientThresholds> {
  const action = 'alert.thresholds.update';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const patient = await requirePatientAccess(tx, ctx, patientId, action, true);
    const before = (await findPatientOverrides(tx, patientId)) ?? blankPatientOverrides();
    await savePatientOverrides(tx, patientId, ctx.actor.id, body);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'patient',
      resourceId: patientId,
      details: { before, after: body },
    });
    await requestReevaluation(tx, { cause: 'patient-thresholds', patient_ids: [patientId] });
    return thresholdsOf(tx, patientId, patient.organization_id);
  });
}

function settingsAnswer(organizationId: number, stored: AlertSettingsBody | null): AlertSettings {
  const overrides = { ...blankSettings(), ...(stored ?? {}) } as AlertSettingsBody;
  const own = Object.fromEntries(
    ALERT_ORGANIZATION_SETTING_KEYS.map((k) => [k, overrides[k] ?? DEFAULT_ALERT_ORGANIZATION_SETTINGS[k]]),
  ) as typeof DEFAULT_ALERT_ORGANIZATION_SETTINGS;
  return {
    organization_id: organizationId,
    overrides,
    effective: { ...presentThresholdSet(effectiveThresholds(overrides, null)), ...own },
  };
}

export async function getAlertSettings(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  organizationId: number,
): Promise<AlertSettings> {
  const action = 'alert.settings.read';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    authorize(mayReadAlertSettings(ctx.actor, organizationId), {
      action,
      resourceType: 'organization',
      resourceId: organizationId,
      reason: 'organization of another provider',
      status: 404,
    });
    await requireOrganization(tx, organizationId, action);
    return settingsAnswer(organizationId, await findOrganizationSettings(tx, organizationId));
  });
}

/**
 * Sets the organization's defaults and settings. Escalation contacts must be active staff of the
 * organization (an e-mail to someone outside it would name the organization's alerts to them).
 * Queues the re-evaluation of the organization's patients.
 */
export async function putAlertSettings(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  organizationId: number,
  body: AlertSettingsBody,
): Promise<AlertSettings> {
  const action = 'alert.settings.update';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    authorize(mayEditAlertSettings(ctx.actor), {
      action,
      resourceType: 'organization',
      resourceId: organizationId,
      reason: 'not an admin',
    });
    await requireOrganization(tx, organizationId, action);
    const contacts = body.escalation_contact_ids ?? [];
    const staff = new Set(await activeStaffOf(tx, organizationId, contacts));
    const strangers = contacts.filter((id) => !staff.has(id));
    if (strangers.length) {
      throw new AuditedRefusal(400, AlertErrors.contactsNotStaff, {
        action,
        outcome: 'failure',
        resourceType: 'organization',
        resourceId: organizationId,
        reason: 'escalation contacts not active staff of the organization',
        details: { user_ids: strangers },
      });
    }
    const before = await findOrganizationSettings(tx, organizationId);
    await saveOrganizationSettings(tx, organizationId, ctx.actor.id, body);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'organization',
      resourceId: organizationId,
      details: { before, after: body },
    });
    await requestReevaluation(tx, { cause: 'organization-settings', organization_id: organizationId });
    return settingsAnswer(organizationId, await findOrganizationSettings(tx, organizationId));
  });
}
