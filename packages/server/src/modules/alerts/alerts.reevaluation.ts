import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import { withTransaction } from '../../db/pool.ts';
import { audit } from '../../kernel/audit-writer.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import {
  enqueueReevaluation,
  organizationPatientIds,
  type ReevaluationRequest,
} from './alerts.reevaluation.repository.ts';

/**
 * Asks for the alerts of these patients (or of the organization's) to be evaluated again, after a
 * change of thresholds, settings or programs. Called in the change's transaction; the work runs
 * in the job, never in the request (an organization may have thousands of patients).
 */
export async function requestReevaluation(tx: Queryable, request: ReevaluationRequest): Promise<void> {
  if (request.patient_ids?.length === 0) return;
  await enqueueReevaluation(tx, request);
}

/** How the job re-evaluates: the engine's reevaluatePatients, injected by the composition. */
export type Reevaluate = (patientIds: number[]) => Promise<void>;

const jobContext = (requestId: string): RequestContext => ({
  actor: null,
  ip: 'system',
  userAgent: 'alert-reevaluation job',
  requestId,
});

const REEVALUATE_SLICE = 500;

/** One queued re-evaluation: finds its patients, re-evaluates them, and audits 'alert.reevaluate'. */
export async function runReevaluation(
  db: pg.Pool,
  request: ReevaluationRequest,
  reevaluate: Reevaluate,
  requestId: string,
): Promise<{ patients: number }> {
  const patientIds =
    request.patient_ids ??
    (request.organization_id !== undefined ? await organizationPatientIds(db, request.organization_id) : []);
  // In slices, so one organization's thousands of patients are not one long transaction.
  for (let i = 0; i < patientIds.length; i += REEVALUATE_SLICE)
    await reevaluate(patientIds.slice(i, i + REEVALUATE_SLICE));
  await withTransaction(db, (tx) =>
    audit(tx, jobContext(requestId), {
      action: 'alert.reevaluate',
      outcome: 'success',
      resourceType: request.organization_id !== undefined ? 'organization' : 'patient',
      resourceId: request.organization_id ?? (patientIds.length === 1 ? patientIds[0] : undefined),
      details: { cause: request.cause, patient_ids: patientIds },
    }),
  );
  return { patients: patientIds.length };
}
