import { BULK_GROUP_ORGANIZATION_PREFIX, BULK_GROUP_PROVIDER_PREFIX, BulkExportTexts } from '@rpm/contracts';
import type { Group } from '@medplum/fhirtypes';
import type { Queryable } from '../../db/pool.ts';
import { type ExportRow, type ExportScope } from './bulk-export.repository.ts';
import { findOrganization, findProvider } from './bulk-export.resources.repository.ts';

/**
 * The groups the portal serves, which exist without being stored: `org-{id}`, an organization's
 * RPM program (its patients enrolled in RPM), and `provider-{id}`, a provider's panel (the
 * patients whose primary provider they are).
 */
export interface ResolvedGroup {
  id: string;
  name: string;
  scope: ExportScope;
}

const numberAfter = (id: string, prefix: string) => (id.startsWith(prefix) ? Number(id.slice(prefix.length)) : null);

/** The group an id names, or null when it names none. */
export async function resolveGroup(db: Queryable, id: string): Promise<ResolvedGroup | null> {
  const orgId = numberAfter(id, BULK_GROUP_ORGANIZATION_PREFIX);
  if (orgId !== null) {
    const org = await findOrganization(db, orgId);
    return org
      ? {
          id,
          name: BulkExportTexts.groupName.organization(org.name),
          scope: { kind: 'program', organizationId: org.id },
        }
      : null;
  }
  const providerId = numberAfter(id, BULK_GROUP_PROVIDER_PREFIX);
  if (providerId !== null) {
    const p = await findProvider(db, providerId);
    return p
      ? {
          id,
          name: BulkExportTexts.groupName.provider(providerName(p)),
          scope: { kind: 'panel', organizationId: p.organization_id, providerId: p.id },
        }
      : null;
  }
  return null;
}

export const providerName = (p: { first_name: string | null; last_name: string | null }) =>
  [p.first_name, p.last_name].filter(Boolean).join(' ') || 'provider';

/** Who a stored export covers. */
export function scopeOfExport(e: Pick<ExportRow, 'group_id' | 'organization_id'>): ExportScope {
  if (e.group_id === null) return { kind: 'organization', organizationId: e.organization_id };
  const providerId = numberAfter(e.group_id, BULK_GROUP_PROVIDER_PREFIX);
  return providerId !== null
    ? { kind: 'panel', organizationId: e.organization_id, providerId }
    : { kind: 'program', organizationId: e.organization_id };
}

/** A group as an R4 Group: a list of actual persons; its members are what `$export` returns. */
export function presentGroup(g: { id: string; name: string }, quantity?: number): Group {
  return {
    resourceType: 'Group',
    id: g.id,
    type: 'person',
    actual: true,
    name: g.name,
    ...(quantity !== undefined ? { quantity } : {}),
  };
}
