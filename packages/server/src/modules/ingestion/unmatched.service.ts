import {
  BillingErrors,
  UNKNOWN_METRIC_KIND,
  UnmatchedErrors,
  type AttachUnmatchedBody,
  type AttachUnmatchedResult,
  type UnmatchedReadingsResponse,
} from '@rpm/contracts';
import type pg from 'pg';
import { authorize } from '../../kernel/access.ts';
import { auditedTransaction, failure } from '../../kernel/audited-transaction.ts';
import { findPatientScope } from '../../kernel/patient-scope.repository.ts';
import { withTransaction } from '../../db/pool.ts';
import type { RequestContext, SignedInContext } from '../../kernel/request-context.ts';
import { mayReviewUnmatchedReadings } from '../../policies/ingestion.ts';
import { mayAttachSourceReadings } from '../../policies/unmatched-readings.ts';
import { presentUnmatched } from './unmatched-reading.presenter.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { deleteUnmatchedBefore, lockAttachable, moveToPatient, pageUnmatched } from './unmatched.repository.ts';

export async function listUnmatched(
  db: pg.Pool,
  ctx: SignedInContext,
  limit: number,
  offset: number,
): Promise<UnmatchedReadingsResponse> {
  return auditedTransaction(db, ctx, async (tx) => {
    authorize(mayReviewUnmatchedReadings(ctx.actor), {
      action: 'unmatched.list',
      resourceType: 'unmatched_reading',
      reason: 'admin role required',
    });
    const { rows, total } = await pageUnmatched(tx, limit, offset);
    await audit(tx, ctx, {
      action: 'unmatched.list',
      outcome: 'success',
      resourceType: 'unmatched_reading',
      details: { limit, offset, count: rows.length },
    });
    return { items: rows.map(presentUnmatched), total };
  });
}

/**
 * POST /api/unmatched-readings/attach: an admin gives chosen unmatched readings to a patient, for
 * what an assignment deliberately does not reach (readings from before the patient was created).
 * Never into a closed month, and never readings another organization's source sent.
 */
export async function attachUnmatched(
  db: pg.Pool,
  ctx: SignedInContext,
  body: AttachUnmatchedBody,
): Promise<AttachUnmatchedResult> {
  const action = 'unmatched.attach';
  const ids = body.reading_ids;
  return auditedTransaction(db, ctx, async (tx) => {
    authorize(mayReviewUnmatchedReadings(ctx.actor), {
      action,
      resourceType: 'unmatched_reading',
      reason: 'admin role required',
      details: { patient_id: body.patient_id },
    });
    const refuse = (status: number, message: string, reason: string) =>
      failure(status, message, {
        action,
        resourceType: 'patient',
        resourceId: body.patient_id,
        reason,
        details: { reading_ids: ids },
      });
    const patient = await findPatientScope(tx, body.patient_id, true);
    if (!patient) throw refuse(404, UnmatchedErrors.patientUnknown, 'unknown patient');
    const rows = await lockAttachable(tx, ids, body.patient_id);
    // A metric the portal does not know has no kind to be stored as: it stays unmatched.
    if (rows.some((r) => r.kind === UNKNOWN_METRIC_KIND))
      throw refuse(400, UnmatchedErrors.unknownMetric, 'metric the portal does not know');
    if (rows.length !== ids.length) throw refuse(409, UnmatchedErrors.notUnmatched, 'readings no longer unmatched');
    if (!rows.every((r) => mayAttachSourceReadings(r.source_organization_id, patient.organization_id))) {
      throw refuse(409, UnmatchedErrors.otherOrganization, "another organization's source");
    }
    if (rows.some((r) => r.in_closed_month)) throw refuse(409, BillingErrors.monthClosed, 'month closed for billing');
    const attached = await moveToPatient(tx, ids, body.patient_id);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'patient',
      resourceId: body.patient_id,
      details: { reading_ids: ids, attached },
    });
    return { attached };
  });
}

/** The retention job acts for nobody: its audit records say so (no user, no address). */
export const systemContext = (requestId: string): RequestContext => ({
  actor: null,
  ip: 'system',
  userAgent: 'unmatched-retention job',
  requestId,
});

const RETENTION_BATCH = 5_000;

/**
 * Deletes unmatched readings received more than `retentionDays` ago, a batch per transaction so
 * that a large backlog never holds one long lock; each batch is audited as a system action in its
 * own transaction, with the count per source (never the readings).
 */
export async function purgeExpiredUnmatched(
  db: pg.Pool,
  retentionDays: number,
  requestId: string,
  now = Date.now(),
): Promise<{ deleted: number }> {
  const before = new Date(now - retentionDays * 86_400_000);
  const ctx = systemContext(requestId);
  let deleted = 0;
  for (;;) {
    const n = await withTransaction(db, async (tx) => {
      const lost = await deleteUnmatchedBefore(tx, before, RETENTION_BATCH);
      const count = [...lost.values()].reduce((a, b) => a + b, 0);
      if (count > 0) {
        await audit(tx, ctx, {
          action: 'unmatched.retention',
          outcome: 'success',
          resourceType: 'unmatched_reading',
          details: {
            deleted: count,
            retention_days: retentionDays,
            received_before: before.toISOString(),
            by_source: Object.fromEntries([...lost].map(([source, k]) => [source ?? 'none', k])),
          },
        });
      }
      return count;
    });
    deleted += n;
    if (n < RETENTION_BATCH) return { deleted };
  }
}
