import type { Queryable } from '../../../src/db/pool.ts';
import { kysely } from '../../../src/db/kysely.ts';
import { insertOrganization } from '../../../src/modules/organizations/organizations.repository.ts';
import { unique } from './common.ts';

export async function buildOrganization(
  db: Queryable,
  o: { name?: string; requireMfa?: boolean; timeZone?: string } = {},
) {
  const row = await insertOrganization(db, o.name ?? unique('Clinic'));
  if (!row) throw new Error(`an organization named ${o.name} exists already`);
  if (o.requireMfa !== undefined || o.timeZone !== undefined) {
    await kysely(db)
      .updateTable('organizations')
      .set({
        ...(o.requireMfa === undefined ? {} : { require_mfa: o.requireMfa }),
        ...(o.timeZone ? { time_zone: o.timeZone } : {}),
      })
      .where('id', '=', row.id)
      .execute();
  }
  return { id: row.id, name: row.name };
}

/** An organization's time zone, for one made through the API (which leaves the default). */
export async function setOrganizationTimeZone(db: Queryable, organizationId: number, timeZone: string): Promise<void> {
  await kysely(db).updateTable('organizations').set({ time_zone: timeZone }).where('id', '=', organizationId).execute();
}

/** The identifier system an organization's patient MRNs belong to (FHIR identifiers); set by the owner. */
export async function setPatientIdentifierSystem(db: Queryable, organizationId: number, system: string): Promise<void> {
  await kysely(db)
    .updateTable('organizations')
    .set({ patient_identifier_system: system })
    .where('id', '=', organizationId)
    .execute();
}

/** How many months of readings an organization keeps (null: all), for one organization or every one. */
export async function setObservationRetention(
  db: Queryable,
  of: { organizationId: number } | 'every organization',
  months: number | null,
): Promise<void> {
  const update = kysely(db).updateTable('organizations').set({ observation_retention_months: months });
  await (of === 'every organization' ? update : update.where('id', '=', of.organizationId)).execute();
}
