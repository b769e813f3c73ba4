import { describe, expect, it } from 'vitest';
import { actorOf as actor } from '../../test/support/actors.ts';
import { mayWorkOutreach } from './outreach.ts';

describe('outreach policy', () => {
  const patient = { organization_id: 7 };
  it('lets admins and the providers of the patient organization work outreach', () => {
    expect(mayWorkOutreach(actor('admin', null), patient)).toBe(true);
    expect(mayWorkOutreach(actor('provider', 7), patient)).toBe(true);
  });
  it("refuses another organization's provider and a provider without one", () => {
    expect(mayWorkOutreach(actor('provider', 8), patient)).toBe(false);
    expect(mayWorkOutreach(actor('provider', null), patient)).toBe(false);
  });
});
