import {
  BillingErrors,
  type AuditAction,
  type BillingClaimsSent,
  type BillingClosing,
  type BillingReopenBody,
  type BillingReopening,
} from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';
import { authorize } from '../../kernel/access.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { AuditedRefusal, auditedTransaction } from '../../kernel/audited-transaction.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { mayCloseBillingMonth, mayMarkClaimsSent, mayReopenBillingMonth } from '../../policies/billing.ts';
import { monthBounds } from './billing-rules.ts';
import { presentEvidencePatient, presentTimeEntry } from './billing.presenter.ts';
import { billingInputs, readingDays, type BillingInputRow } from './billing.repository.ts';
import {
  billingPatientDetails,
  evidencePatients,
  monthTimeEntries,
  type BillingPatientDetails,
} from './billing.details.repository.ts';
import { insertClosedMonth, insertMonthSnapshot, markClaimsSent, reopenMonth } from './billing.months.repository.ts';
import { billRow, type Deps, type MonthSnapshotRow } from './billing.service.ts';

/**
 * A month's life for the payer: closed once it ended (a snapshot of every patient's line, claim
 * fields and evidence), reopened by an admin with a reason until its claims are sent, marked as
 * sent. Each step is the admins' alone and audited.
 */

/** An audited refusal of a month step (409 conflicts, 400 for a month not over). */
const refusal = (action: AuditAction, month: string) => (status: number, message: string, reason: string) =>
  new AuditedRefusal(status, message, {
    action,
    outcome: 'failure',
    resourceType: 'billing',
    resourceId: month,
    reason,
  });

/** POST /api/billing/{month}/close: the month is submitted; its tracking time is frozen. */
export async function closeBillingMonth(deps: Deps, ctx: SignedInContext, month: string): Promise<BillingClosing> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const action = 'billing.close';
    authorize(mayCloseBillingMonth(ctx.actor), {
      action,
      resourceType: 'billing',
      resourceId: month,
      reason: 'not an admin',
    });
    const refuse = refusal(action, month);
    const { start, end } = monthBounds(month);
    // Each organization's today differs by hours at most; UTC's is the one every month ends by.
    if (end >= new Date().toISOString().slice(0, 10)) throw refuse(400, BillingErrors.futureMonth, 'month not over');
    const closedAt = await insertClosedMonth(tx, start, ctx.actor.id);
    if (!closedAt) throw refuse(409, BillingErrors.alreadyClosed, 'already closed');
    const snapshot = await snapshotOf(tx, month);
    await insertMonthSnapshot(tx, start, snapshot);
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'billing',
      resourceId: month,
      details: { patients: snapshot.filter((r) => r.enrolled).length },
    });
    return { month, closed: true, closed_at: closedAt.toISOString() };
  });
}

/**
 * POST /api/billing/{month}/reopen: the close and its snapshot are taken back (the database keeps
 * the reopening with who, when and why), so readings and tracking time of the month are accepted
 * again and closing it again takes a fresh snapshot. Refused once the claims were sent.
 */
export async function reopenBillingMonth(
  deps: Deps,
  ctx: SignedInContext,
  month: string,
  body: BillingReopenBody,
): Promise<BillingReopening> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const action = 'billing.reopen';
    authorize(mayReopenBillingMonth(ctx.actor), {
      action,
      resourceType: 'billing',
      resourceId: month,
      reason: 'not an admin',
    });
    const refuse = refusal(action, month);
    const { outcome, at } = await reopenMonth(tx, monthBounds(month).start, ctx.actor.id, body.reason);
    if (outcome === 'not_closed') throw refuse(409, BillingErrors.notClosed, 'month not closed');
    if (outcome === 'claims_sent') throw refuse(409, BillingErrors.claimsSent, 'claims already sent');
    await audit(tx, ctx, {
      action,
      outcome: 'success',
      resourceType: 'billing',
      resourceId: month,
      // The reason is kept in the database; free text may name a patient, so the trail keeps its length.
      details: { reason_length: body.reason.length },
    });
    return { month, closed: false, reopened_at: new Date(at).toISOString() };
  });
}

/** POST /api/billing/{month}/claims-sent: the closed month's claims went out; it can no longer be reopened. */
export async function markBillingClaimsSent(
  deps: Deps,
  ctx: SignedInContext,
  month: string,
): Promise<BillingClaimsSent> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const action = 'billing.claims_sent';
    authorize(mayMarkClaimsSent(ctx.actor), {
      action,
      resourceType: 'billing',
      resourceId: month,
      reason: 'not an admin',
    });
    const refuse = refusal(action, month);
    const { outcome, at } = await markClaimsSent(tx, monthBounds(month).start, ctx.actor.id);
    if (outcome === 'not_closed') throw refuse(409, BillingErrors.notClosed, 'month not closed');
    if (outcome === 'already_sent') throw refuse(409, BillingErrors.claimsAlreadySent, 'claims already sent');
    await audit(tx, ctx, { action, outcome: 'success', resourceType: 'billing', resourceId: month });
    return { month, claims_sent_at: new Date(at).toISOString() };
  });
}

/**
 * Every patient's month as it stands at closing, computed set-based (one query per part, not per
 * patient): the report's line, the CSV's claim fields and the evidence of the patient's page,
 * with who the claim is for (date of birth, insurances, devices, ordering provider, consent,
 * diagnoses) as it was.
 */
async function snapshotOf(tx: Queryable, month: string): Promise<MonthSnapshotRow[]> {
  const { start, end } = monthBounds(month);
  const inputs = await billingInputs(tx, {
    monthStart: start,
    monthEnd: end,
    organizationId: null,
    everyPatient: true,
  });
  const ids = inputs.map((i) => i.patient_id);
  const claims = new Map((await billingPatientDetails(tx, ids)).map((d) => [d.patient_id, d]));
  const patients = new Map((await evidencePatients(tx, start, end, null)).map((p) => [p.patient_id, p]));
  const days = groupByPatient(await readingDays(tx, start, end, null));
  const entries = groupByPatient(await monthTimeEntries(tx, start, end, null));
  return inputs.map((input, position) => {
    const patient = patients.get(input.patient_id);
    return {
      patient_id: input.patient_id,
      organization_id: input.organization_id,
      enrolled: input.enrolled,
      position,
      line: billRow(month, input),
      claim: claims.get(input.patient_id) ?? emptyClaim(input),
      evidence: {
        time_zone: input.time_zone,
        ...(patient ? { patient: presentEvidencePatient(patient) } : {}),
        reading_days: (days.get(input.patient_id) ?? []).map(({ day, readings }) => ({ day, readings })),
        entries: (entries.get(input.patient_id) ?? []).map(presentTimeEntry),
      },
    };
  });
}

const emptyClaim = (input: BillingInputRow): BillingPatientDetails => ({
  patient_id: input.patient_id,
  date_of_birth: null,
  insurance_type: null,
  policy_number: null,
  primary_provider: null,
  organization: '',
});

function groupByPatient<T extends { patient_id: number }>(rows: T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const group = groups.get(row.patient_id);
    if (group) group.push(row);
    else groups.set(row.patient_id, [row]);
  }
  return groups;
}
