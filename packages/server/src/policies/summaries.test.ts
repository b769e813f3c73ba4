import { describe, expect, it } from 'vitest';
import { actorOf } from './actor.ts';
import { summaryArchiveScope } from './summaries.ts';

const provider = actorOf({ id: 7, email: 'p@example.org', role: 'provider', organizationId: 3, cognitoUsername: null });
const admin = actorOf({ id: 1, email: 'a@example.org', role: 'admin', organizationId: null, cognitoUsername: null });

describe('summaryArchiveScope', () => {
  it('gives a provider their own patients of their organization', () => {
    expect(summaryArchiveScope(provider, null)).toEqual({ providerId: 7, organizationId: 3 });
    expect(summaryArchiveScope(provider, 7)).toEqual({ providerId: 7, organizationId: 3 });
  });
  it('refuses a provider asking for another provider', () => {
    expect(summaryArchiveScope(provider, 8)).toBe(false);
  });
  it('lets an admin name any provider, in every organization', () => {
    expect(summaryArchiveScope(admin, 8)).toEqual({ providerId: 8, organizationId: null });
  });
});
