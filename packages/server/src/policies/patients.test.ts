import { describe, expect, it } from 'vitest';
import { actorOf as actor } from '../../test/support/actors.ts';
import { mayAccessPatient, mayPlacePatientIn, patientListScope } from './patients.ts';

describe('patients policy', () => {
  it('lets admins reach every patient and a provider only those of their organization', () => {
    expect(mayAccessPatient(actor('admin', null), { organization_id: 7 })).toBe(true);
    expect(mayAccessPatient(actor('admin', 1), { organization_id: 7 })).toBe(true);
    expect(mayAccessPatient(actor('provider', 7), { organization_id: 7 })).toBe(true);
    expect(mayAccessPatient(actor('provider', 1), { organization_id: 7 })).toBe(false);
    expect(mayAccessPatient(actor('provider', null), { organization_id: 7 })).toBe(false);
  });

  it('limits a provider’s lists to their organization, and one without to none', () => {
    expect(patientListScope(actor('admin', 3))).toBeNull();
    expect(patientListScope(actor('provider', 3))).toBe(3);
    expect(patientListScope(actor('provider', null))).toBe(-1);
  });

  it('lets a provider place a patient in their own organization only', () => {
    expect(mayPlacePatientIn(actor('admin', 1), 7)).toBe(true);
    expect(mayPlacePatientIn(actor('provider', 7), 7)).toBe(true);
    expect(mayPlacePatientIn(actor('provider', 1), 7)).toBe(false);
    expect(mayPlacePatientIn(actor('provider', null), 7)).toBe(false);
  });
});
