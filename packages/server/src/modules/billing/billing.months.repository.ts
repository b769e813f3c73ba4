// A billing month's state: closed, reopened, claims sent, and the lines kept when it was closed.
import { sql } from 'kysely';
import { kysely } from '../../db/kysely.ts';
import type { Queryable } from '../../db/pool.ts';
import { columnKey, direction, type ColumnSort } from './billing.lines.repository.ts';
/** When the month was closed and its claims sent, or null while it is open. */
export async function findClosedMonth(
  db: Queryable,
  monthStart: string,
): Promise<{ closedAt: Date; claimsSentAt: Date | null } | null> {
  const row = await kysely(db)
    .selectFrom('billing_closed_months')
    .select(['closed_at', 'claims_sent_at'])
    .where('month', '=', monthStart)
    .executeTakeFirst();
  if (!row) return null;
  return { closedAt: new Date(row.closed_at), claimsSentAt: row.claims_sent_at ? new Date(row.claims_sent_at) : null };
}

/**
 * Reopens a closed month (the database function keeps the reopening with its reason, and drops the
 * close and its snapshot): 'reopened', 'not_closed' or 'claims_sent', and the time it happened.
 */
export async function reopenMonth(
  db: Queryable,
  monthStart: string,
  userId: number,
  reason: string,
): Promise<{ outcome: 'reopened' | 'not_closed' | 'claims_sent'; at: Date }> {
  const result = await sql<{ outcome: 'reopened' | 'not_closed' | 'claims_sent'; at: Date }>`
    SELECT rpm_reopen_billing_month(${monthStart}::date, ${userId}::int, ${reason}::text) AS outcome, now() AS at`.execute(
    kysely(db),
  );
  return result.rows[0]!;
}

/** Marks a closed month's claims as sent: 'sent', 'not_closed' or 'already_sent', and when. */
export async function markClaimsSent(
  db: Queryable,
  monthStart: string,
  userId: number,
): Promise<{ outcome: 'sent' | 'not_closed' | 'already_sent'; at: Date }> {
  const result = await sql<{ outcome: 'sent' | 'not_closed' | 'already_sent'; at: Date }>`
    SELECT rpm_mark_claims_sent(${monthStart}::date, ${userId}::int) AS outcome, now() AS at`.execute(kysely(db));
  return result.rows[0]!;
}

/** Whether the calendar month of `date` is closed for billing. */
export async function isDateInClosedMonth(db: Queryable, date: string): Promise<boolean> {
  const row = await kysely(db)
    .selectFrom('billing_closed_months')
    .select('month')
    .where('month', '=', sql<string>`date_trunc('month', ${date}::date)::date`)
    .executeTakeFirst();
  return row !== undefined;
}

/** Null when the month was already closed. */
export async function insertClosedMonth(db: Queryable, monthStart: string, userId: number): Promise<Date | null> {
  const row = await kysely(db)
    .insertInto('billing_closed_months')
    .values({ month: monthStart, closed_by: userId })
    .onConflict((oc) => oc.column('month').doNothing())
    .returning('closed_at')
    .executeTakeFirst();
  return row ? new Date(row.closed_at) : null;
}

/** One patient's line of a closed month, as it was when the month was closed. */
export interface SnapshotRow<Line, Claim, Evidence> {
  patient_id: number;
  organization_id: number;
  enrolled: boolean;
  position: number;
  line: Line;
  claim: Claim;
  evidence: Evidence;
}

// Rows per INSERT: 8 parameters each, far below PostgreSQL's 65,535.
const SNAPSHOT_CHUNK = 1000;

export async function insertMonthSnapshot<L, C, E>(
  db: Queryable,
  monthStart: string,
  rows: SnapshotRow<L, C, E>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += SNAPSHOT_CHUNK) {
    await kysely(db)
      .insertInto('billing_month_snapshots')
      .values(
        rows.slice(i, i + SNAPSHOT_CHUNK).map((r) => ({
          month: monthStart,
          patient_id: r.patient_id,
          organization_id: r.organization_id,
          enrolled: r.enrolled,
          position: r.position,
          line: JSON.stringify(r.line),
          claim: JSON.stringify(r.claim),
          evidence: JSON.stringify(r.evidence),
        })),
      )
      .execute();
  }
}

/** A closed month's lines in the report's order: the enrolled patients in scope, or one patient. */
export async function monthSnapshot<L, C, E>(
  db: Queryable,
  monthStart: string,
  scope: { organizationId: number | null; patientId?: number },
): Promise<SnapshotRow<L, C, E>[]> {
  const { organizationId, patientId } = scope;
  const rows = await kysely(db)
    .selectFrom('billing_month_snapshots')
    .select(['patient_id', 'organization_id', 'enrolled', 'position', 'line', 'claim', 'evidence'])
    .where('month', '=', monthStart)
    .$if(patientId === undefined, (q) => q.where('enrolled', '=', true))
    .$if(patientId !== undefined, (q) => q.where('patient_id', '=', patientId ?? 0))
    .$if(organizationId !== null, (q) => q.where('organization_id', '=', organizationId ?? 0))
    .orderBy('position')
    .execute();
  return rows.map((r) => ({ ...r, line: r.line as L, claim: r.claim as C, evidence: r.evidence as E }));
}

/**
 * For each (patient, measured time): whether it falls in a closed month of the patient's
 * organization's calendar. One statement for a whole batch, so ingestion can reject those readings
 * one by one instead of having the database refuse the batch's single insert.
 */
export async function inClosedMonths(
  db: Queryable,
  readings: readonly { patientId: number; at: string }[],
): Promise<boolean[]> {
  if (readings.length === 0) return [];
  const result = await sql<{ closed: boolean }>`
    SELECT COALESCE(rpm_closed_month_at(r.at, o.time_zone), false) AS closed
      FROM unnest(${readings.map((r) => r.patientId)}::int[], ${readings.map((r) => r.at)}::timestamptz[]) WITH ORDINALITY AS r(patient_id, at, n)
      LEFT JOIN patients p ON p.id = r.patient_id
      LEFT JOIN organizations o ON o.id = p.organization_id
     ORDER BY r.n`.execute(kysely(db));
  return result.rows.map((r) => r.closed);
}

/** Which of a closed month's lines a paged answer reads: the enrolled in scope, the worklist's filters. */
export interface SnapshotScope {
  organizationId: number | null;
  /** The patient's primary provider and programs as they are now (the worklist filters by them). */
  providerId?: number;
  program?: string;
}

/**
 * A page of a closed month's lines in the report's order, with how many lines are in scope and
 * the units per code over all of them (summed in the database: only the page's lines are sent).
 */
export async function monthSnapshotPage<L>(
  db: Queryable,
  monthStart: string,
  scope: SnapshotScope,
  page: { limit: number; offset: number; sort?: ColumnSort },
): Promise<{ lines: { patient_id: number; line: L }[]; total: number; units: { code: string; units: number }[] }> {
  const k = kysely(db);
  const inScope = snapshotsInScope(monthStart, scope);
  // A closed month: nothing is at risk any more.
  const order = page.sort
    ? sql`${columnKey(page.sort.column, { alias: 's', atRisk: sql`false::boolean`, monthStart })} ${direction(page.sort.order)}, s.position`
    : sql`s.position`;
  const lines = await sql<{ patient_id: number; line: L }>`
    SELECT s.patient_id, s.line FROM billing_month_snapshots s
     WHERE ${inScope} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`.execute(k);
  const counted = await sql<{ total: number }>`
    SELECT count(*)::int AS total FROM billing_month_snapshots s WHERE ${inScope}`.execute(k);
  const units = await sql<{ code: string; units: number }>`
    SELECT c->>'code' AS code, sum((c->>'units')::int)::int AS units
      FROM billing_month_snapshots s CROSS JOIN LATERAL jsonb_array_elements(s.line->'codes') c
     WHERE ${inScope} GROUP BY 1`.execute(k);
  return { lines: lines.rows, total: counted.rows[0]?.total ?? 0, units: units.rows };
}

function snapshotsInScope(monthStart: string, scope: SnapshotScope) {
  const organizationId = scope.organizationId;
  const providerId = scope.providerId ?? null;
  const program = scope.program ?? null;
  return sql`s.month = ${monthStart}::date AND s.enrolled
    AND (${organizationId}::int IS NULL OR s.organization_id = ${organizationId}::int)
    AND (${providerId}::int IS NULL OR EXISTS (SELECT 1 FROM patients p
                                                WHERE p.id = s.patient_id AND p.primary_provider_id = ${providerId}::int))
    AND (${program}::text IS NULL OR EXISTS (SELECT 1 FROM patient_programs pp
                                              WHERE pp.patient_id = s.patient_id AND pp.program_id = ${program}::text))`;
}
