import { describe, expect, it } from 'vitest';
import { actorOf as actor } from '../../test/support/actors.ts';
import { mayExportGroupOf, mayFollowExport, patientExportOrganization, requesterOf } from './bulk-export.ts';
import type { FhirReader, SmartClientPrincipal, SourcePrincipal } from './ingestion.ts';

const source = (o: Partial<SourcePrincipal> = {}): FhirReader => ({
  kind: 'source',
  source: { id: 'src-1', kind: 'fhir', canRead: true, revoked: false, organizationId: 2, ...o },
});
const client = (o: Partial<SmartClientPrincipal> = {}): FhirReader => ({
  kind: 'client',
  client: { id: 'client-1', name: 'EHR', organizationId: 2, scopes: ['system/Group.rs', 'system/Patient.rs'], ...o },
});
const staff = (role: 'admin' | 'provider', organizationId: number | null, id?: number): FhirReader => ({
  kind: 'staff',
  actor: actor(role, organizationId, id),
});

describe('bulk export policy', () => {
  it("exports a group only for readers of that group's organization (administrators any)", () => {
    expect(mayExportGroupOf(client(), 2)).toBe(true);
    expect(mayExportGroupOf(client(), 3)).toBe(false);
    // Static read keys were retired for SMART clients: a source reads nothing, exports nothing.
    expect(mayExportGroupOf(source(), 2)).toBe(false);
    expect(mayExportGroupOf(staff('provider', 2), 2)).toBe(true);
    expect(mayExportGroupOf(staff('provider', 2), 3)).toBe(false);
    expect(mayExportGroupOf(staff('admin', 2), 3)).toBe(true);
  });

  it("Patient/$export covers the reader's own organization; administrators and providers without one name a group", () => {
    expect(patientExportOrganization(client())).toBe(2);
    expect(patientExportOrganization(source())).toBeNull();
    expect(patientExportOrganization(staff('provider', 4))).toBe(4);
    expect(patientExportOrganization(staff('provider', null))).toBeNull();
    expect(patientExportOrganization(staff('admin', 4))).toBeNull();
  });

  it('lets only the requester, or an administrator, follow an export', () => {
    const provider = staff('provider', 2, 77);
    const mine = requesterOf(provider);
    expect(mine).toEqual({ kind: 'staff', id: '77' });
    expect(mayFollowExport(provider, mine)).toBe(true);
    expect(mayFollowExport(staff('provider', 2, 78), mine)).toBe(false);
    expect(mayFollowExport(staff('admin', 9), mine)).toBe(true);
    // A source whose id happens to be a staff member's id is still another requester.
    expect(mayFollowExport(source({ id: '77' }), mine)).toBe(false);
    expect(mayFollowExport(client({ id: '77' }), mine)).toBe(false);
    expect(mayFollowExport(client(), requesterOf(client()))).toBe(true);
    expect(mayFollowExport(client({ id: 'client-2' }), requesterOf(client()))).toBe(false);
  });
});
