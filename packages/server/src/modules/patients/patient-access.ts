import type pg from 'pg';
import { ApiErrors } from '@rpm/contracts';
import { withTransaction, type Queryable } from '../../db/pool.ts';
import type { SignedInContext } from '../../plugins/context.ts';
import { HttpError } from '../../plugins/errors.ts';
import { audit, type AuditEvent } from '../audit/audit.service.ts';

/**
 * A refusal that must leave an audit record even though its transaction rolls back: the record
 * is written after the rollback, so nothing of the refused change survives but the fact of it.
 */
export class AuditedRefusal extends HttpError {
  constructor(
    statusCode: number,
    message: string,
    public readonly event: AuditEvent,
  ) {
    super(statusCode, message);
  }
}

/** Runs `fn` in one transaction; an AuditedRefusal is recorded once the transaction is undone. */
export async function auditedTransaction<T>(
  db: pg.Pool,
  ctx: SignedInContext,
  fn: (tx: pg.PoolClient) => Promise<T>,
): Promise<T> {
  try {
    return await withTransaction(db, fn);
  } catch (err) {
    if (err instanceof AuditedRefusal) await audit(db, ctx, err.event);
    throw err;
  }
}

export interface PatientScope {
  id: number;
  organization_id: number;
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
  action: string,
  lock = false,
): Promise<PatientScope> {
  const { rows } = await tx.query<PatientScope>(
    `SELECT id, organization_id FROM patients WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [patientId],
  );
  const patient = rows[0];
  if (!patient) {
    throw new AuditedRefusal(404, ApiErrors.notFound, {
      action,
      outcome: 'failure',
      resourceType: 'patient',
      resourceId: patientId,
      reason: 'no such patient',
    });
  }
  if (!canSeeOrganization(ctx, patient.organization_id)) {
    throw new AuditedRefusal(404, ApiErrors.notFound, {
      action,
      outcome: 'denied',
      resourceType: 'patient',
      resourceId: patientId,
      reason: 'patient of another organization',
    });
  }
  return patient;
}

/** Admins see every organization; a provider only their own. */
export function canSeeOrganization(ctx: SignedInContext, organizationId: number): boolean {
  return ctx.actor.role === 'admin' || ctx.actor.organizationId === organizationId;
}
