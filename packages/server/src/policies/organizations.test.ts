import { describe, expect, it } from 'vitest';
import { actorOf as actor } from '../../test/support/actors.ts';
import { mayManageOrganizations, mayReadOrganization, organizationListScope } from './organizations.ts';

describe('organizations policy', () => {
  it('shows admins every organization and a provider their own, or none', () => {
    expect(organizationListScope(actor('admin', 4))).toBeNull();
    expect(organizationListScope(actor('provider', 4))).toBe(4);
    expect(organizationListScope(actor('provider', null))).toBe(-1);
  });

  it('lets a provider read their own organization only', () => {
    expect(mayReadOrganization(actor('admin', null), { id: 4 })).toBe(true);
    expect(mayReadOrganization(actor('provider', 4), { id: 4 })).toBe(true);
    expect(mayReadOrganization(actor('provider', 5), { id: 4 })).toBe(false);
    expect(mayReadOrganization(actor('provider', null), { id: 4 })).toBe(false);
  });

  it('leaves creating organizations and their settings to admins', () => {
    expect(mayManageOrganizations(actor('admin', null))).toBe(true);
    expect(mayManageOrganizations(actor('provider', 4))).toBe(false);
  });
});
