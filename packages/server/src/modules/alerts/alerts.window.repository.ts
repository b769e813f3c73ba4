import { weight, type AlertRule } from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';
import type { AlertChange } from './alerts.repository.ts';

/** The patient's other readings of a kind measured within `minutes` either side of `at`. */
export async function readingsAround(
  db: Queryable,
  r: { patientId: number; kind: string; at: Date; minutes: number; exceptId: number },
): Promise<{ id: number; at: Date; components: Record<string, number> }[]> {
  const { rows } = await sql<{ id: number; at: Date; components: Record<string, number> }>`
    SELECT o.id::int8 AS id, o.created_at AS at, o.components
      FROM observations o
     WHERE o.patient_id = ${r.patientId} AND o.kind = ${r.kind} AND o.id <> ${r.exceptId}
       AND o.created_at BETWEEN ${r.at}::timestamptz - make_interval(mins => ${r.minutes}::int)
                            AND ${r.at}::timestamptz + make_interval(mins => ${r.minutes}::int)
     ORDER BY o.created_at`.execute(kysely(db));
  return rows;
}

/**
 * The weights a new weight is compared with, days in the organization's time zone: the LATEST
 * weight of the previous calendar day (the one nearest the new reading: a morning weight against
 * yesterday's evening weight would show the day's food and drink, but a once-a-day morning weigher
 * gets yesterday's morning weight, as HFSA's "in a day" means), and the weight of the calendar day
 * seven days earlier measured closest to the same time of day. Null where there is none.
 */
export async function weightBaselines(
  db: Queryable,
  w: { patientId: number; at: Date; timeZone: string },
): Promise<{ day: number | null; week: number | null }> {
  const local = sql`(${w.at}::timestamptz AT TIME ZONE ${w.timeZone})`;
  const dayStart = (daysBack: number) =>
    sql`((date_trunc('day', ${local}) - make_interval(days => ${daysBack}::int)) AT TIME ZONE ${w.timeZone})`;
  const { rows } = await sql<{ day: number | null; week: number | null }>`
    SELECT (SELECT (o.components ->> ${weight.primary})::float8 FROM observations o
             WHERE o.patient_id = ${w.patientId} AND o.kind = ${weight.kind}
               AND o.created_at >= ${dayStart(1)} AND o.created_at < ${dayStart(0)}
             ORDER BY o.created_at DESC, o.id DESC LIMIT 1) AS day,
           (SELECT (o.components ->> ${weight.primary})::float8 FROM observations o
             WHERE o.patient_id = ${w.patientId} AND o.kind = ${weight.kind}
               AND o.created_at >= ${dayStart(7)} AND o.created_at < ${dayStart(6)}
             ORDER BY abs(extract(epoch FROM o.created_at - (${w.at}::timestamptz - interval '7 days'))), o.id DESC
             LIMIT 1) AS week`.execute(kysely(db));
  return rows[0] ?? { day: null, week: null };
}

/**
 * Sets (a time) or unsets (null) when the patient's unresolved alerts of these rules stopped
 * being met. Setting only touches alerts not already cleared whose last reading is not newer than
 * `at` (a late, older reading does not clear an alert a newer reading raised); unsetting only
 * touches cleared ones. Returns the alerts that changed.
 */
export async function setCleared(
  db: Queryable,
  c: { patientId: number; rules: AlertRule[]; clearedAt: Date | null; at: Date },
): Promise<AlertChange[]> {
  if (c.rules.length === 0) return [];
  let q = kysely(db)
    .updateTable('alerts')
    .set({ cleared_at: c.clearedAt, updated_at: sql`now()` })
    .where('patient_id', '=', c.patientId)
    .where('rule', 'in', c.rules)
    .where('status', '<>', 'resolved');
  q =
    c.clearedAt === null
      ? q.where('cleared_at', 'is not', null)
      : q.where('cleared_at', 'is', null).where('last_at', '<=', c.at);
  const rows = await q.returning(['id', 'patient_id', 'organization_id', 'severity', 'status']).execute();
  return rows as AlertChange[];
}
