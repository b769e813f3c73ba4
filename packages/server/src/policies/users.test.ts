import { describe, expect, it } from 'vitest';
import { actorOf as actor } from '../../test/support/actors.ts';
import { mayAdministerUsers, mayDisableUser } from './users.ts';

describe('users policy', () => {
  it('leaves staff administration to admins', () => {
    expect(mayAdministerUsers(actor('admin', null))).toBe(true);
    expect(mayAdministerUsers(actor('provider', 1))).toBe(false);
  });

  it('lets an admin disable anyone but themselves', () => {
    const admin = actor('admin', null, 10);
    expect(mayDisableUser(admin, { id: 11 })).toBe(true);
    expect(mayDisableUser(admin, { id: 10 })).toBe(false);
    expect(mayDisableUser(actor('provider', 1, 12), { id: 11 })).toBe(false);
  });
});
