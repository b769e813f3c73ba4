import { describe, expect, it } from 'vitest';
import { actorOf as actor } from '../../test/support/actors.ts';
import {
  fhirOrganizationScope,
  mayManageIngestionSources,
  mayManageSmartClients,
  mayReadPatientViaFhir,
  mayReadViaFhir,
  maySendForOrganization,
  maySendReadings,
  isSecretHeaderAllowed,
  sourceRefusal,
  type SourcePrincipal,
  type StoredSource,
} from './ingestion.ts';

const source = (o: Partial<SourcePrincipal> = {}): SourcePrincipal => ({
  id: 's',
  kind: 'fhir',
  canRead: true,
  revoked: false,
  organizationId: 2,
  ...o,
});
const stored = (o: Partial<StoredSource> = {}): StoredSource => ({
  kind: 'tenovi',
  authHeader: 'x-rpm-ingest-secret',
  revokedAt: null,
  expiresAt: null,
  organizationId: 1,
  ...o,
});

describe('ingestion policy', () => {
  it('lets only admins manage sources', () => {
    expect(mayManageIngestionSources(actor('admin', 1))).toBe(true);
    expect(mayManageIngestionSources(actor('provider', 1))).toBe(false);
    expect(mayManageSmartClients(actor('admin', 1))).toBe(true);
    expect(mayManageSmartClients(actor('provider', 1))).toBe(false);
  });

  it('lets a source send only to its own kind of endpoint, and never once revoked', () => {
    expect(maySendReadings(source({ kind: 'tenovi' }), 'tenovi')).toBe(true);
    expect(maySendReadings(source({ kind: 'tenovi' }), 'fhir')).toBe(false);
    expect(maySendReadings(source({ revoked: true }), 'fhir')).toBe(false);
  });

  it('lets staff read FHIR data of their own organization only, admins all, SMART clients their own; never a static key', () => {
    expect(mayReadPatientViaFhir({ kind: 'staff', actor: actor('provider', 1) }, 1)).toBe(true);
    expect(mayReadPatientViaFhir({ kind: 'staff', actor: actor('provider', 1) }, 2)).toBe(false);
    expect(mayReadPatientViaFhir({ kind: 'staff', actor: actor('provider', null) }, 2)).toBe(false);
    expect(mayReadPatientViaFhir({ kind: 'staff', actor: actor('admin', 1) }, 2)).toBe(true);
    // Static read keys are retired: even one made with can_read reads nothing.
    expect(mayReadPatientViaFhir({ kind: 'source', source: source() }, 2)).toBe(false);
    expect(mayReadViaFhir({ kind: 'source', source: source() })).toBe(false);
    const client = { id: 'c', name: 'EHR', organizationId: 2, scopes: ['system/Patient.rs'] };
    expect(mayReadViaFhir({ kind: 'client', client })).toBe(true);
    expect(mayReadPatientViaFhir({ kind: 'client', client }, 2)).toBe(true);
    expect(mayReadPatientViaFhir({ kind: 'client', client }, 3)).toBe(false);
    expect(fhirOrganizationScope({ kind: 'client', client })).toBe(2);
    expect(mayReadViaFhir({ kind: 'staff', actor: actor('provider', 1) })).toBe(true);
    expect(fhirOrganizationScope({ kind: 'source', source: source() })).toBe(2);
    expect(mayReadPatientViaFhir({ kind: 'source', source: source({ canRead: false }) }, 2)).toBe(false);
    expect(mayReadPatientViaFhir({ kind: 'source', source: source({ kind: 'tenovi' }) }, 2)).toBe(false);
    expect(fhirOrganizationScope({ kind: 'staff', actor: actor('provider', null) })).toBe(-1);
    expect(fhirOrganizationScope({ kind: 'staff', actor: actor('admin', 3) })).toBeNull();
  });

  it('lets a source write only for patients of its own organization', () => {
    expect(maySendForOrganization(source({ kind: 'tenovi' }), 2)).toBe(true);
    expect(maySendForOrganization(source({ kind: 'tenovi' }), 3)).toBe(false);
    expect(maySendForOrganization(source({ revoked: true }), 2)).toBe(false);
  });

  it('allows a secret only in a custom x- header that no proxy or log touches', () => {
    expect(isSecretHeaderAllowed('x-rpm-ingest-secret')).toBe(true);
    expect(isSecretHeaderAllowed('X-Clinic-Key')).toBe(true);
    for (const h of [
      'cookie',
      'authorization',
      'host',
      'x-',
      'x-forwarded-for',
      'X-Real-IP',
      'x-request-id',
      'x-amz-date',
    ])
      expect(isSecretHeaderAllowed(h), h).toBe(false);
  });

  it('refuses a revoked or expired source, one without an organization, and a standard secret header', () => {
    const now = new Date('2026-06-01T12:00:00Z');
    expect(sourceRefusal(stored(), now)).toBeNull();
    expect(sourceRefusal(stored({ kind: 'fhir', authHeader: null }), now)).toBeNull();
    expect(sourceRefusal(stored({ revokedAt: now }), now)).toBe('source revoked');
    expect(sourceRefusal(stored({ expiresAt: now }), now)).toBe('source expired');
    expect(sourceRefusal(stored({ expiresAt: new Date(now.getTime() + 1) }), now)).toBeNull();
    expect(sourceRefusal(stored({ organizationId: null }), now)).toBe('source without organization');
    expect(sourceRefusal(stored({ authHeader: 'cookie' }), now)).toBe('secret header not allowed');
    expect(sourceRefusal(stored({ authHeader: 'x-forwarded-for' }), now)).toBe('secret header not allowed');
  });
});
