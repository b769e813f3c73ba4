import { MANUAL_SOURCE, MEASUREMENT_KINDS, type EnrollmentStatus, type Gender, type InsuranceType, type PatientSort, type SortOrder } from '@rpm/contracts';
import { sql, type Expression, type OrderByModifiers, type RawBuilder } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

/** A patient's own columns, already normalized by the service (trimmed, '' as null). */
export interface PatientRow {
  first_name: string;
  middle_name: string | null;
  last_name: string;
  date_of_birth: string | null;
  gender: Gender | null;
  organization_id: number;
  primary_provider_id: number | null;
  enrolled_rpm: boolean;
  enrollment_status: EnrollmentStatus | null;
  ordering_provider_id: number | null;
  consent_date: string | null;
  diagnosis_codes: string[];
  /** The identifier in the organization's EHR; unique within the organization. */
  mrn: string | null;
}

/** One row of the patient list, with its organization's name. */
export interface PatientListRow {
  id: number;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  date_of_birth: string | null;
  organization_id: number;
  organization_name: string;
  enrolled_rpm: boolean;
  enrollment_status: EnrollmentStatus | null;
  last_reading_at: Date | null;
  open_alerts: number;
  minutes_this_month: number;
  device_days_this_month: number;
}

/** The patient page's row: the patient with the names of organization and primary provider. */
export interface PatientDetailRow extends PatientRow {
  id: number;
  enrollment_status_legacy: string | null;
  organization_name: string;
  provider_first_name: string | null;
  provider_last_name: string | null;
  provider_title: string | null;
  provider_email: string | null;
  ordering_first_name: string | null;
  ordering_last_name: string | null;
  ordering_title: string | null;
  ordering_email: string | null;
}

export interface InsuranceRow {
  type: InsuranceType;
  provider_name: string | null;
  policy_number: string | null;
  policyholder: string | null;
  policyholder_birthdate: string | null;
}

export interface DeviceOfPatientRow {
  id: number;
  device_id: string;
  model: string | null;
  type: string | null;
}

export interface PatientListFilter {
  /** null: every organization (admins). */
  organizationId: number | null;
  /** Already split into words; each must match the start of the first or the last name. */
  nameWords: string[];
  /** Date-of-birth range [from, to] (one day, or one year), when the search was a date. */
  birthRange: { from: string; to: string } | null;
  /** A status of the list, or null for "no status"; undefined: any. */
  status?: string | null;
  sort: PatientSort;
  order: SortOrder;
  limit: number;
  offset: number;
  /** The moment whose calendar month (in each organization's time zone) the month columns count. */
  now: Date;
}

// The columns are text in the database; CHECK constraints keep them to the contract's values.
type PatientNarrowed = { gender: Gender | null; enrollment_status: EnrollmentStatus | null };

const PATIENT_COLUMNS = [
  'p.first_name',
  'p.middle_name',
  'p.last_name',
  'p.date_of_birth',
  'p.gender',
  'p.organization_id',
  'p.primary_provider_id',
  'p.enrolled_rpm',
  'p.enrollment_status',
  'p.ordering_provider_id',
  'p.consent_date',
  'p.diagnosis_codes',
  'p.mrn',
] as const;

type OrderTerm = readonly [column: string, direction: 'asc' | 'desc', nullsLast?: boolean];

/** The sorts on a figure of the month (computed per patient), not on a column of patients. */
type TriageSort = Exclude<PatientSort, 'name' | 'date_of_birth' | 'status'>;
const isTriageSort = (sort: PatientSort): sort is TriageSort =>
  sort !== 'name' && sort !== 'date_of_birth' && sort !== 'status';

/**
 * The list's orders; each ends in the name and the id so pages never overlap. A triage sort orders
 * by the figure the page query computed as `sort_key` (`keyRef` names it where it is read).
 */
function orderTerms(sort: PatientSort, dir: SortOrder, keyRef: string): OrderTerm[] {
  const byName: OrderTerm[] = [['p.last_name_key', 'asc'], ['p.first_name_key', 'asc'], ['p.id', 'asc']];
  if (sort === 'name') return byName.map(([column]) => [column, dir]);
  const first = isTriageSort(sort) ? keyRef : sort === 'status' ? 'p.enrollment_status' : 'p.date_of_birth';
  return [[first, dir, true], ...byName];
}

/**
 * Device data that counts for billing, as the billing report counts it: not typed in, of a kind
 * the registry marks physiologic. Literals, so the planner matches observations_device_day_idx.
 */
function countsForBilling(): RawBuilder<boolean> {
  const kinds = MEASUREMENT_KINDS.flatMap((k) => (k.physiologic ? [sql.lit(k.kind)] : []));
  if (kinds.length === 0) return sql<boolean>`false`;
  return sql<boolean>`(v.source <> ${sql.lit(MANUAL_SOURCE)} AND v.kind IN (${sql.join(kinds)}))`;
}

/**
 * The triage figures of patient `p` (organization `o`), each one index range of that patient:
 * the newest reading (observations_patient_time_idx), alerts not resolved (alerts_patient_idx),
 * minutes tracked this month (tracking_entries_patient_idx) and days with device data this month
 * (observations_device_day_idx). "This month" is the calendar month of `now` where the
 * organization is.
 */
function triageFigures(now: Date) {
  const monthStart = sql`date_trunc('month', ${now.toISOString()}::timestamptz AT TIME ZONE o.time_zone)`;
  return {
    last_reading: sql<Date | null>`(SELECT max(v.created_at) FROM observations v WHERE v.patient_id = p.id)`,
    open_alerts: sql<number>`(SELECT count(*)::int FROM alerts a WHERE a.patient_id = p.id AND a.status <> 'resolved')`,
    minutes_this_month: sql<number>`(SELECT coalesce(sum(t.duration_minutes), 0)::int FROM tracking_entries t
       WHERE t.patient_id = p.id AND t.date >= ${monthStart}::date AND t.date < (${monthStart} + interval '1 month')::date)`,
    device_days_this_month: sql<number>`(SELECT count(DISTINCT (v.created_at AT TIME ZONE o.time_zone)::date)::int
       FROM observations v
      WHERE v.patient_id = p.id AND ${countsForBilling()}
        AND v.created_at >= (${monthStart} AT TIME ZONE o.time_zone)
        AND v.created_at < ((${monthStart} + interval '1 month') AT TIME ZONE o.time_zone))`,
  } satisfies Record<TriageSort, RawBuilder<unknown>>;
}

interface Orderable<Q> {
  orderBy(expression: Expression<unknown>, modifiers: OrderByModifiers): Q;
}

function ordered<Q extends Orderable<Q>>(q: Q, terms: OrderTerm[]): Q {
  return terms.reduce<Q>(
    (acc, [column, direction, nullsLast]) =>
      acc.orderBy(sql.ref(column), (ob) => (nullsLast ? ob[direction]().nullsLast() : ob[direction]())),
    q,
  );
}

/** LIKE treats % and _ as wildcards and \\ as the escape: a typed one must match itself. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function matchingPatients(db: Queryable, f: PatientListFilter) {
  let q = kysely(db).selectFrom('patients as p');
  if (f.organizationId !== null) q = q.where('p.organization_id', '=', f.organizationId);
  for (const word of f.nameWords) {
    const prefix = sql<string>`patient_search_fold(${`${escapeLike(word)}%`})`;
    q = q.where((eb) => eb.or([eb('p.first_name_key', 'like', prefix), eb('p.last_name_key', 'like', prefix)]));
  }
  if (f.birthRange) q = q.where((eb) => eb.between('p.date_of_birth', f.birthRange!.from, f.birthRange!.to));
  if (f.status === null) q = q.where('p.enrollment_status', 'is', null);
  else if (f.status !== undefined) q = q.where('p.enrollment_status', '=', f.status);
  return q;
}

/**
 * One page of patients and the number that match, in one statement (one round trip, and the page
 * and the total from one snapshot). Every condition is a range of an index from migration 0760
 * (name prefixes, date of birth, organization, status); the words are folded by the same SQL
 * function as the indexed columns.
 */
export async function listPatients(db: Queryable, f: PatientListFilter): Promise<{ rows: PatientListRow[]; total: number }> {
  const figures = triageFigures(f.now);
  // The offset is walked over ids only (an index-only scan for the name sort), then the page's
  // rows, their organization's name and their triage figures are read for those ids alone. A sort
  // on a figure computes it for every matching patient (one index probe each) to pick the page.
  // The total rides on each row as an uncorrelated subquery, which PostgreSQL runs once.
  let ids = matchingPatients(db, f).select('p.id');
  if (isTriageSort(f.sort)) {
    ids = ids.innerJoin('organizations as o', 'o.id', 'p.organization_id').select((figures[f.sort] as RawBuilder<unknown>).as('sort_key'));
  }
  const page = ordered(ids, orderTerms(f.sort, f.order, 'sort_key')).limit(f.limit).offset(f.offset).as('page');
  const found = await ordered(
    kysely(db)
      .selectFrom(page)
      .innerJoin('patients as p', 'p.id', 'page.id')
      .innerJoin('organizations as o', 'o.id', 'p.organization_id')
      .select([
        'p.id',
        'p.first_name',
        'p.middle_name',
        'p.last_name',
        'p.date_of_birth',
        'p.organization_id',
        'o.name as organization_name',
        'p.enrolled_rpm',
        'p.enrollment_status',
        figures.last_reading.as('last_reading_at'),
        figures.open_alerts.as('open_alerts'),
        figures.minutes_this_month.as('minutes_this_month'),
        figures.device_days_this_month.as('device_days_this_month'),
        matchingPatients(db, f).select(sql<number>`count(*)::int`.as('n')).as('total'),
      ])
      .$narrowType<PatientNarrowed & { total: number }>(),
    orderTerms(f.sort, f.order, 'page.sort_key'),
  ).execute();
  const rows = found.map(({ total: _total, ...row }) => row);
  if (found[0]) return { rows, total: found[0].total };
  // No row to carry the total: none match, or the page is past the last one.
  if (f.offset === 0) return { rows, total: 0 };
  const { n } = await matchingPatients(db, f).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return { rows, total: n };
}

export async function insertPatient(db: Queryable, p: PatientRow): Promise<number> {
  const { id } = await kysely(db).insertInto('patients').values(p).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updatePatient(db: Queryable, id: number, p: PatientRow): Promise<void> {
  await kysely(db)
    .updateTable('patients')
    .set({
      ...p,
      // A status chosen from the list replaces the free text kept from before it.
      ...(p.enrollment_status !== null ? { enrollment_status_legacy: null } : {}),
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

export async function findPatientRow(db: Queryable, id: number): Promise<(PatientRow & { id: number }) | undefined> {
  return kysely(db)
    .selectFrom('patients as p')
    .select(['p.id', ...PATIENT_COLUMNS])
    .where('p.id', '=', id)
    .$narrowType<PatientNarrowed>()
    .executeTakeFirst();
}

/** The patient with the names of organization and provider (insurances and devices apart). */
export async function findPatientDetail(db: Queryable, id: number): Promise<PatientDetailRow | undefined> {
  return kysely(db)
    .selectFrom('patients as p')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .leftJoin('users as u', 'u.id', 'p.primary_provider_id')
    .leftJoin('users as op', 'op.id', 'p.ordering_provider_id')
    .select([
      'p.id',
      ...PATIENT_COLUMNS,
      'p.enrollment_status_legacy',
      'o.name as organization_name',
      'u.first_name as provider_first_name',
      'u.last_name as provider_last_name',
      'u.title as provider_title',
      'u.email as provider_email',
      'op.first_name as ordering_first_name',
      'op.last_name as ordering_last_name',
      'op.title as ordering_title',
      'op.email as ordering_email',
    ])
    .where('p.id', '=', id)
    .$narrowType<PatientNarrowed>()
    .executeTakeFirst();
}

export async function listInsurances(db: Queryable, patientId: number): Promise<(InsuranceRow & { id: number })[]> {
  return kysely(db)
    .selectFrom('insurances')
    .select(['id', 'type', 'provider_name', 'policy_number', 'policyholder', 'policyholder_birthdate'])
    .where('patient_id', '=', patientId)
    .orderBy('id')
    .$narrowType<{ type: InsuranceType }>()
    .execute();
}

/** The insurance list is replaced as a whole: the form always sends the full set. */
export async function replaceInsurances(db: Queryable, patientId: number, items: InsuranceRow[]): Promise<void> {
  await kysely(db).deleteFrom('insurances').where('patient_id', '=', patientId).execute();
  if (!items.length) return;
  await kysely(db)
    .insertInto('insurances')
    .values(items.map((i) => ({ ...i, patient_id: patientId })))
    .execute();
}

export async function listPatientDevices(db: Queryable, patientId: number): Promise<DeviceOfPatientRow[]> {
  return kysely(db).selectFrom('devices').select(['id', 'device_id', 'model', 'type']).where('patient_id', '=', patientId).orderBy('id').execute();
}

export async function currentDeviceIds(db: Queryable, patientId: number): Promise<number[]> {
  return (await listPatientDevices(db, patientId)).map((d) => d.id);
}

/** True when the user is an active provider of that organization (who may be a primary provider). */
export async function isActiveProviderOf(db: Queryable, userId: number, organizationId: number): Promise<boolean> {
  const row = await kysely(db)
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'provider')
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether another patient of the organization already has this MRN (the unique index's rule, asked first for a clear answer). */
export async function isMrnTaken(db: Queryable, organizationId: number, mrn: string, exceptPatientId: number | null): Promise<boolean> {
  let q = kysely(db).selectFrom('patients').select('id').where('organization_id', '=', organizationId).where('mrn', '=', mrn);
  if (exceptPatientId !== null) q = q.where('id', '<>', exceptPatientId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** The patient of the organization with this MRN, if any (the EHR launch's match). */
export async function findPatientIdByMrn(db: Queryable, organizationId: number, mrn: string): Promise<number | undefined> {
  const row = await kysely(db)
    .selectFrom('patients')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('mrn', '=', mrn)
    .executeTakeFirst();
  return row?.id;
}
