import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

/** The queue of the re-evaluation job (created by migration 0971). */
export const REEVALUATE_QUEUE = 'alerts-reevaluate';

/** What a re-evaluation job carries: the patients, or an organization whose patients it finds when it runs. */
export interface ReevaluationRequest {
  cause: 'patient-thresholds' | 'organization-settings' | 'programs';
  patient_ids?: number[];
  organization_id?: number;
}

/**
 * Queues a re-evaluation in the caller's transaction: the job exists exactly when the change that
 * asked for it commits. Written as pg-boss's own insert would (a standard queue takes no
 * singleton or policy columns; retries and expiry are the columns' defaults), because pg-boss's
 * send runs on its own connection, outside the request's transaction.
 */
export async function enqueueReevaluation(db: Queryable, request: ReevaluationRequest): Promise<void> {
  await sql`INSERT INTO pgboss.job (name, data, retry_limit, retry_delay)
            VALUES (${REEVALUATE_QUEUE}, ${JSON.stringify(request)}::jsonb, 5, 30)`.execute(kysely(db));
}

/** The patients of an organization the alerts evaluate (actively enrolled in RPM), at the time the job runs. */
export async function organizationPatientIds(db: Queryable, organizationId: number): Promise<number[]> {
  const rows = await kysely(db)
    .selectFrom('patients')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('enrolled_rpm', '=', true)
    .where('enrollment_status', '=', 'Active')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}
