import type { Organization, OrganizationDisplayUnits, OrganizationSettings, Provider, TimerStart } from '@rpm/contracts';
import type { OrganizationRow, ProviderRow } from './organizations.repository.ts';
import { staffName } from '../../kernel/people.ts';

/** The column's CHECK allows only these two; anything else reads as the default. */
const timerStart = (stored: string): TimerStart => (stored === 'click' ? 'click' : 'open');

export function presentOrganization(row: OrganizationRow): Organization {
  return { id: row.id, name: row.name, timer_start: timerStart(row.timer_start) };
}

export function presentOrganizationSettings(row: OrganizationRow): OrganizationSettings {
  return {
    id: row.id,
    name: row.name,
    require_mfa: row.require_mfa,
    time_zone: row.time_zone,
    timer_start: timerStart(row.timer_start),
    observation_retention_months: row.observation_retention_months,
  };
}

/** A provider in the patient form's list: the name without title (or e-mail), never null. */
export function presentProvider(row: ProviderRow): Provider {
  return { id: row.id, name: staffName(row, false) ?? row.email };
}

/** Display units as stored: kind -> UCUM code (anything else in the JSON is left out). */
export function presentDisplayUnits(stored: unknown): OrganizationDisplayUnits {
  const units = typeof stored === 'object' && stored !== null ? Object.entries(stored) : [];
  return { display_units: Object.fromEntries(units.filter((e): e is [string, string] => typeof e[1] === 'string')) };
}
