import { describe, expect, it } from 'vitest';
import type { Role } from '@rpm/contracts';
import { actorOf, type Actor } from './actor.ts';
import { billingReportScope, mayCloseBillingMonth, mayMarkClaimsSent, mayReopenBillingMonth } from './billing.ts';

const actor = (role: Role, organizationId: number | null): Actor =>
  actorOf({ id: 1, email: 'x@example.com', role, organizationId, cognitoUsername: null });
const admin = actor('admin', null);
const provider = actor('provider', 7);
const loneProvider = actor('provider', null);

describe('billing policy', () => {
  it('lets admins see every organization or the one they pick', () => {
    expect(billingReportScope(admin, null)).toBeNull();
    expect(billingReportScope(admin, 9)).toBe(9);
  });

  it('limits a provider to their own organization and refuses another one', () => {
    expect(billingReportScope(provider, null)).toBe(7);
    expect(billingReportScope(provider, 7)).toBe(7);
    expect(billingReportScope(provider, 8)).toBe(false);
  });

  it('gives a provider without an organization nothing', () => {
    expect(billingReportScope(loneProvider, null)).toBe(-1);
    expect(billingReportScope(loneProvider, 7)).toBe(false);
  });

  it('lets only admins close a month', () => {
    expect(mayCloseBillingMonth(admin)).toBe(true);
    expect(mayCloseBillingMonth(provider)).toBe(false);
  });

  it('lets only admins reopen a month or mark its claims sent', () => {
    expect(mayReopenBillingMonth(admin)).toBe(true);
    expect(mayReopenBillingMonth(provider)).toBe(false);
    expect(mayMarkClaimsSent(admin)).toBe(true);
    expect(mayMarkClaimsSent(provider)).toBe(false);
  });
});
