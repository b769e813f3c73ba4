import { blankToNull, type AuditAction, type Outreach, type OutreachInput, type OutreachPage } from '@rpm/contracts';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { authorize, requirePatientAccess } from '../../kernel/access.ts';
import { auditedTransaction } from '../../kernel/audited-transaction.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { mayWorkOutreach } from '../../policies/outreach.ts';
import { presentOutreach } from './outreach.presenter.ts';
import { countOutreach, insertOutreach, pageOutreach } from './outreach.repository.ts';

/**
 * The patient's scope (404 for a patient of another organization, as every patient call), then
 * the outreach policy's answer; either refusal is recorded by auditedTransaction.
 */
async function requireOutreachAccess(tx: Queryable, ctx: SignedInContext, patientId: number, action: AuditAction): Promise<void> {
  const patient = await requirePatientAccess(tx, ctx, patientId, action);
  authorize(mayWorkOutreach(ctx.actor, patient), {
    action,
    resourceType: 'patient',
    resourceId: patientId,
    reason: 'outreach is for the providers of the organization and admins',
    status: 404,
  });
}

/** The patient's outreach, newest first, one page and the total. */
export async function listOutreach(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
  limit: number,
  offset: number,
): Promise<OutreachPage> {
  const action = 'patient.outreach_list';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    await requireOutreachAccess(tx, ctx, patientId, action);
    const items = (await pageOutreach(tx, patientId, limit, offset)).map(presentOutreach);
    const total = await countOutreach(tx, patientId);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'patient',
      resourceId: patientId,
      details: { limit, offset, count: items.length },
    });
    return { items, total };
  });
}

/** Records an outreach by the caller, now, with its audit record (the notes' text is not in it). */
export async function recordOutreach(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
  input: OutreachInput,
): Promise<Outreach> {
  const action = 'patient.outreach_create';
  return auditedTransaction(deps.db, ctx, async (tx) => {
    await requireOutreachAccess(tx, ctx, patientId, action);
    const notes = blankToNull(input.notes ?? null);
    const outreach = presentOutreach(await insertOutreach(tx, { patientId, userId: ctx.actor.id, outcome: input.outcome, notes }));
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'patient',
      resourceId: patientId,
      details: { outreach_id: outreach.id, outcome: outreach.outcome, notes_length: notes?.length ?? 0 },
    });
    return outreach;
  });
}
