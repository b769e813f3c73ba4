import { AdminErrors, type Organization, type OrganizationSettings, type Provider } from '@rpm/contracts';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import type { SignedInContext } from '../../plugins/context.ts';
import { audit } from '../audit/audit.service.ts';
import {
  findOrganizationSettings,
  insertOrganization,
  listOrganizations,
  listProviders,
  organizationExists,
  setRequireMfa,
} from './organizations.repository.ts';

/** Admins see every organization; a provider only their own (the patient form needs it). */
export async function getOrganizations(db: pg.Pool, ctx: SignedInContext): Promise<Organization[]> {
  if (ctx.actor.role === 'admin') return listOrganizations(db, null);
  if (ctx.actor.organizationId === null) return [];
  return listOrganizations(db, ctx.actor.organizationId);
}

export async function createOrganization(db: pg.Pool, ctx: SignedInContext, rawName: string): Promise<Organization> {
  const name = rawName.trim();
  if (!name) {
    await audit(db, ctx, { action: 'organization.create', outcome: 'failure', resourceType: 'organization', reason: 'name required' });
    throw badRequest(AdminErrors.organizationNameRequired);
  }
  const created = await withTransaction(db, async (tx) => {
    const org = await insertOrganization(tx, name);
    if (org) {
      await audit(tx, ctx, { action: 'organization.create', outcome: 'success', resourceType: 'organization', resourceId: org.id });
    }
    return org;
  });
  if (!created) {
    await audit(db, ctx, { action: 'organization.create', outcome: 'failure', resourceType: 'organization', reason: 'duplicate name' });
    throw conflict(AdminErrors.organizationExists);
  }
  return created;
}

/**
 * Providers of one organization. A provider asking about another organization gets the same
 * 404 as for one that does not exist, so ids of other organizations reveal nothing.
 */
export async function getProviders(db: pg.Pool, ctx: SignedInContext, organizationId: number): Promise<Provider[]> {
  const allowed = ctx.actor.role === 'admin' || ctx.actor.organizationId === organizationId;
  if (!allowed || !(await organizationExists(db, organizationId))) throw notFound();
  return listProviders(db, organizationId);
}

/** Admin only (the route says so): an organization's settings. */
export async function getOrganizationSettings(db: pg.Pool, ctx: SignedInContext, id: number): Promise<OrganizationSettings> {
  const settings = await findOrganizationSettings(db, id);
  if (!settings) {
    await audit(db, ctx, { action: 'organization.settings_read', outcome: 'failure', resourceType: 'organization', resourceId: id, reason: 'not found' });
    throw notFound();
  }
  return settings;
}

/**
 * Organization-wide MFA: with `require_mfa` on, the user pool asks every user of the organization
 * who has no MFA yet to set it up at their next sign-in (local pool; see identity/index.ts for
 * Cognito). Sessions already open are not ended.
 */
export async function updateOrganizationSettings(
  db: pg.Pool,
  ctx: SignedInContext,
  id: number,
  body: { require_mfa: boolean },
): Promise<OrganizationSettings> {
  const base = { action: 'organization.settings_update', resourceType: 'organization', resourceId: id } as const;
  const updated = await withTransaction(db, async (tx) => {
    const before = await findOrganizationSettings(tx, id);
    const after = before ? await setRequireMfa(tx, id, body.require_mfa) : null;
    if (before && after) {
      await audit(tx, ctx, { ...base, outcome: 'success', details: { require_mfa: { from: before.require_mfa, to: after.require_mfa } } });
    }
    return after;
  });
  if (!updated) {
    await audit(db, ctx, { ...base, outcome: 'failure', reason: 'not found' });
    throw notFound();
  }
  return updated;
}
