import type { Organization, OrganizationSettings, Provider } from '@rpm/contracts';
import type { OrganizationRow, ProviderRow } from './organizations.repository.ts';
import { staffName } from '../../kernel/people.ts';

export function presentOrganization(row: OrganizationRow): Organization {
  return { id: row.id, name: row.name };
}

export function presentOrganizationSettings(row: OrganizationRow): OrganizationSettings {
  return { id: row.id, name: row.name, require_mfa: row.require_mfa, time_zone: row.time_zone };
}

/** A provider in the patient form's list: the name without title (or e-mail), never null. */
export function presentProvider(row: ProviderRow): Provider {
  return { id: row.id, name: staffName(row, false) ?? row.email };
}
