import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';
import type { FhirDeviceRow, ObservationRow, PatientRow, StoredIdentifier } from './fhir.presenter.ts';

/** Device ids are matched as people type them: case and surrounding spaces do not count. */
const deviceKey = (v: string) => sql<string>`lower(btrim(${v}))`;

/** A Patient's columns, with the identifier system its organization names for MRNs. */
const patientsWithSystem = (db: Queryable) =>
  kysely(db)
    .selectFrom('patients as p')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .select([
      'p.id',
      'p.first_name',
      'p.middle_name',
      'p.last_name',
      'p.date_of_birth',
      'p.gender',
      'p.organization_id',
      'p.updated_at',
      'p.mrn',
      'o.patient_identifier_system as identifier_system',
    ])
    // The table's CHECK constraint holds gender to these values.
    .$narrowType<{ gender: PatientRow['gender'] }>();

export async function findPatient(
  db: Queryable,
  id: number,
): Promise<(PatientRow & { organization_id: number }) | null> {
  const row = await patientsWithSystem(db).where('p.id', '=', id).executeTakeFirst();
  return row ?? null;
}

/** A token search value: `system|value` (system given), `|value` (system: null) or `value` (any system). */
export interface Token {
  system?: string | null;
  value: string;
}

/** A Patient search: each inner list is one parameter's comma-separated values (OR); the lists AND. */
export interface PatientFilter {
  organizationId: number | null;
  ids: number[][];
  identifiers: Token[][];
  /** `name` (the start of a name part), `name:contains` (anywhere in one) and `name:exact` (a whole part, as written). */
  names: { match: 'start' | 'contains' | 'exact'; values: string[] }[];
}

const likePrefix = (v: string) => `${v.replace(/[\\%_]/g, '\\$&')}%`;

function filteredPatients(db: Queryable, f: PatientFilter) {
  let query = patientsWithSystem(db);
  if (f.organizationId !== null) query = query.where('p.organization_id', '=', f.organizationId);
  for (const ids of f.ids) query = query.where('p.id', 'in', ids.length > 0 ? ids : [-1]);
  for (const tokens of f.identifiers) {
    query = query.where((eb) =>
      eb.or(
        tokens.map((t) =>
          eb.and([
            // `system|` is any identifier of that system.
            t.value === '' ? eb('p.mrn', 'is not', null) : eb('p.mrn', '=', t.value),
            // The Patient shows its MRN only under its organization's system: a value without one
            // (`|value`) is never a portal identifier.
            t.system === undefined
              ? eb('o.patient_identifier_system', 'is not', null)
              : t.system === null
                ? eb.val(false)
                : eb('o.patient_identifier_system', '=', t.system),
          ]),
        ),
      ),
    );
  }
  for (const { match, values } of f.names) {
    query = query.where((eb) =>
      eb.or(
        values.flatMap((n) => {
          if (match === 'exact')
            return [eb('p.first_name', '=', n), eb('p.last_name', '=', n), eb('p.middle_name', '=', n)];
          const pattern = sql<string>`patient_search_fold(${match === 'contains' ? `%${likePrefix(n)}` : likePrefix(n)})`;
          return [
            eb('p.first_name_key', 'like', pattern),
            eb('p.last_name_key', 'like', pattern),
            eb('p.middle_name_key', 'like', pattern),
          ];
        }),
      ),
    );
  }
  return query;
}

/** One page of a Patient search in id order, after the id `after`. */
export async function searchPatientRows(
  db: Queryable,
  f: PatientFilter,
  page: { after: number | null; limit: number },
): Promise<(PatientRow & { organization_id: number })[]> {
  let query = filteredPatients(db, f);
  if (page.after !== null) query = query.where('p.id', '>', page.after);
  return query.orderBy('p.id').limit(page.limit).execute();
}

export async function countPatientRows(db: Queryable, f: PatientFilter): Promise<number> {
  const row = await kysely(db)
    .selectFrom(filteredPatients(db, f).as('m'))
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
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
    .select([
      'v.id',
      'v.patient_id',
      'v.created_at',
      'v.kind',
      'v.components',
      'v.source',
      'v.received_at',
      'p.organization_id',
    ])
    .where('v.id', '=', id)
    .where('v.kind', 'in', kinds)
    // The components are an object of numbers (the store writes them from the registry).
    .$narrowType<{ components: ObservationRow['components'] }>()
    .executeTakeFirst();
  if (!row) return null;
  return { ...row, identifiers: (await identifiersOf(db, [row.id])).get(row.id) ?? [] };
}

/** The sender's identifiers of each of these observations. */
export async function identifiersOf(db: Queryable, ids: readonly number[]): Promise<Map<number, StoredIdentifier[]>> {
  const byObservation = new Map<number, StoredIdentifier[]>();
  if (ids.length === 0) return byObservation;
  const rows = await kysely(db)
    .selectFrom('observation_identifiers')
    .select(['observation_id', 'system', 'value'])
    .where('observation_id', 'in', [...ids])
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const list = byObservation.get(Number(r.observation_id)) ?? [];
    list.push({ system: r.system, value: r.value });
    byObservation.set(Number(r.observation_id), list);
  }
  return byObservation;
}

/** When each of these observations was stored (its version). */
export async function receivedTimes(db: Queryable, ids: readonly number[]): Promise<Map<number, Date>> {
  if (ids.length === 0) return new Map();
  const rows = await kysely(db)
    .selectFrom('observations')
    .select(['id', 'received_at'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.received_at]));
}

/** A FHIR date search condition: inside [start, end), or with `outside`, not inside it. */
export interface DateCondition {
  start: Date | null;
  end: Date | null;
  outside: boolean;
}

/** Which observations a search selects: one patient, some kinds, every date condition. */
export interface ObservationFilter {
  patientId: number;
  kinds: readonly string[];
  dates: DateCondition[];
}

/** A keyset position: the measurement time (microseconds, as stored) and id of a row. */
export interface ObservationPosition {
  at: string;
  id: number;
}

function filteredObservations(db: Queryable, f: ObservationFilter) {
  let query = kysely(db)
    .selectFrom('observations')
    .where('patient_id', '=', f.patientId)
    .where('kind', 'in', f.kinds.length > 0 ? [...f.kinds] : ['']);
  for (const d of f.dates) {
    const { start, end } = d;
    if (d.outside && start && end) {
      query = query.where((eb) => eb.or([eb('created_at', '<', start), eb('created_at', '>=', end)]));
      continue;
    }
    if (start) query = query.where('created_at', '>=', start);
    if (end) query = query.where('created_at', '<', end);
  }
  return query;
}

/**
 * One page of a search, in measurement-time order (`desc`: newest first) with the id breaking
 * ties, after the position `after` (a keyset: a reading stored meanwhile neither shifts nor
 * repeats the rows of later pages) or, for old links, after skipping `offset` rows. Each row
 * carries its position (`position_at`: the stored time to the microsecond, which a JS Date
 * would round).
 */
export async function searchObservationRows(
  db: Queryable,
  f: ObservationFilter,
  page: { order: 'asc' | 'desc'; after: ObservationPosition | null; offset: number; limit: number },
): Promise<(ObservationRow & { position_at: string })[]> {
  if (f.kinds.length === 0) return [];
  let query = filteredObservations(db, f)
    .select([
      'id',
      'patient_id',
      'created_at',
      'kind',
      'components',
      'source',
      'received_at',
      sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('position_at'),
    ])
    .$narrowType<{ components: ObservationRow['components'] }>();
  const after = page.after;
  if (after) {
    query = query.where(
      page.order === 'desc'
        ? sql<boolean>`(created_at, id) < (${after.at}::timestamptz, ${after.id}::bigint)`
        : sql<boolean>`(created_at, id) > (${after.at}::timestamptz, ${after.id}::bigint)`,
    );
  }
  const rows = await query
    .orderBy('created_at', page.order)
    .orderBy('id', page.order)
    .limit(page.limit)
    .offset(after ? 0 : page.offset)
    .execute();
  const identifiers = await identifiersOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, identifiers: identifiers.get(r.id) ?? [] }));
}

/** How many observations a search selects in all (Bundle.total). */
export async function countObservationRows(db: Queryable, f: ObservationFilter): Promise<number> {
  if (f.kinds.length === 0) return 0;
  const row = await filteredObservations(db, f)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
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
    .select([
      'd.id',
      'd.device_id',
      'd.model',
      'd.type',
      'd.patient_id',
      // The Device changes when made, assigned or given back.
      sql<Date>`greatest(d.created_at, (SELECT max(greatest(a.assigned_from, coalesce(a.assigned_to, a.assigned_from)))
                                          FROM device_assignments a WHERE a.device_id = d.id))`.as('updated_at'),
    ])
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
