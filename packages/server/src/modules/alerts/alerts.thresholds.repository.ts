import {
  ALERT_ORGANIZATION_SETTING_KEYS,
  ALERT_THRESHOLD_KEYS,
  ORGANIZATION_ONLY_THRESHOLDS,
  type AlertSettingsBody,
  type AlertThresholdOverrides,
} from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

/** A patient's own thresholds: every key but those only an organization sets. */
const PATIENT_COLUMNS = ALERT_THRESHOLD_KEYS.filter((k) => !ORGANIZATION_ONLY_THRESHOLDS.includes(k)) as Exclude<
  (typeof ALERT_THRESHOLD_KEYS)[number],
  'spo2_target_copd'
>[];
const ORGANIZATION_COLUMNS = [
  ...ALERT_THRESHOLD_KEYS,
  ...ALERT_ORGANIZATION_SETTING_KEYS,
  'escalation_contact_ids',
] as const;

export async function findPatientOverrides(db: Queryable, patientId: number): Promise<AlertThresholdOverrides | null> {
  const row = await kysely(db)
    .selectFrom('patient_alert_thresholds')
    .select(PATIENT_COLUMNS)
    .where('patient_id', '=', patientId)
    .executeTakeFirst();
  return row ?? null;
}

export async function savePatientOverrides(
  db: Queryable,
  patientId: number,
  userId: number,
  body: AlertThresholdOverrides,
): Promise<void> {
  // Only the patient's keys (the body's schema allows no other).
  const values = Object.fromEntries(PATIENT_COLUMNS.map((k) => [k, body[k] ?? null]));
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
    .select([...ORGANIZATION_COLUMNS])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return (row as AlertSettingsBody | undefined) ?? null;
}

export async function saveOrganizationSettings(
  db: Queryable,
  organizationId: number,
  userId: number,
  body: AlertSettingsBody,
): Promise<void> {
  const values = Object.fromEntries(
    ORGANIZATION_COLUMNS.map((k) => [
      k,
      k === 'escalation_contact_ids' ? body.escalation_contact_ids : (body[k] ?? null),
    ]),
  );
  await kysely(db)
    .insertInto('alert_settings')
    .values({ organization_id: organizationId, updated_by: userId, ...values })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet({ ...values, updated_by: userId, updated_at: sql`now()` }),
    )
    .execute();
}

/** The ids among `userIds` that are active users of the organization (escalation contacts must be). */
export async function activeStaffOf(db: Queryable, organizationId: number, userIds: number[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  const rows = await kysely(db)
    .selectFrom('users')
    .select('id')
    .where('id', 'in', userIds)
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'active')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The patient's care programs (their ids), which change what applies (COPD: the oxygen target).
 * Read here rather than through the programs module, which asks this module to re-evaluate when
 * they change (an import both ways would be a cycle).
 */
export async function patientPrograms(db: Queryable, patientId: number): Promise<string[]> {
  const rows = await kysely(db)
    .selectFrom('patient_programs')
    .select('program_id')
    .where('patient_id', '=', patientId)
    .orderBy('program_id')
    .execute();
  return rows.map((r) => r.program_id);
}
