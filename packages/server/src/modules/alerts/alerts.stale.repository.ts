import type { AlertValues } from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';
import type { AlertChange } from './alerts.repository.ts';

/**
 * Actively enrolled RPM patients (a paused or discharged one is not expected to measure) with
 * no reading for their organization's number of days (or none since they were
 * added), as one set: the stale-data job raises or refreshes an alert for each.
 */
export async function stalePatients(
  db: Queryable,
  defaultDays: number,
): Promise<{ patient_id: number; organization_id: number; last_reading: Date | null; days: number }[]> {
  const { rows } = await sql<{ patient_id: number; organization_id: number; last_reading: Date | null; days: number }>`
    SELECT p.id AS patient_id, p.organization_id, last.at AS last_reading,
           floor(extract(epoch FROM now() - coalesce(last.at, p.created_at)) / 86400)::int AS days
      FROM patients p
      LEFT JOIN alert_settings s ON s.organization_id = p.organization_id
      LEFT JOIN LATERAL (SELECT v.created_at AS at FROM observations v WHERE v.patient_id = p.id
                          ORDER BY v.created_at DESC, v.id DESC LIMIT 1) last ON true
     WHERE p.enrolled_rpm AND p.enrollment_status = 'Active'
       AND coalesce(last.at, p.created_at) < now() - make_interval(days => coalesce(s.stale_days, ${defaultDays})::int)`.execute(
    kysely(db),
  );
  return rows;
}

/** The stale-data alert's "days without a reading" is kept current on every run; it is not a new reading. */
export async function raiseOrRefreshStale(
  db: Queryable,
  s: { patientId: number; organizationId: number; severityRank: number; values: AlertValues },
): Promise<(AlertChange & { created: boolean }) | null> {
  const row = await kysely(db)
    .insertInto('alerts')
    .values({
      patient_id: s.patientId,
      organization_id: s.organizationId,
      rule: 'stale_data',
      severity: 'info',
      severity_rank: s.severityRank,
      first_at: sql`now()`,
      last_at: sql`now()`,
      last_values: JSON.stringify(s.values),
    })
    .onConflict((oc) =>
      oc
        .columns(['patient_id', 'rule'])
        // A literal, not a parameter: PostgreSQL matches the partial unique index by this
        // predicate, which a generic plan could not (withTransaction's genericPlans).
        .where('status', '<>', sql.lit('resolved'))
        .doUpdateSet({ last_values: sql`excluded.last_values`, last_at: sql`now()`, updated_at: sql`now()` })
        .where(sql<boolean>`alerts.last_values IS DISTINCT FROM excluded.last_values`),
    )
    .returning(['id', 'patient_id', 'organization_id', 'severity', 'status', sql<boolean>`xmax = 0`.as('created')])
    .executeTakeFirst();
  return (row as (AlertChange & { created: boolean }) | undefined) ?? null;
}
