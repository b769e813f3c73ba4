import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

/**
 * The partition maintenance's SQL: calls of the owner's functions of migration 1000, which are
 * all the runtime role may do to month tables (it cannot create, detach or drop one itself). Each
 * call is its own transaction; a drop writes its audit record inside it.
 */

/** Creates the month tables of observations and audit records from this month to `monthsAhead` ahead. */
export async function ensurePartitions(
  db: Queryable,
  monthsAhead: number,
): Promise<{ partition_name: string; outcome: string }[]> {
  const { rows } = await sql<{ partition_name: string; outcome: string }>`
    SELECT partition_name, outcome FROM rpm_partitions_ensure(${monthsAhead}::integer)`.execute(kysely(db));
  return rows;
}

/** Drops the observation months every organization lets go, then deletes each organization's expired readings. */
export async function expireObservations(
  db: Queryable,
  requestId: string,
): Promise<{ dropped: { month: string; rows: number }[]; deleted: { organization_id: number; deleted: number }[] }> {
  const { rows } = await sql<{
    result: { dropped: { month: string; rows: number }[]; deleted: { organization_id: number; deleted: number }[] };
  }>`SELECT rpm_observations_expire(${requestId}) AS result`.execute(kysely(db));
  return rows[0]!.result;
}

/** The months that have an audit month table, oldest first (YYYY-MM-DD, the first day). */
export async function auditMonths(db: Queryable): Promise<string[]> {
  const { rows } = await sql<{ month: string }>`
    SELECT month FROM rpm_partition_months('audit_logs') ORDER BY month`.execute(kysely(db));
  return rows.map((r) => r.month);
}

/** Drops one audit month table; the database refuses (RPM02) a month younger than six years. */
export async function dropAuditMonth(db: Queryable, month: string, requestId: string): Promise<number | null> {
  const { rows } = await sql<{ rows: number | null }>`
    SELECT rpm_audit_drop_month(${month}::date, ${requestId}) AS rows`.execute(kysely(db));
  return rows[0]!.rows;
}
