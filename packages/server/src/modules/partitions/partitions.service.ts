import { PARTITION_MONTHS_AHEAD } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';
import { auditMonths, dropAuditMonth, ensurePartitions, expireObservations } from './partitions.repository.ts';

export interface MaintenanceResult {
  created: string[];
  /** Months whose rows already sit in the DEFAULT partition, so no month table was made for them. */
  leftInDefault: string[];
  observations: Awaited<ReturnType<typeof expireObservations>>;
  auditMonthsDropped: { month: string; rows: number | null }[];
}

/** The first day of the month `months` before `now`'s month, as YYYY-MM-DD (UTC). */
export function monthsBefore(now: Date, months: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1));
  return d.toISOString().slice(0, 10);
}

/**
 * One maintenance run: month tables ahead, the observation retention of every organization, and,
 * when the operator set an audit retention (at least six years; the database checks it again),
 * the audit months entirely older than it. Every drop and deletion is audited by the database
 * function in its own transaction. A system task: no actor, the job's request id on its records.
 */
export async function runPartitionMaintenance(
  db: Queryable,
  settings: { auditRetentionMonths: number | undefined },
  requestId: string,
  now = new Date(),
): Promise<MaintenanceResult> {
  const made = await ensurePartitions(db, PARTITION_MONTHS_AHEAD);
  const observations = await expireObservations(db, requestId);
  const auditMonthsDropped: MaintenanceResult['auditMonthsDropped'] = [];
  if (settings.auditRetentionMonths !== undefined) {
    // A month goes when all of it is older than the retention: when it ends by the first day of
    // the month the retention reaches back to (the months are in UTC, as the month tables are).
    const keepFrom = monthsBefore(now, settings.auditRetentionMonths);
    for (const month of await auditMonths(db)) {
      if (month >= keepFrom) break;
      auditMonthsDropped.push({ month, rows: await dropAuditMonth(db, month, requestId) });
    }
  }
  return {
    created: made.filter((m) => m.outcome === 'created').map((m) => m.partition_name),
    leftInDefault: made.filter((m) => m.outcome === 'in_default').map((m) => m.partition_name),
    observations,
    auditMonthsDropped,
  };
}
