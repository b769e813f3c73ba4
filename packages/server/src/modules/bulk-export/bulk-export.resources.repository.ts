// What an export reads: the groups it may name, and its patients, observations and devices, page by page.
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';
import type { ExportScope } from './bulk-export.repository.ts';
/** The organization a program group names, with its name for the Group resource. */
export async function findOrganization(db: Queryable, id: number) {
  return (
    (await kysely(db).selectFrom('organizations').select(['id', 'name']).where('id', '=', id).executeTakeFirst()) ??
    null
  );
}

/** The provider a panel group names (a provider with an organization; anyone else has no panel). */
export async function findProvider(db: Queryable, id: number) {
  const row = await kysely(db)
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'organization_id'])
    .where('id', '=', id)
    .where('role', '=', 'provider')
    .where('organization_id', 'is not', null)
    .executeTakeFirst();
  return row ? { ...row, organization_id: row.organization_id! } : null;
}

/** The organizations (all with null) and the providers of those organizations, for a Group search. */
export async function visibleGroups(db: Queryable, organizationId: number | null) {
  let orgs = kysely(db).selectFrom('organizations').select(['id', 'name']).orderBy('id');
  if (organizationId !== null) orgs = orgs.where('id', '=', organizationId);
  let providers = kysely(db)
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'organization_id'])
    .where('role', '=', 'provider')
    .where('organization_id', 'is not', null)
    .orderBy('id');
  if (organizationId !== null) providers = providers.where('organization_id', '=', organizationId);
  return { organizations: await orgs.limit(1000).execute(), providers: await providers.limit(1000).execute() };
}

/** The patients a scope covers: a query on `patients` to select from. */
function scopedPatients(db: Queryable, scope: ExportScope) {
  let q = kysely(db).selectFrom('patients').where('organization_id', '=', scope.organizationId);
  if (scope.kind === 'program') q = q.where('enrolled_rpm', '=', true);
  if (scope.kind === 'panel') q = q.where('primary_provider_id', '=', scope.providerId);
  return q;
}

export async function countScopePatients(db: Queryable, scope: ExportScope): Promise<number> {
  const row = await scopedPatients(db, scope)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The next page of the scope's patients after `afterId`, in id order (keyset: each page is an
 * index range, however far the export has gone).
 */
export async function patientPage(db: Queryable, q: { scope: ExportScope; afterId: number; limit: number }) {
  return (
    scopedPatients(db, q.scope)
      .select([
        'id',
        'first_name',
        'middle_name',
        'last_name',
        'date_of_birth',
        'gender',
        'organization_id',
        'mrn',
        'created_at',
        'updated_at',
      ])
      // The system the organization names its MRNs in, for the Patient's identifier.
      .select((eb) =>
        eb
          .selectFrom('organizations as o')
          .select('o.patient_identifier_system')
          .whereRef('o.id', '=', 'patients.organization_id')
          .as('identifier_system'),
      )
      .where('id', '>', q.afterId)
      // The table's CHECK constraint holds gender to these values.
      .$narrowType<{ gender: 'male' | 'female' | 'other' | null }>()
      .orderBy('id')
      .limit(q.limit)
      .execute()
  );
}

/** Where an observation page ends: the last row's time (as text, exact) and id. */
export interface ObservationCursor {
  at: string;
  id: number;
}

/**
 * One patient's observations of `kinds` received in [since, until], a page after `after`, newest
 * first: the order of the (patient, time, id) index, so each page is one index range scan.
 */
export async function observationPage(
  db: Queryable,
  q: {
    patientId: number;
    kinds: readonly string[];
    since: Date | null;
    until: Date;
    after: ObservationCursor | null;
    limit: number;
  },
) {
  const { after } = q;
  return (
    kysely(db)
      .selectFrom('observations')
      .select(['id', 'patient_id', 'created_at', 'received_at', 'kind', 'components', 'source'])
      // The time as PostgreSQL holds it (microseconds): a JavaScript Date would round the cursor.
      .select(sql<string>`created_at::text`.as('cursor_at'))
      .where('patient_id', '=', q.patientId)
      .where('kind', 'in', q.kinds)
      .where('received_at', '<=', q.until)
      .$if(q.since !== null, (w) => w.where('received_at', '>=', q.since!))
      .$if(after !== null, (w) =>
        w.where((eb) =>
          eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(sql<Date>`${after!.at}::timestamptz`, after!.id)),
        ),
      )
      // The components are an object of numbers (the store writes them from the registry).
      .$narrowType<{ components: Readonly<Record<string, number>> }>()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(q.limit)
      .execute()
  );
}

/**
 * The devices these patients hold now. With `since`, only devices registered or handed to the
 * patient since then (a device has no other change the export shows).
 */
export async function devicesOf(db: Queryable, patientIds: number[], since: Date | null) {
  if (patientIds.length === 0) return [];
  return (
    kysely(db)
      .selectFrom('devices as d')
      .select(['d.id', 'd.device_id', 'd.model', 'd.type', 'd.patient_id'])
      // The Device's meta.lastUpdated: when it was made, assigned or given back (as FHIR reads serve it).
      .select(
        sql<Date>`greatest(d.created_at, (SELECT max(greatest(a.assigned_from, coalesce(a.assigned_to, a.assigned_from)))
                                          FROM device_assignments a WHERE a.device_id = d.id))`.as('updated_at'),
      )
      .where('d.patient_id', 'in', patientIds)
      .$if(since !== null, (w) =>
        w.where((eb) =>
          eb.or([
            eb('d.created_at', '>=', since!),
            eb.exists(
              eb
                .selectFrom('device_assignments as a')
                .select('a.id')
                .whereRef('a.device_id', '=', 'd.id')
                .where('a.assigned_to', 'is', null)
                .where('a.assigned_from', '>=', since!),
            ),
          ]),
        ),
      )
      .orderBy('d.patient_id')
      .orderBy('d.id')
      .execute()
  );
}
