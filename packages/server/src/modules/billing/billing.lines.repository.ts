// The kept lines of open billing months (migration 1060): which are stale, keeping them, and
// reading a page of them with the count and the totals, in the database.
import type { BillingWorklistSort, SortOrder } from '@rpm/contracts';
import { sql, type RawBuilder } from 'kysely';
import { kysely } from '../../db/kysely.ts';
import type { Queryable } from '../../db/pool.ts';
import { monthBounds } from './billing-rules.ts';
import { lastOutreachBefore, lastReadingBefore } from './billing.details.repository.ts';

/** A patient whose line of the month must be computed (again), and the version to record. */
export interface StaleLine {
  patient_id: number;
  version: number;
}

/**
 * The enrolled patients in scope (the report's scope rule) whose line of the month is missing,
 * older than their inputs' last change, past its freshness, or kept by other rules. The versions are read here, before
 * the inputs are (see migration 1060 on why that order never loses a change).
 */
export async function staleLines(
  db: Queryable,
  monthStart: string,
  organizationId: number | null,
  rules: string,
): Promise<StaleLine[]> {
  // The enrolled patients in scope, and those with a line kept in scope (left it, or unenrolled:
  // their line is then dropped by keepLines).
  const result = await sql<StaleLine>`
    SELECT p.id AS patient_id, COALESCE(v.version, 0) AS version
      FROM patients p
      LEFT JOIN billing_patient_versions v ON v.patient_id = p.id
      LEFT JOIN billing_month_lines l ON l.month = ${monthStart}::date AND l.patient_id = p.id
     WHERE (p.enrolled_rpm OR l.patient_id IS NOT NULL)
       AND (${organizationId}::int IS NULL OR p.organization_id = ${organizationId}::int
            OR l.organization_id = ${organizationId}::int)
       AND (l.patient_id IS NULL OR l.version_seen < COALESCE(v.version, 0) OR l.fresh_until <= now()
            OR l.rules <> ${rules}::text)
     ORDER BY p.id`.execute(kysely(db));
  return result.rows;
}

/** One line to keep: the row, its outlook and its rank. */
export interface KeptLine<Line, Outlook> {
  patient_id: number;
  version: number;
  fresh_until: Date;
  line: Line;
  outlook: Outlook;
  active: boolean;
  earnable: number;
  needs_code: boolean;
  at_risk: boolean;
  /** Infinity when nothing bounds the margin. */
  slack: number;
  /** The line's codes and their units, apart, so the report's totals need not read the lines. */
  codes: string[];
  units: number[];
}

/**
 * Keeps the lines of `stale` (replacing the month's older ones), and drops the lines of the stale
 * patients with none (no longer enrolled, or out of scope now). In patient order so that two
 * requests keeping the same lines at once lock them in the same order.
 */
export async function keepLines<Line, Outlook>(
  db: Queryable,
  monthStart: string,
  rules: string,
  stale: readonly number[],
  lines: readonly KeptLine<Line, Outlook>[],
): Promise<void> {
  const kept = new Set(lines.map((l) => l.patient_id));
  const gone = stale.filter((id) => !kept.has(id));
  if (gone.length > 0)
    await sql`DELETE FROM billing_month_lines WHERE month = ${monthStart}::date AND patient_id = ANY (${gone}::int[])`.execute(
      kysely(db),
    );
  if (lines.length === 0) return;
  // One JSON document for all the lines: PostgreSQL splits it into rows far faster than the driver
  // writes a dozen arrays of 10,000 escaped values (about 400 ms at 10,000 lines). The margin as
  // text, as JSON has no Infinity.
  const document = JSON.stringify(
    [...lines].sort((a, b) => a.patient_id - b.patient_id).map((l) => ({ ...l, slack: String(l.slack) })),
  );
  await sql`
    INSERT INTO billing_month_lines AS l
           (month, rules, organization_id, last_key, first_key, patient_id, version_seen, fresh_until, line, outlook,
            active, earnable, needs_code, at_risk, slack, codes, units)
    SELECT ${monthStart}::date, ${rules}::text, p.organization_id, lower(p.last_name), lower(p.first_name), u.patient_id,
           u.version, u.fresh_until, u.line, u.outlook, u.active, u.earnable, u.needs_code, u.at_risk, u.slack, u.codes,
           u.units
      FROM json_to_recordset(${document}::json)
           AS u(patient_id int, version bigint, fresh_until timestamptz, line jsonb, outlook jsonb, active boolean,
                earnable smallint, needs_code boolean, at_risk boolean, slack float8, codes text[], units int[])
      JOIN patients p ON p.id = u.patient_id
     ORDER BY u.patient_id
    ON CONFLICT (month, patient_id) DO UPDATE
       SET rules = EXCLUDED.rules, organization_id = EXCLUDED.organization_id, last_key = EXCLUDED.last_key,
           first_key = EXCLUDED.first_key, version_seen = EXCLUDED.version_seen, fresh_until = EXCLUDED.fresh_until, line = EXCLUDED.line,
           outlook = EXCLUDED.outlook, active = EXCLUDED.active, earnable = EXCLUDED.earnable,
           needs_code = EXCLUDED.needs_code, at_risk = EXCLUDED.at_risk, slack = EXCLUDED.slack,
           codes = EXCLUDED.codes, units = EXCLUDED.units`.execute(kysely(db));
}

/** Which kept lines a page reads: the enrolled in scope, and the worklist's filters. */
export interface LinesScope {
  organizationId: number | null;
  providerId?: number;
  program?: string;
}

/**
 * A page of the month's kept lines, with the number in scope and, for the report, the units per
 * code over all of them. `order`: the report's (by name) or the worklist's (compareOutlooks' rank,
 * then by name); the worklist has no totals.
 */
export async function keptLinesPage<Line, Outlook>(
  db: Queryable,
  monthStart: string,
  scope: LinesScope,
  page: { limit: number; offset: number; order: 'report' | 'worklist'; sort?: ColumnSort },
): Promise<{
  lines: { patient_id: number; line: Line; outlook: Outlook; active: boolean }[];
  total: number;
  units: { code: string; units: number }[];
}> {
  const k = kysely(db);
  const organizationId = scope.organizationId;
  const providerId = scope.providerId ?? null;
  const program = scope.program ?? null;
  // Every kept line of an open month is an enrolled patient's, fresh (refreshKeptLines runs
  // first), so the lines alone say who is in scope; the filters read the patient as it is now.
  const inScope = sql`l.month = ${monthStart}::date
    AND (${organizationId}::int IS NULL OR l.organization_id = ${organizationId}::int)
    AND (${providerId}::int IS NULL OR EXISTS (SELECT 1 FROM patients p
                                                WHERE p.id = l.patient_id AND p.primary_provider_id = ${providerId}::int))
    AND (${program}::text IS NULL OR EXISTS (SELECT 1 FROM patient_programs pp
                                              WHERE pp.patient_id = l.patient_id AND pp.program_id = ${program}::text))`;
  // The report's order (billingInputs' ORDER BY), after the worklist's rank when asked; both are
  // indexes, so the page is read in order.
  const byName = sql`l.last_key, l.first_key, l.patient_id`;
  const ranked =
    page.order === 'worklist' ? sql`l.earnable DESC, l.needs_code DESC, l.at_risk DESC, l.slack, ${byName}` : byName;
  // A column chosen on the worklist sorts every line in scope first (no index: a sort of them all).
  const order = page.sort
    ? sql`${columnKey(page.sort.column, { alias: 'l', atRisk: sql`l.at_risk`, monthStart })} ${direction(page.sort.order)}, ${ranked}`
    : ranked;
  const lines = await sql<{ patient_id: number; line: Line; outlook: Outlook; active: boolean }>`
    SELECT l.patient_id, l.line, l.outlook, l.active FROM billing_month_lines l
     WHERE ${inScope} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`.execute(k);
  const rows = lines.rows;
  if (page.order === 'worklist') {
    const counted = await sql<{ total: number }>`
      SELECT count(*)::int AS total FROM billing_month_lines l WHERE ${inScope}`.execute(k);
    return { lines: rows, total: counted.rows[0]?.total ?? 0, units: [] };
  }
  // The report's count and totals in one pass over the lines in scope (an index-only scan of
  // billing_month_lines_scope_idx, migration 1070): the lines grouped by their codes and units
  // first, a few distinct groups, so each line's arrays are not unnested one by one.
  const summed = await sql<{ total: number; units: { code: string; units: number }[] }>`
    WITH groups AS MATERIALIZED (
      SELECT l.codes, l.units, count(*) AS n FROM billing_month_lines l WHERE ${inScope} GROUP BY l.codes, l.units
    )
    SELECT (SELECT coalesce(sum(n), 0)::int FROM groups) AS total,
           (SELECT coalesce(json_agg(t ORDER BY t.code), '[]') FROM (
              SELECT u.code, sum(u.units * g.n)::int AS units
                FROM groups g CROSS JOIN LATERAL unnest(g.codes, g.units) AS u(code, units) GROUP BY u.code
           ) t) AS units`.execute(k);
  const { total = 0, units = [] } = summed.rows[0] ?? {};
  return { lines: rows, total, units };
}

/** Every organization and its time zone (each has its own current month). */
export async function organizationCalendars(db: Queryable): Promise<{ id: number; time_zone: string }[]> {
  return kysely(db).selectFrom('organizations').select(['id', 'time_zone']).orderBy('id').execute();
}

/**
 * Drops the kept lines no page reads any more: those of closed months (read from their snapshot)
 * and of months before `oldest`. They are only kept answers, computed again if ever asked for.
 */
export async function dropUnreadLines(db: Queryable, oldest: string): Promise<number> {
  const result = await sql`
    DELETE FROM billing_month_lines
     WHERE month < ${oldest}::date OR month IN (SELECT month FROM billing_closed_months)`.execute(kysely(db));
  return Number(result.numAffectedRows ?? 0);
}

/** A column of the worklist to sort every row in scope by, before the page is cut. */
export interface ColumnSort {
  column: BillingWorklistSort;
  order: SortOrder;
}

/** Missing values (no reading, no outreach) last whichever the direction. */
export const direction = (order: SortOrder) => (order === 'desc' ? sql`DESC NULLS LAST` : sql`ASC NULLS LAST`);

/**
 * The sort key of a worklist column for a row of a table of lines (kept lines, or a closed month's
 * snapshot) under `alias`, with its `line` (BillingRow), `patient_id` and `organization_id`. The
 * last reading and outreach are those before the month's end in the organization's calendar, as
 * the worklist's triage columns show them (billing.details.repository.ts).
 */
export function columnKey(
  column: BillingWorklistSort,
  ref: { alias: string; atRisk: RawBuilder<unknown>; monthStart: string },
): RawBuilder<unknown> {
  const row = sql.table(ref.alias);
  const { start, end } = monthBounds(ref.monthStart.slice(0, 7));
  const upto = sql`((${end}::date + 1)::timestamp
                     AT TIME ZONE (SELECT o.time_zone FROM organizations o WHERE o.id = ${row}.organization_id))`;
  switch (column) {
    case 'patient':
      return sql`lower(${row}.line->>'patient_name')`;
    case 'at_risk':
      return ref.atRisk;
    case 'device_days':
      return sql`(${row}.line->>'device_days')::int`;
    case 'minutes':
      return sql`(${row}.line->>'minutes')::int`;
    case 'interactive':
      return sql`(${row}.line->>'interactive')::boolean`;
    case 'last_reading':
      return lastReadingBefore(sql`${row}.patient_id`, upto, start, end);
    case 'last_outreach':
      return lastOutreachBefore(sql`${row}.patient_id`, upto);
  }
}
