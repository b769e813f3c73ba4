import { AdminErrors, type Organization, type Provider } from '@rpm/contracts';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import type { SignedInContext } from '../../plugins/context.ts';
import { audit } from '../audit/audit.service.ts';
import { insertOrganization, listOrganizations, listProviders, organizationExists } from './organizations.repository.ts';

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
