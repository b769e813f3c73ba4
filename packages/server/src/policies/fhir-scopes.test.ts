import { describe, expect, it } from 'vitest';
import { grantScopes, parseSystemScope, readerHasScope, scopesCover } from './fhir-scopes.ts';

describe('SMART system scopes', () => {
  it('reads v2 letters in cruds order and the v1 read/write spellings; refuses the rest', () => {
    expect(parseSystemScope('system/Observation.rs')).toEqual({
      resourceType: 'Observation',
      interactions: new Set(['r', 's']),
    });
    expect([...parseSystemScope('system/Patient.read')!.interactions]).toEqual(['r', 's']);
    expect([...parseSystemScope('system/Observation.write')!.interactions]).toEqual(['c', 'u', 'd']);
    for (const bad of [
      'system/Observation.sr',
      'patient/Observation.rs',
      'system/Observation.',
      'launch',
      'system/Observation.rs?category=x',
      'system/observation.rs',
    ]) {
      expect(parseSystemScope(bad), bad).toBeNull();
    }
  });

  it('covers a need only with a scope of its type (or *) holding its letter', () => {
    expect(scopesCover(['system/Observation.rs'], { resourceType: 'Observation', interaction: 's' })).toBe(true);
    expect(scopesCover(['system/Observation.rs'], { resourceType: 'Observation', interaction: 'c' })).toBe(false);
    expect(scopesCover(['system/Observation.rs'], { resourceType: 'Patient', interaction: 'r' })).toBe(false);
    expect(scopesCover(['system/*.rs'], { resourceType: 'Patient', interaction: 'r' })).toBe(true);
    expect(scopesCover([], { resourceType: 'Patient', interaction: 'r' })).toBe(false);
  });

  it('grants each requested scope cut down to what the client is allowed', () => {
    const allowed = ['system/Patient.rs', 'system/Observation.rs', 'system/Observation.c'];
    expect(grantScopes(['system/Patient.rs', 'system/Observation.c'], allowed)).toEqual([
      'system/Patient.rs',
      'system/Observation.c',
    ]);
    expect(grantScopes(['system/Observation.cruds'], allowed)).toEqual(['system/Observation.crs']);
    expect(grantScopes(['system/*.rs'], allowed)).toEqual(['system/Patient.rs', 'system/Observation.rs']);
    expect(grantScopes(['system/Patient.read'], allowed)).toEqual(['system/Patient.rs']);
    expect(grantScopes(['system/Device.rs', 'user/Patient.rs'], allowed)).toEqual([]);
  });

  it('lets staff through, a client by its scopes, and a static key nowhere', () => {
    const need = { resourceType: 'Group', interaction: 'r' } as const;
    const client = { id: 'c', name: 'EHR', organizationId: 1, scopes: ['system/Group.rs'] };
    expect(readerHasScope({ kind: 'client', client }, need)).toBe(true);
    expect(readerHasScope({ kind: 'client', client: { ...client, scopes: ['system/Patient.rs'] } }, need)).toBe(false);
    expect(
      readerHasScope(
        { kind: 'source', source: { id: 's', kind: 'fhir', canRead: true, revoked: false, organizationId: 1 } },
        need,
      ),
    ).toBe(false);
  });
});
