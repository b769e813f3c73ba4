import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

export interface LaunchSettingsRow {
  organization_id: number;
  iss: string | null;
  client_id: string | null;
  patient_identifier_system: string | null;
}

/** One identifier of the EHR's patient, as the callback kept it. */
export interface EhrIdentifier {
  system: string | null;
  value: string;
}

/** What the callback learnt, waiting for the signed-in browser to ask for its patient. */
export interface PendingResult {
  iss: string;
  identifiers: EhrIdentifier[];
  created_at: string;
}

/** The organization whose EHR this is: `iss` must match a configured one exactly. */
export async function findSettingsByIss(
  db: Queryable,
  iss: string,
): Promise<{ organization_id: number; iss: string; client_id: string } | undefined> {
  return kysely(db)
    .selectFrom('ehr_launch_settings')
    .select(['organization_id', 'iss', 'client_id'])
    .where('iss', '=', iss)
    .executeTakeFirst();
}

/** The organization's settings (all null when none are set); undefined when there is no such organization. */
export async function findSettings(db: Queryable, organizationId: number): Promise<LaunchSettingsRow | undefined> {
  return kysely(db)
    .selectFrom('organizations as o')
    .leftJoin('ehr_launch_settings as s', 's.organization_id', 'o.id')
    .select(['o.id as organization_id', 's.iss', 's.client_id', 'o.patient_identifier_system'])
    .where('o.id', '=', organizationId)
    .executeTakeFirst();
}

export async function isIssTakenByOther(db: Queryable, iss: string, organizationId: number): Promise<boolean> {
  const row = await kysely(db)
    .selectFrom('ehr_launch_settings')
    .select('organization_id')
    .where('iss', '=', iss)
    .where('organization_id', '<>', organizationId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Saves the settings: the EHR (iss, client id) in this module's table, the identifier system in
 * the organization's column (migration 0990), which FHIR Patient search reads too.
 */
export async function saveSettings(
  db: Queryable,
  organizationId: number,
  s: { iss: string | null; clientId: string | null; system: string | null; userId: number },
): Promise<void> {
  if (s.iss !== null && s.clientId !== null) {
    await kysely(db)
      .insertInto('ehr_launch_settings')
      .values({ organization_id: organizationId, iss: s.iss, client_id: s.clientId, updated_by: s.userId })
      .onConflict((oc) =>
        oc.column('organization_id').doUpdateSet({ iss: s.iss!, client_id: s.clientId!, updated_by: s.userId, updated_at: sql`now()` }),
      )
      .execute();
  } else {
    await kysely(db).deleteFrom('ehr_launch_settings').where('organization_id', '=', organizationId).execute();
  }
  await kysely(db).updateTable('organizations').set({ patient_identifier_system: s.system }).where('id', '=', organizationId).execute();
}

export async function pruneExpiredStates(db: Queryable): Promise<void> {
  await kysely(db).deleteFrom('ehr_launch_states').where('expires_at', '<', sql<Date>`now()`).execute();
}

export async function insertLaunchState(
  db: Queryable,
  s: { id: string; organizationId: number; stateKey: string; data: Record<string, unknown>; ttlMinutes: number },
): Promise<void> {
  await kysely(db)
    .insertInto('ehr_launch_states')
    .values({
      id: s.id,
      organization_id: s.organizationId,
      state_key: s.stateKey,
      data: JSON.stringify(s.data),
      expires_at: sql<Date>`now() + make_interval(mins => ${s.ttlMinutes})`,
    })
    .execute();
}

/** A launch waiting for the EHR's answer (its SMART storage), if it has not expired. */
export async function findPendingAuthorization(
  db: Queryable,
  id: string,
): Promise<{ organization_id: number; state_key: string; data: Record<string, unknown>; iss: string } | undefined> {
  const row = await kysely(db)
    .selectFrom('ehr_launch_states as l')
    .innerJoin('ehr_launch_settings as s', 's.organization_id', 'l.organization_id')
    .select(['l.organization_id', 'l.state_key', 'l.data', 's.iss'])
    .where('l.id', '=', id)
    .where('l.data', 'is not', null)
    .where('l.state_key', 'is not', null)
    .where('l.expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  if (!row || row.state_key === null || row.data === null) return undefined;
  return { organization_id: row.organization_id, state_key: row.state_key, data: row.data as Record<string, unknown>, iss: row.iss };
}

/** The SMART storage is dropped (nothing of the EHR's tokens is kept) and the result kept in its place. */
export async function storeResult(
  db: Queryable,
  id: string,
  s: { resultId: string; result: PendingResult; ttlMinutes: number },
): Promise<void> {
  await kysely(db)
    .updateTable('ehr_launch_states')
    .set({
      data: null,
      state_key: null,
      result_id: s.resultId,
      result: JSON.stringify(s.result),
      expires_at: sql<Date>`now() + make_interval(mins => ${s.ttlMinutes})`,
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteLaunchState(db: Queryable, id: string): Promise<void> {
  await kysely(db).deleteFrom('ehr_launch_states').where('id', '=', id).execute();
}

/**
 * Takes (deletes and returns) the result bound to both the browser's cookie and the page's id, so
 * that it is used once whatever the answer; `expired` tells a late request from a fresh one.
 */
export async function takeResult(
  db: Queryable,
  id: string,
  resultId: string,
): Promise<{ organization_id: number; result: PendingResult; expired: boolean } | undefined> {
  const row = await kysely(db)
    .deleteFrom('ehr_launch_states')
    .where('id', '=', id)
    .where('result_id', '=', resultId)
    .returning(['organization_id', 'result', sql<boolean>`expires_at <= now()`.as('expired')])
    .executeTakeFirst();
  if (!row || row.result === null) return undefined;
  return { organization_id: row.organization_id, result: row.result as unknown as PendingResult, expired: row.expired };
}
