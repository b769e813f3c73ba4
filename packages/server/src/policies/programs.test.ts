import { describe, expect, it } from 'vitest';
import { actorOf as actor } from '../../test/support/actors.ts';
import { mayChangeDisplayUnits, mayReadDisplayUnits } from './display-units.ts';
import { mayListPrograms, mayManagePrograms } from './programs.ts';

describe('programs policy', () => {
  it('lists programs to any staff member and leaves adding them to admins', () => {
    expect(mayListPrograms(actor('provider', null))).toBe(true);
    expect(mayListPrograms(actor('admin', null))).toBe(true);
    expect(mayManagePrograms(actor('admin', null))).toBe(true);
    expect(mayManagePrograms(actor('provider', 4))).toBe(false);
  });
});

describe('display units policy', () => {
  it("lets admins and the organization's own staff read them, and only admins change them", () => {
    expect(mayReadDisplayUnits(actor('admin', null), { id: 4 })).toBe(true);
    expect(mayReadDisplayUnits(actor('provider', 4), { id: 4 })).toBe(true);
    expect(mayReadDisplayUnits(actor('provider', 5), { id: 4 })).toBe(false);
    expect(mayReadDisplayUnits(actor('provider', null), { id: 4 })).toBe(false);
    expect(mayChangeDisplayUnits(actor('admin', null))).toBe(true);
    expect(mayChangeDisplayUnits(actor('provider', 4))).toBe(false);
  });
});
