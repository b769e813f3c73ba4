import { AdminErrors, ApiErrors } from '@rpm/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../policies/actor.ts';
import { auditsOf, refusalOf } from '../../../test/support/audit.ts';
import { buildOrganization, buildStaff, contextOf } from '../../../test/support/factories.ts';
import { serviceDatabase } from '../../../test/support/service-database.ts';
import { unreachablePool } from '../../../test/support/unreachable-pool.ts';
import { createUser, disableUser, enableUser, getUsers, resendInvite, resetMfa } from './users.service.ts';

const db = serviceDatabase();
const deps = () => ({ db: db.pool, identity: unreachablePool() });
let admin: Actor;
let org: number;

beforeAll(async () => {
  admin = await buildStaff(db.pool, 'admin');
  org = (await buildOrganization(db.pool)).id;
});

const newUser = (o: Partial<Parameters<typeof createUser>[2]> = {}) => ({
  email: 'new.person@example.com',
  first_name: 'New',
  last_name: 'Person',
  role: 'provider',
  organization_id: org,
  ...o,
});

describe('registering staff', () => {
  it('refuses a taken e-mail (any case), an unknown role or organization and a blank name before asking the pool', async () => {
    await buildStaff(db.pool, 'provider', { organizationId: org, email: 'taken@example.com' });
    const refused = (body: ReturnType<typeof newUser>) => refusalOf(db.pool, admin, (ctx) => createUser(deps(), ctx, body));
    const taken = await refused(newUser({ email: 'Taken@Example.com' }));
    expect(taken).toMatchObject({ status: 409, message: AdminErrors.emailTaken });
    expect(taken.audits).toEqual([expect.objectContaining({ action: 'user.create', outcome: 'failure', reason: 'duplicate email' })]);
    expect(await refused(newUser({ role: 'nurse' }))).toMatchObject({ status: 400, message: AdminErrors.unknownRole });
    expect(await refused(newUser({ organization_id: 999_999 }))).toMatchObject({ status: 400, message: AdminErrors.unknownOrganization });
    expect(await refused(newUser({ last_name: '  ' }))).toMatchObject({ status: 400, message: ApiErrors.badRequest });
  });

  it('records a pool that cannot be reached, and leaves no portal row', async () => {
    const r = await refusalOf(db.pool, admin, (ctx) => createUser(deps(), ctx, newUser({ email: 'later@example.com' })));
    expect(r.status).toBeUndefined(); // an internal error, not a refusal the caller is told about
    expect(r.audits).toEqual([expect.objectContaining({ outcome: 'failure', reason: 'user pool refused: Error' })]);
    expect((await getUsers(deps(), contextOf(admin))).map((u) => u.email)).not.toContain('later@example.com');
  });
});

describe('administering staff', () => {
  it('lists the users even when the pool is down, and records that it was', async () => {
    const ctx = contextOf(admin);
    const users = await getUsers(deps(), ctx);
    expect(users.find((u) => u.id === admin.id)).toMatchObject({ role: 'admin', cognito_status: null, status: 'active' });
    expect(await auditsOf(db.pool, ctx)).toEqual([
      expect.objectContaining({ action: 'user.list', outcome: 'success', details: { count: users.length, pool_status: 'unavailable' } }),
    ]);
  });

  it('disables and enables a portal-only account, recorded with the sessions ended', async () => {
    const target = await buildStaff(db.pool, 'provider', { organizationId: org });
    const ctx = contextOf(admin);
    expect(await disableUser(deps(), ctx, target.id)).toMatchObject({ id: target.id, status: 'disabled' });
    expect(await auditsOf(db.pool, ctx)).toEqual([
      expect.objectContaining({ action: 'user.disable', outcome: 'success', target_user_id: target.id, details: { sessions_ended: 0 } }),
    ]);
    expect(await enableUser(deps(), contextOf(admin), target.id)).toMatchObject({ id: target.id, status: 'active' });
  });

  it('keeps an admin from disabling themselves, recorded as denied', async () => {
    const r = await refusalOf(db.pool, admin, (ctx) => disableUser(deps(), ctx, admin.id));
    expect(r).toMatchObject({ status: 400, message: AdminErrors.cannotDisableSelf });
    expect(r.audits).toEqual([expect.objectContaining({ outcome: 'denied', reason: 'cannot disable self', target_user_id: admin.id })]);
  });

  it('answers 404 for an unknown user and 409 where the user has no pool account', async () => {
    expect(await refusalOf(db.pool, admin, (ctx) => enableUser(deps(), ctx, 999_999))).toMatchObject({ status: 404 });
    expect(await refusalOf(db.pool, admin, (ctx) => disableUser(deps(), ctx, 999_999))).toMatchObject({ status: 404 });
    const portalOnly = await buildStaff(db.pool, 'provider', { organizationId: org });
    for (const act of [resendInvite, resetMfa]) {
      const r = await refusalOf(db.pool, admin, (ctx) => act(deps(), ctx, portalOnly.id));
      expect(r).toMatchObject({ status: 409, message: AdminErrors.userPoolFailed });
      expect(r.audits).toEqual([expect.objectContaining({ outcome: 'failure', reason: 'no user pool account' })]);
    }
  });

  it('leaves all of it to admins, recorded as denied', async () => {
    const provider = await buildStaff(db.pool, 'provider', { organizationId: org });
    const r = await refusalOf(db.pool, provider, (ctx) => getUsers(deps(), ctx));
    expect(r.status).toBe(403);
    expect(r.audits).toEqual([expect.objectContaining({ action: 'user.list', outcome: 'denied' })]);
  });
});
