import { AdminErrors, ApiErrors } from '@rpm/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../policies/actor.ts';
import { refusalOf } from '../../../test/support/audit.ts';
import { buildOrganization, buildStaff, contextOf } from '../../../test/support/factories.ts';
import { serviceDatabase } from '../../../test/support/service-database.ts';
import { createOrganization, getOrganizations, getProviders, updateOrganizationSettings } from './organizations.service.ts';

const db = serviceDatabase();
let admin: Actor;
let org: number;
let otherOrg: number;

beforeAll(async () => {
  admin = await buildStaff(db.pool, 'admin');
  org = (await buildOrganization(db.pool)).id;
  otherOrg = (await buildOrganization(db.pool)).id;
});

describe('organizations', () => {
  it('creates a trimmed, new name; the same name in other case or spacing is refused and recorded', async () => {
    const created = await createOrganization(db.pool, contextOf(admin), '  North  Clinic ');
    expect(created.name).toBe('North  Clinic');
    const r = await refusalOf(db.pool, admin, (ctx) => createOrganization(db.pool, ctx, 'north  clinic'));
    expect(r).toMatchObject({ status: 409, message: AdminErrors.organizationExists });
    expect(r.audits).toEqual([expect.objectContaining({ outcome: 'failure', reason: 'duplicate name' })]);
    expect((await refusalOf(db.pool, admin, (ctx) => createOrganization(db.pool, ctx, '   '))).message).toBe(
      AdminErrors.organizationNameRequired,
    );
  });

  it('shows a provider their own organization only, and one without an organization none', async () => {
    const provider = await buildStaff(db.pool, 'provider', { organizationId: org });
    expect((await getOrganizations(db.pool, contextOf(provider))).map((o) => o.id)).toEqual([org]);
    expect(await getOrganizations(db.pool, contextOf(await buildStaff(db.pool, 'provider')))).toEqual([]);
  });

  it('lists active providers by last name, named by e-mail when they have no name', async () => {
    const o = (await buildOrganization(db.pool)).id;
    await buildStaff(db.pool, 'provider', { organizationId: o, firstName: 'Zed', lastName: 'Young' });
    await buildStaff(db.pool, 'provider', { organizationId: o, firstName: ' Al ', lastName: 'Baker' });
    await buildStaff(db.pool, 'provider', { organizationId: o, firstName: null, lastName: null, email: 'noname@example.com' });
    await buildStaff(db.pool, 'provider', { organizationId: o, lastName: 'Gone', status: 'disabled' });
    await buildStaff(db.pool, 'admin', { organizationId: o, lastName: 'Admin' });
    const names = (await getProviders(db.pool, contextOf(admin), o)).map((p) => p.name);
    expect(names).toEqual(['Al Baker', 'Zed Young', 'noname@example.com']);
  });

  it('answers a provider asking about another organization as if it did not exist, recorded', async () => {
    const provider = await buildStaff(db.pool, 'provider', { organizationId: org });
    const r = await refusalOf(db.pool, provider, (ctx) => getProviders(db.pool, ctx, otherOrg));
    expect(r).toMatchObject({ status: 404, message: ApiErrors.notFound });
    expect(r.audits).toEqual([expect.objectContaining({ outcome: 'denied' })]);
    expect((await refusalOf(db.pool, admin, (ctx) => getProviders(db.pool, ctx, 999_999))).status).toBe(404);
  });

  it('records the MFA requirement’s change from and to', async () => {
    const ctx = contextOf(admin);
    expect(await updateOrganizationSettings(db.pool, ctx, org, { require_mfa: true })).toMatchObject({ id: org, require_mfa: true });
    const r = await refusalOf(db.pool, admin, (c) => updateOrganizationSettings(db.pool, c, 999_999, { require_mfa: true }));
    expect(r).toMatchObject({ status: 404 });
    expect(r.audits).toEqual([expect.objectContaining({ outcome: 'failure', reason: 'not found' })]);
  });
});
