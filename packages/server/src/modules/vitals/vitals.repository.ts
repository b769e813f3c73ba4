import { MANUAL_SOURCE, VITALS_KINDS } from '@rpm/contracts';
import { sql, type CompiledQuery } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely, template, type Template } from '../../db/kysely.ts';
import type { PatientScope } from '../../kernel/patient-scope.repository.ts';
import {
  AUDIT_RECORD_COLUMNS,
  AUDIT_RECORD_PARAM_KEYS,
  auditRecordSelection,
  prefixedAuditRecordParams,
  type AuditEntry,
  type PrefixedAuditRecordParams,
} from '../../kernel/audit-writer.repository.ts';

export interface VitalRow {
  created_at: Date;
  /** Null on a heart rate measured alone. */
  systolic: number | null;
  diastolic: number | null;
  pulse: number | null;
  source: string;
}

/** One point of the chart: seconds since the epoch and the pressure. */
export interface VitalSeriesRow {
  t: number;
  systolic: number;
  diastolic: number;
}

/** The kinds the spec's vitals answer carries, as literals: the page is a prepared template. */
const vitalsKind = (column: string) =>
  sql<boolean>`${sql.ref(column)} IN (${sql.join(VITALS_KINDS.map((k) => sql.lit(k)))})`;

const VITAL_COLUMNS = ['created_at', 'systolic', 'diastolic', 'pulse', 'source'] as const;

/** What one round trip of the vitals list answers: the patient's scope, and when visible the page and total. */
export interface ScopedVitalPage {
  patient: PatientScope;
  /** False when the patient lies outside `visibleOrganization`: no page or total was read. */
  visible: boolean;
  rows: VitalRow[];
  total: number;
}

/** The values one vitals page read binds, its success record's among them. */
interface ScopedPageParams extends PrefixedAuditRecordParams {
  patientId: number;
  visibleOrganization: number | null;
  limit: number;
  offset: number;
  /** Measured at or after (null: from the first). */
  from: string | null;
  /** Measured before (null: up to now). */
  to: string | null;
}

/**
 * The date filter of the table: the readings measured in [from, to), an open end bound as minus or
 * plus infinity. A plain range on the measured time, whatever the values: PostgreSQL's plan of
 * the named statement is generic (db/pool.ts), and only a plain range lets that plan skip the
 * month tables outside it when it starts and descend the index to the range's newest reading
 * ("$from IS NULL OR created_at >= $from" did neither: a dated page of a patient with years of
 * readings filtered them all, and counted them by sequential scans, once per row of the page).
 */
const inRange = (p: Pick<ScopedPageParams, 'from' | 'to'>, column: string) =>
  sql<boolean>`${sql.ref(column)} >= coalesce(${p.from}::timestamptz, '-infinity')
    AND ${sql.ref(column)} < coalesce(${p.to}::timestamptz, 'infinity')`;

/**
 * The statement of one page, dated or not. The undated page, the patient page's first and most
 * frequent read, is a statement of its own: no date filter for PostgreSQL to evaluate on each
 * reading, its total from the per-patient counter, and its record's details without dates (the
 * same record as a dated statement's with null dates, whose nulls are stripped).
 */
function scopedPageQuery(db: Queryable, p: ScopedPageParams, dated: boolean) {
  const details = dated
    ? sql`jsonb_strip_nulls(jsonb_build_object('limit', ${p.limit}::int, 'offset', ${p.offset}::int, 'count', (SELECT count(*) FROM page),
        'from', ${p.from}::timestamptz, 'to', ${p.to}::timestamptz))`
    : sql`jsonb_build_object('limit', ${p.limit}::int, 'offset', ${p.offset}::int, 'count', (SELECT count(*) FROM page))`;
  // Undated, the per-patient counter; dated, a count of the range (its subquery does not depend on
  // the row: computed once, and only when the CASE takes that branch, for a visible patient).
  const total = dated
    ? sql<number | null>`CASE WHEN s.visible THEN (SELECT count(*) FROM observations r
        WHERE r.patient_id = ${p.patientId} AND ${vitalsKind('r.kind')} AND ${inRange(p, 'r.created_at')}) END`
    : sql<number | null>`c.n::int8`;
  return (
    kysely(db)
      .with('scope', (qb) =>
        qb
          .selectFrom('patients')
          .select([
            'id',
            'organization_id',
            sql<boolean>`(${p.visibleOrganization}::int IS NULL OR organization_id = ${p.visibleOrganization}::int)`.as(
              'visible',
            ),
          ])
          .where('id', '=', p.patientId),
      )
      // Read only when visible: a refused caller's request never brings a reading into the process.
      .with('page', (qb) =>
        qb
          .selectFrom('observations as v')
          .select(['v.id', 'v.created_at', 'v.systolic', 'v.diastolic', 'v.pulse', 'v.source'])
          .where('v.patient_id', '=', p.patientId)
          .where(vitalsKind('v.kind'))
          .$if(dated, (q) => q.where(inRange(p, 'v.created_at')))
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom('scope')
                .select('scope.id')
                .where(sql<boolean>`scope.visible`),
            ),
          )
          .orderBy('v.created_at', 'desc')
          .orderBy('v.id', 'desc')
          .limit(p.limit)
          .offset(p.offset),
      )
      // The success record, written by the read itself when the patient is visible: no page
      // leaves without its record, and the record counts the rows the page really had.
      .with('recorded', (qb) =>
        qb
          .insertInto('audit_logs')
          .columns([...AUDIT_RECORD_COLUMNS])
          .expression((eb) =>
            eb
              .selectFrom('scope')
              .select(auditRecordSelection(p, details))
              .where(sql<boolean>`scope.visible`),
          ),
      )
      .selectFrom('scope as s')
      // Undated only (a dated page counts its range instead), and read only for a visible patient.
      .$if(!dated, (q) =>
        q.leftJoin(
          (eb) =>
            eb
              .selectFrom('patient_observation_counts')
              .select([(e) => e.fn.sum<number>('n').as('n')])
              .where('patient_id', '=', p.patientId)
              .where(vitalsKind('kind'))
              .as('c'),
          (join) => join.on(sql<boolean>`s.visible`),
        ),
      )
      .leftJoin('page', (join) => join.onTrue())
      .select([
        's.id as patient_id',
        's.organization_id',
        's.visible',
        total.as('total'),
        'page.created_at',
        'page.systolic',
        'page.diastolic',
        'page.pulse',
        'page.source',
      ])
      .orderBy('page.created_at', 'desc')
      .orderBy('page.id', 'desc')
  );
}

type ScopedPageRow = ReturnType<typeof scopedPageQuery> extends { compile(): CompiledQuery<infer R> } ? R : never;

let undatedPageTemplate: Template<ScopedPageParams, ScopedPageRow> | undefined;
let datedPageTemplate: Template<ScopedPageParams, ScopedPageRow> | undefined;

/**
 * The access check's row, one page, the total and the read's success record in one statement:
 * one round trip, one snapshot (the page and the total agree), and one commit for the page and
 * its record. `visibleOrganization` is the policy's list scope (null: every organization):
 * outside it the page and the counter are not read and nothing is recorded (the caller records
 * the refusal). `success` is the record of a visible read; its details are the page's limit,
 * offset and row count. Undefined: no such patient.
 * Built and compiled once (in its dated and its undated form), sent as a named statement: each
 * connection parses and plans it once, then each call only binds its values (building the query
 * per call cost more than the rest of the portal's work on it).
 */
export async function readScopedVitalPage(
  db: Queryable,
  read: { patientId: number; visibleOrganization: number | null; limit: number; offset: number; from: string | null; to: string | null },
  success: AuditEntry,
): Promise<ScopedVitalPage | undefined> {
  const keys = ['patientId', 'visibleOrganization', 'limit', 'offset', ...AUDIT_RECORD_PARAM_KEYS] as const;
  const dated = read.from !== null || read.to !== null;
  const page = dated
    ? (datedPageTemplate ??= template('vitals_dated_page_v1', [...keys, 'from', 'to'], (p) => scopedPageQuery(db, p, true).compile()))
    : (undatedPageTemplate ??= template('vitals_scoped_page_v5', [...keys], (p) => scopedPageQuery(db, p, false).compile()));
  const rows = await page.run(db, { ...read, ...prefixedAuditRecordParams(success) });
  const first = rows[0];
  if (!first) return undefined;
  return {
    patient: { id: first.patient_id, organization_id: first.organization_id },
    visible: first.visible,
    // A patient without readings (or out of scope) is one row with no page columns.
    rows: rows.flatMap((r) =>
      r.created_at === null || r.source === null
        ? []
        : [
            {
              created_at: r.created_at,
              systolic: r.systolic,
              diastolic: r.diastolic,
              pulse: r.pulse,
              source: r.source,
            },
          ],
    ),
    total: first.total ?? 0,
  };
}

/** Newest `max` readings since `days` ago, oldest first. */
export async function vitalSeries(
  db: Queryable,
  patientId: number,
  days: number,
  max: number,
): Promise<VitalSeriesRow[]> {
  const newest = kysely(db)
    .selectFrom('observations')
    .select(['created_at', 'id', 'systolic', 'diastolic'])
    .where('patient_id', '=', patientId)
    .where('kind', '=', 'blood_pressure')
    .$narrowType<{ systolic: number; diastolic: number }>()
    .where('created_at', '>=', sql<Date>`now() - make_interval(days => ${days})`)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(max)
    .as('newest');
  return kysely(db)
    .selectFrom(newest)
    .select([sql<number>`extract(epoch FROM created_at)::float8`.as('t'), 'systolic', 'diastolic'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A reading typed in by staff: no device, source 'manual' (billing never counts these). */
export async function insertManualVital(
  db: Queryable,
  patientId: number,
  r: { measuredAt: Date; systolic: number; diastolic: number; pulse: number | null },
): Promise<VitalRow & { id: number }> {
  return (
    kysely(db)
      .insertInto('observations')
      .values({
        patient_id: patientId,
        created_at: r.measuredAt,
        kind: 'blood_pressure',
        components: JSON.stringify(
          r.pulse === null
            ? { systolic: r.systolic, diastolic: r.diastolic }
            : { systolic: r.systolic, diastolic: r.diastolic, pulse: r.pulse },
        ),
        unit: 'mm[Hg]',
        source: MANUAL_SOURCE,
      })
      .returning(['id', ...VITAL_COLUMNS])
      // A manual reading is always a blood pressure (the form asks for both values).
      .$narrowType<{ systolic: number; diastolic: number }>()
      .executeTakeFirstOrThrow()
  );
}
