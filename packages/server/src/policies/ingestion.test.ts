import { describe, expect, it } from 'vitest';
import { actorOf as actor } from '../../test/support/actors.ts';
import {
  fhirOrganizationScope,
  mayManageIngestionSources,
  mayReadPatientViaFhir,
  maySendReadings,
  type SourcePrincipal,
} from './ingestion.ts';

const source = (o: Partial<SourcePrincipal> = {}): SourcePrincipal => ({
  id: 's',
  kind: 'fhir',
  canRead: true,
  revoked: false,
  ...o,
});

describe('ingestion policy', () => {
  it('lets only admins manage sources', () => {
    expect(mayManageIngestionSources(actor('admin', 1))).toBe(true);
    expect(mayManageIngestionSources(actor('provider', 1))).toBe(false);
  });

  it('lets a source send only to its own kind of endpoint, and never once revoked', () => {
    expect(maySendReadings(source({ kind: 'tenovi' }), 'tenovi')).toBe(true);
    expect(maySendReadings(source({ kind: 'tenovi' }), 'fhir')).toBe(false);
    expect(maySendReadings(source({ revoked: true }), 'fhir')).toBe(false);
  });

  it('lets staff read FHIR data of their own organization only, admins all, sources with a read key', () => {
    expect(mayReadPatientViaFhir({ kind: 'staff', actor: actor('provider', 1) }, 1)).toBe(true);
    expect(mayReadPatientViaFhir({ kind: 'staff', actor: actor('provider', 1) }, 2)).toBe(false);
    expect(mayReadPatientViaFhir({ kind: 'staff', actor: actor('provider', null) }, 2)).toBe(false);
    expect(mayReadPatientViaFhir({ kind: 'staff', actor: actor('admin', 1) }, 2)).toBe(true);
    expect(mayReadPatientViaFhir({ kind: 'source', source: source() }, 2)).toBe(true);
    expect(mayReadPatientViaFhir({ kind: 'source', source: source({ canRead: false }) }, 2)).toBe(false);
    expect(mayReadPatientViaFhir({ kind: 'source', source: source({ kind: 'tenovi' }) }, 2)).toBe(false);
    expect(fhirOrganizationScope({ kind: 'staff', actor: actor('provider', null) })).toBe(-1);
    expect(fhirOrganizationScope({ kind: 'staff', actor: actor('admin', 3) })).toBeNull();
  });
});
