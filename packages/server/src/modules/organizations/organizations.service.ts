import {
  AdminErrors,
  ApiErrors,
  BillingErrors,
  observationRetentionError,
  type AuditAction,
  type Organization,
  type OrganizationSettings,
  type Provider,
  type UpdateOrganizationSettingsBody,
} from '@rpm/contracts';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { authorize } from '../../kernel/access.ts';
import { auditedTransaction, failure } from '../../kernel/audited-transaction.ts';
import { mayManageOrganizations, mayReadOrganization, organizationListScope } from '../../policies/organizations.ts';
import { presentOrganization, presentOrganizationSettings, presentProvider } from './organizations.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import {
  findOrganization,
  insertOrganization,
  isKnownTimeZone,
  listOrganizations,
  listProviders,
  organizationExists,
  setOrganizationSettings,
} from './organizations.repository.ts';

/** Whether the organization exists: other modules check an organization named in a request here. */
export { organizationExists };

/** Admins see every organization; a provider only their own (the patient form needs it). */
export async function getOrganizations(db: pg.Pool, ctx: SignedInContext): Promise<Organization[]> {
  return (await listOrganizations(db, organizationListScope(ctx.actor))).map(presentOrganization);
}

export async function createOrganization(db: pg.Pool, ctx: SignedInContext, rawName: string): Promise<Organization> {
  const action = 'organization.create';
  return auditedTransaction(db, ctx, async (tx) => {
    authorize(mayManageOrganizations(ctx.actor), { action, resourceType: 'organization', reason: 'organizations are created by admins' });
    const name = rawName.trim();
    if (!name) throw failure(400, AdminErrors.organizationNameRequired, { action, resourceType: 'organization', reason: 'name required' });
    const org = await insertOrganization(tx, name);
    if (!org) throw failure(409, AdminErrors.organizationExists, { action, resourceType: 'organization', reason: 'duplicate name' });
    await audit(tx, ctx, { action, outcome: 'success', resourceType: 'organization', resourceId: org.id });
    return presentOrganization(org);
  });
}

/**
 * Providers of one organization. A provider asking about another organization gets the same
 * 404 as for one that does not exist, so ids of other organizations reveal nothing.
 */
export async function getProviders(db: pg.Pool, ctx: SignedInContext, organizationId: number): Promise<Provider[]> {
  const action = 'organization.providers';
  const target = { action, resourceType: 'organization', resourceId: organizationId } as const;
  return auditedTransaction(db, ctx, async (tx) => {
    authorize(mayReadOrganization(ctx.actor, { id: organizationId }), { ...target, reason: 'another organization', status: 404 });
    if (!(await findOrganization(tx, organizationId))) throw failure(404, ApiErrors.notFound, { ...target, reason: 'not found' });
    return (await listProviders(tx, organizationId)).map(presentProvider);
  });
}

/** An organization's settings (admins only). */
export async function getOrganizationSettings(db: pg.Pool, ctx: SignedInContext, id: number): Promise<OrganizationSettings> {
  const target = { action: 'organization.settings_read', resourceType: 'organization', resourceId: id } as const;
  return auditedTransaction(db, ctx, async (tx) => {
    authorize(mayManageOrganizations(ctx.actor), { ...target, reason: 'settings are for admins' });
    const row = await findOrganization(tx, id);
    if (!row) throw failure(404, ApiErrors.notFound, { ...target, reason: 'not found' });
    return presentOrganizationSettings(row);
  });
}

/**
 * The organization's settings; `time_zone`, `timer_start` and `observation_retention_months` left
 * out keep their values. Each change is audited with its old and new value. A retention shorter
 * than the billing evidence needs (contracts, partitions.ts) is refused here and by the column's
 * CHECK; the daily partition maintenance applies it.
 *
 * Organization-wide MFA: with `require_mfa` on, the user pool asks every user of the organization
 * who has no MFA yet to set it up at their next sign-in (local pool; see modules/identity/index.ts for
 * Cognito). Sessions already open are not ended.
 */
export async function updateOrganizationSettings(
  db: pg.Pool,
  ctx: SignedInContext,
  id: number,
  body: UpdateOrganizationSettingsBody,
): Promise<OrganizationSettings> {
  const target = { action: 'organization.settings_update', resourceType: 'organization', resourceId: id } as const;
  return auditedTransaction(db, ctx, async (tx) => {
    authorize(mayManageOrganizations(ctx.actor), { ...target, reason: 'settings are for admins' });
    const before = await findOrganization(tx, id);
    if (body.time_zone !== undefined && !(await isKnownTimeZone(tx, body.time_zone))) {
      throw failure(400, BillingErrors.unknownTimeZone, { ...target, reason: 'unknown time zone' });
    }
    const retention = body.observation_retention_months;
    const retentionRefused = retention === undefined ? null : observationRetentionError(retention);
    if (retentionRefused) throw failure(400, retentionRefused, { ...target, reason: 'retention out of range' });
    const after = before
      ? await setOrganizationSettings(tx, id, {
          requireMfa: body.require_mfa,
          timeZone: body.time_zone,
          timerStart: body.timer_start,
          retentionMonths: retention,
        })
      : undefined;
    if (!before || !after) throw failure(404, ApiErrors.notFound, { ...target, reason: 'not found' });
    const details: Record<string, { from: unknown; to: unknown }> = { require_mfa: { from: before.require_mfa, to: after.require_mfa } };
    if (before.time_zone !== after.time_zone) details.time_zone = { from: before.time_zone, to: after.time_zone };
    if (before.timer_start !== after.timer_start) details.timer_start = { from: before.timer_start, to: after.timer_start };
    if (before.observation_retention_months !== after.observation_retention_months) {
      details.observation_retention_months = { from: before.observation_retention_months, to: after.observation_retention_months };
    }
    await audit(tx, ctx, { ...target, outcome: 'success', details });
    return presentOrganizationSettings(after);
  });
}

/**
 * Refuses (404, recorded like any other refusal) when the organization named in a path does not
 * exist: for other modules' routes under an organization (alert settings).
 */
export async function requireOrganization(tx: Queryable, organizationId: number, action: AuditAction): Promise<void> {
  if (await organizationExists(tx, organizationId)) return;
  throw failure(404, ApiErrors.notFound, {
    action,
    resourceType: 'organization',
    resourceId: organizationId,
    reason: 'no such organization',
  });
}
