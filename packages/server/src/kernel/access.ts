import { ApiErrors, type AuditAction } from '@rpm/contracts';
import type { Queryable } from '../db/pool.ts';
import type { SignedInContext } from './request-context.ts';
import { mayAccessPatient } from '../policies/patients.ts';
import type { AuditEvent } from './audit-writer.ts';
import { AuditedRefusal, failure } from './audited-transaction.ts';
import { findPatientScope, type PatientScope } from './patient-scope.repository.ts';

export type { PatientScope } from './patient-scope.repository.ts';

/** What a refusal is recorded as, and what the caller is told. */
export interface Refusal {
  action: AuditAction;
  resourceType: string;
  resourceId?: string | number | null;
  reason: string;
  /**
   * 404 where the existence of the resource must not be revealed; 400 where the refusal is about
   * the request itself (an admin disabling their own account); 403 otherwise.
   */
  status?: 400 | 403 | 404;
  message?: string;
  targetUserId?: number | null;
  details?: AuditEvent['details'];
}

/**
 * The access call every service method starts with: `allowed` is a policy's answer. A refusal is
 * thrown as an AuditedRefusal, so it is recorded the same way everywhere (by auditedTransaction,
 * after the refused work is undone), with outcome `denied` and the reason.
 */
export function authorize(allowed: boolean, refusal: Refusal): asserts allowed {
  if (allowed) return;
  const status = refusal.status ?? 403;
  throw new AuditedRefusal(status, refusal.message ?? (status === 404 ? ApiErrors.notFound : ApiErrors.forbidden), {
    action: refusal.action,
    outcome: 'denied',
    resourceType: refusal.resourceType,
    resourceId: refusal.resourceId ?? null,
    targetUserId: refusal.targetUserId ?? null,
    reason: refusal.reason,
    details: refusal.details ?? null,
  });
}

/**
 * The object-level check every /api/patients/{id}/... call starts with. A provider asking for
 * another organization's patient gets the same 404 as for a patient that does not exist, so
 * ids of other organizations cannot be probed; the audit record tells the two apart.
 * `lock` takes a row lock so concurrent saves of one patient run one after the other.
 */
export async function requirePatientAccess(
  tx: Queryable,
  ctx: SignedInContext,
  patientId: number,
  action: AuditAction,
  lock = false,
): Promise<PatientScope> {
  const patient = await findPatientScope(tx, patientId, lock);
  if (!patient) {
    throw failure(404, ApiErrors.notFound, { action, resourceType: 'patient', resourceId: patientId, reason: 'no such patient' });
  }
  authorize(mayAccessPatient(ctx.actor, patient), {
    action,
    resourceType: 'patient',
    resourceId: patientId,
    reason: 'patient of another organization',
    status: 404,
  });
  return patient;
}
