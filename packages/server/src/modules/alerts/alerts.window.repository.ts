import { weight, type AlertRule } from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely, template, type Template } from '../../db/kysely.ts';
import type { AlertChange } from './alerts.repository.ts';

/** One reading of the blood-pressure and pulse window. */
export interface WindowReading {
  at: Date;
  systolic: number | null;
  diastolic: number | null;
  pulse: number | null;
}

/**
 * The window's readings: those of the patient with blood pressure or a pulse (any kind's pulse
 * component), measured from the start of the first of `days` calendar days ending with the
 * reading's day, in the organization's time zone, up to the reading itself. The day's start is
 * computed by PostgreSQL (`AT TIME ZONE`), so a window across a daylight-saving change starts at
 * local midnight, not 24-hour steps back. Read over the patient-and-time index, for several
 * readings in one query whatever their number: a webhook call of a hundred readings costs one
 * round trip for its windows, not a hundred. Answers them in the order asked.
 */
export async function windowsOf(
  db: Queryable,
  windows: { patientId: number; at: Date; timeZone: string; days: number }[],
): Promise<{ from: Date; readings: WindowReading[] }[]> {
  if (windows.length === 0) return [];
  // Prepared once per connection, as readingsToCheck: its text does not depend on the number.
  windowsTemplate ??= template('alerts_windows_v1', ['patientIds', 'ats', 'timeZones', 'days'], (p: WindowsParams) =>
    windowsQuery(p).compile(kysely(db)),
  );
  const rows = await windowsTemplate.run(db, {
    patientIds: windows.map((w) => w.patientId),
    ats: windows.map((w) => w.at),
    timeZones: windows.map((w) => w.timeZone),
    days: windows.map((w) => w.days),
  });
  const out = windows.map(() => ({ from: new Date(0), readings: [] as WindowReading[] }));
  for (const { ord, window_from, at, systolic, diastolic, pulse } of rows) {
    const w = out[ord - 1]!;
    w.from = window_from;
    if (at !== null) w.readings.push({ at, systolic, diastolic, pulse });
  }
  return out;
}

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

interface WindowsParams {
  patientIds: number[];
  ats: Date[];
  timeZones: string[];
  days: number[];
}
type WindowRow = WindowReading & { ord: number; window_from: Date };
let windowsTemplate: Template<WindowsParams, WindowRow> | undefined;

function windowsQuery(p: WindowsParams) {
  return sql<WindowRow>`
    SELECT w.ord::int AS ord, w.window_from, o.created_at AS at, o.systolic, o.diastolic, o.pulse
      FROM (SELECT i.ord, i.patient_id, i.at,
                   ((date_trunc('day', i.at AT TIME ZONE i.tz) - make_interval(days => i.days - 1)) AT TIME ZONE i.tz)
                     AS window_from
              FROM unnest(${p.patientIds}::int[], ${p.ats}::timestamptz[], ${p.timeZones}::text[], ${p.days}::int[])
                   WITH ORDINALITY AS i(patient_id, at, tz, days, ord)) w
      LEFT JOIN LATERAL (
        SELECT o.created_at, o.systolic, o.diastolic, o.pulse FROM observations o
         WHERE o.patient_id = w.patient_id AND o.created_at >= w.window_from AND o.created_at <= w.at
           AND (o.pulse IS NOT NULL OR (o.systolic IS NOT NULL AND o.diastolic IS NOT NULL))) o ON true
     ORDER BY w.ord, o.created_at`;
}
