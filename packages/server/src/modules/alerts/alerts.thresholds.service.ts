import {
  ALERT_THRESHOLD_KEYS,
  DEFAULT_STALE_DAYS,
  type AlertSettings,
  type AlertSettingsBody,
  type AlertThresholdOverrides,
  type PatientThresholds,
} from '@rpm/contracts';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import { authorize, requirePatientAccess } from '../../kernel/access.ts';
import { auditedTransaction } from '../../kernel/audited-transaction.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { mayEditAlertSettings, mayReadAlertSettings } from '../../policies/alerts.ts';
import { presentThresholdSet } from './alerts.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { requireOrganization } from '../organizations/index.ts';
import { effectiveThresholds } from './alert-rules.ts';
import {
  findOrganizationSettings,
  findPatientOverrides,
  saveOrganizationSettings,
  savePatientOverrides,
} from './alerts.thresholds.repository.ts';

const blankOverrides = (): AlertThresholdOverrides =>
  Object.fromEntries(ALERT_THRESHOLD_KEYS.map((k) => [k, null])) as AlertThresholdOverrides;

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

async function thresholdsOf(tx: Queryable, patientId: number, organizationId: number): Promise<PatientThresholds> {
  const overrides = (await findPatientOverrides(tx, patientId)) ?? blankOverrides();
  const organization = await findOrganizationSettings(tx, organizationId);
  return {
    patient_id: patientId,
    overrides,
    effective: presentThresholdSet(effectiveThresholds(organization, overrides)),
  };
}

export async function putPatientThresholds(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
  body: AlertThresholdOverrides,
): Promise<PatientThresholds> {
  const action = 'alert.thresholds.update';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const patient = await requirePatientAccess(tx, ctx, patientId, action, true);
    const before = (await findPatientOverrides(tx, patientId)) ?? blankOverrides();
    await savePatientOverrides(tx, patientId, ctx.actor.id, body);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'patient',
      resourceId: patientId,
      details: { before, after: body },
    });
    return thresholdsOf(tx, patientId, patient.organization_id);
  });
}

function settingsAnswer(organizationId: number, stored: AlertSettingsBody | null): AlertSettings {
  const overrides = stored ?? { ...blankOverrides(), stale_days: null };
  return {
    organization_id: organizationId,
    overrides,
    effective: {
      ...presentThresholdSet(effectiveThresholds(overrides, null)),
      stale_days: overrides.stale_days ?? DEFAULT_STALE_DAYS,
    },
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
    const before = await findOrganizationSettings(tx, organizationId);
    await saveOrganizationSettings(tx, organizationId, ctx.actor.id, body);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'organization',
      resourceId: organizationId,
      details: { before, after: body },
    });
    return settingsAnswer(organizationId, body);
  });
}
