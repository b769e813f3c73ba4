import { ALERT_THRESHOLD_KEYS, type AlertSettingsBody, type AlertThresholdOverrides } from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

const OVERRIDE_COLUMNS = [...ALERT_THRESHOLD_KEYS];

export async function findPatientOverrides(db: Queryable, patientId: number): Promise<AlertThresholdOverrides | null> {
  const row = await kysely(db)
    .selectFrom('patient_alert_thresholds')
    .select(OVERRIDE_COLUMNS)
    .where('patient_id', '=', patientId)
    .executeTakeFirst();
  return row ?? null;
}

export async function savePatientOverrides(
  db: Queryable,
  patientId: number,
  userId: number,
  values: AlertThresholdOverrides,
): Promise<void> {
  await kysely(db)
    .insertInto('patient_alert_thresholds')
    .values({ patient_id: patientId, updated_by: userId, ...values })
    .onConflict((oc) => oc.column('patient_id').doUpdateSet({ ...values, updated_by: userId, updated_at: sql`now()` }))
    .execute();
}

export async function findOrganizationSettings(
  db: Queryable,
  organizationId: number,
): Promise<AlertSettingsBody | null> {
  const row = await kysely(db)
    .selectFrom('alert_settings')
    .select([...OVERRIDE_COLUMNS, 'stale_days'])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row ?? null;
}

export async function saveOrganizationSettings(
  db: Queryable,
  organizationId: number,
  userId: number,
  values: AlertSettingsBody,
): Promise<void> {
  await kysely(db)
    .insertInto('alert_settings')
    .values({ organization_id: organizationId, updated_by: userId, ...values })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet({ ...values, updated_by: userId, updated_at: sql`now()` }),
    )
    .execute();
}
