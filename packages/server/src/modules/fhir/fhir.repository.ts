import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';
import type { FhirDeviceRow, ObservationRow, PatientRow } from './fhir.presenter.ts';

/** Device ids are matched as people type them: case and surrounding spaces do not count. */
const deviceKey = (v: string) => sql<string>`lower(btrim(${v}))`;

export async function findPatient(
  db: Queryable,
  id: number,
): Promise<(PatientRow & { organization_id: number }) | null> {
  const row = await kysely(db)
    .selectFrom('patients')
    .select(['id', 'first_name', 'middle_name', 'last_name', 'date_of_birth', 'gender', 'organization_id'])
    // The table's CHECK constraint holds gender to these values.
    .$narrowType<{ gender: PatientRow['gender'] }>()
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

/** An observation by id, of one of `kinds` (the registry's: a kind it does not know is not served). */
export async function findObservation(
  db: Queryable,
  id: number,
  kinds: readonly string[],
): Promise<(ObservationRow & { organization_id: number }) | null> {
  if (kinds.length === 0) return null;
  const row = await kysely(db)
    .selectFrom('observations as v')
    .innerJoin('patients as p', 'p.id', 'v.patient_id')
    .select(['v.id', 'v.patient_id', 'v.created_at', 'v.kind', 'v.components', 'v.source', 'p.organization_id'])
    .where('v.id', '=', id)
    .where('v.kind', 'in', kinds)
    // The components are an object of numbers (the store writes them from the registry).
    .$narrowType<{ components: ObservationRow['components'] }>()
    .executeTakeFirst();
  return row ?? null;
}

/** A FHIR date search condition: inside [start, end), or with `outside`, not inside it. */
export interface DateCondition {
  start: Date | null;
  end: Date | null;
  outside: boolean;
}

/**
 * Newest first within every date condition and of one of `kinds`, `limit` rows after skipping
 * `offset`: an index range scan per page.
 */
export async function searchObservationRows(
  db: Queryable,
  q: { patientId: number; kinds: readonly string[]; dates: DateCondition[]; limit: number; offset: number },
): Promise<ObservationRow[]> {
  if (q.kinds.length === 0) return [];
  let query = kysely(db)
    .selectFrom('observations')
    .select(['id', 'patient_id', 'created_at', 'kind', 'components', 'source'])
    .where('patient_id', '=', q.patientId)
    .where('kind', 'in', q.kinds)
    .$narrowType<{ components: ObservationRow['components'] }>();
  for (const d of q.dates) {
    const { start, end } = d;
    if (d.outside && start && end) {
      query = query.where((eb) => eb.or([eb('created_at', '<', start), eb('created_at', '>=', end)]));
      continue;
    }
    if (start) query = query.where('created_at', '>=', start);
    if (end) query = query.where('created_at', '<', end);
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute();
}

/**
 * Devices with that id. With `organizationId` (a provider) a device's patient is shown only when
 * the patient is of that organization; a device of another organization's patient is left out.
 */
export async function devicesByIdentifier(
  db: Queryable,
  identifier: string,
  organizationId: number | null,
): Promise<FhirDeviceRow[]> {
  let query = kysely(db)
    .selectFrom('devices as d')
    .leftJoin('patients as p', 'p.id', 'd.patient_id')
    .select(['d.id', 'd.device_id', 'd.model', 'd.type', 'd.patient_id'])
    .where(sql<string>`lower(btrim(d.device_id))`, '=', deviceKey(identifier));
  if (organizationId !== null) {
    query = query.where((eb) => eb.or([eb('d.patient_id', 'is', null), eb('p.organization_id', '=', organizationId)]));
  }
  return query.execute();
}

/** The patient who had each device at each time (null when nobody had it or it is unknown). */
export async function attributedPatients(
  db: Queryable,
  items: { device: string; at: Date }[],
): Promise<(number | null)[]> {
  if (items.length === 0) return [];
  // A list of (device, time) pairs in order has no query-builder form: unnest WITH ORDINALITY.
  const { rows } = await sql<{ patient_id: number | null }>`
    SELECT (SELECT a.patient_id FROM devices d JOIN device_assignments a ON a.device_id = d.id
             WHERE lower(btrim(d.device_id)) = lower(btrim(i.device)) AND a.assigned_from <= i.at
               AND (a.assigned_to IS NULL OR a.assigned_to > i.at)
             ORDER BY a.assigned_from DESC LIMIT 1) AS patient_id
      FROM unnest(${items.map((i) => i.device)}::text[], ${items.map((i) => i.at)}::timestamptz[])
           WITH ORDINALITY AS i(device, at, ord)
     ORDER BY i.ord`.execute(kysely(db));
  return rows.map((r) => r.patient_id);
}

/** The organization of each of these patients (unknown ids are left out). */
export async function patientOrganizations(db: Queryable, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await kysely(db)
    .selectFrom('patients')
    .select(['id', 'organization_id'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r.organization_id]));
}
