import {
  BillingErrors,
  EARLIEST_DATE,
  PatientErrors,
  TRACKING_MAX_MINUTES,
  TrackingErrors,
  type ContactType,
  type TrackingActivity,
  latestToday,
  type TrackingEntry,
  type TrackingEntryInput,
  type TrackingEntryPage,
} from '@rpm/contracts';
import type pg from 'pg';
import type { Queryable } from '../../db/pool.ts';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { requirePatientAccess } from '../../kernel/access.ts';
import { auditedTransaction, failure } from '../../kernel/audited-transaction.ts';
import { auditedPatientRead } from '../../kernel/paged-list.ts';
import { presentTrackingEntry } from './tracking.presenter.ts';
import { isBillingMonthClosed } from '../billing/index.ts';
import {
  countTrackingEntries,
  insertTrackingEntry,
  lockedMinutesOnDay,
  monthTotals,
  organizationToday,
  pageTrackingEntries,
} from './tracking.repository.ts';

/**
 * Why `minutes` cannot be added for the patient on `date`, or null: the day's month is closed for
 * billing, or the day would exceed 24 hours. Locks the patient's row, so concurrent entries are
 * counted one after the other. Every writer of tracking time asks this (the entry form, resolving
 * an alert); the database refuses a closed month anyway (migration 0954).
 */
export type TrackingRefusal = 'month closed' | 'day full';

export async function trackingDayRefusal(
  tx: Queryable,
  patientId: number,
  date: string,
  minutes: number,
): Promise<TrackingRefusal | null> {
  if (await isBillingMonthClosed(tx, date)) return 'month closed';
  const already = await lockedMinutesOnDay(tx, patientId, date);
  return already + minutes > TRACKING_MAX_MINUTES ? 'day full' : null;
}

/** One page of a patient's tracking entries, with the total and the minutes of recent months. */
export async function listTrackingEntries(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
  limit: number,
  offset: number,
): Promise<TrackingEntryPage> {
  return auditedPatientRead(
    deps.db,
    ctx,
    patientId,
    'tracking.list',
    async (tx) => ({
      items: (await pageTrackingEntries(tx, patientId, limit, offset)).map(presentTrackingEntry),
      total: await countTrackingEntries(tx, patientId),
      month_totals: await monthTotals(tx, patientId),
    }),
    ({ items }) => ({ limit, offset, count: items.length }),
  );
}

/**
 * Records minutes spent on a patient: a real day (1900 to today), at most a full day in all. A
 * contact type makes the entry interactive (and contradicts interactive: false); more minutes than
 * the timer measured need a reason, which is kept with the entry.
 */
export async function addTrackingEntry(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
  input: TrackingEntryInput,
): Promise<TrackingEntry> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const action = 'tracking.create';
    await requirePatientAccess(tx, ctx, patientId, action);
    const refuse = (message: string, reason: string, status = 400) =>
      failure(status, message, { action, resourceType: 'patient', resourceId: patientId, reason });
    if (input.date < EARLIEST_DATE) throw refuse(PatientErrors.trackingDateTooOld, 'tracking date before 1900');
    if (input.date > latestToday()) throw refuse(PatientErrors.trackingDateInFuture, 'tracking date in the future');
    const contactType = input.contact_type ?? null;
    if (contactType !== null && input.interactive === false) {
      throw refuse(TrackingErrors.contactNotInteractive, 'contact type on a non-interactive entry');
    }
    const measured = input.measured_minutes ?? null;
    const adjustmentReason = input.adjustment_reason?.trim() ? input.adjustment_reason : null;
    if (measured !== null && input.duration_minutes > measured && adjustmentReason === null) {
      throw refuse(TrackingErrors.adjustmentReasonRequired, 'more minutes than measured without a reason');
    }
    const notes = input.notes?.trim() ? input.notes : null;
    return recordTrackingTime(
      tx,
      ctx,
      patientId,
      {
        date: input.date,
        duration_minutes: input.duration_minutes,
        notes,
        interactive: contactType !== null || (input.interactive ?? false),
        activity: input.activity ?? null,
        contact_type: contactType,
        measured_minutes: measured,
        adjustment_reason: adjustmentReason,
      },
      (why) =>
        why === 'month closed'
          ? refuse(BillingErrors.monthClosed, 'month closed for billing', 409)
          : refuse(PatientErrors.trackingDayFull, 'over 1440 minutes in a day'),
    );
  });
}

/** Today in the patient's organization's time zone ('YYYY-MM-DD'): the day minutes logged now count for. */
export async function trackingToday(tx: Queryable, patientId: number): Promise<string> {
  return organizationToday(tx, patientId);
}

/** Minutes to record; what a caller leaves out of the timer's fields is stored as null. */
export interface TrackingTime {
  date: string;
  duration_minutes: number;
  notes: string | null;
  interactive: boolean;
  activity?: TrackingActivity | null;
  /** Only with interactive true (the table refuses it otherwise). */
  contact_type?: ContactType | null;
  measured_minutes?: number | null;
  adjustment_reason?: string | null;
}

/**
 * Records tracking time in the caller's transaction, with its audit record: the one way any
 * module adds minutes (the entry form, resolving an alert), so a closed billing month or a full
 * day is refused whichever path asks. `refuse` makes the caller's answer to a refusal (its
 * message and audit record); `details` adds to the audit record. The caller has checked access
 * to the patient.
 */
export async function recordTrackingTime(
  tx: Queryable,
  ctx: SignedInContext,
  patientId: number,
  time: TrackingTime,
  refuse: (why: TrackingRefusal) => Error,
  details: Record<string, unknown> = {},
): Promise<TrackingEntry> {
  const refusal = await trackingDayRefusal(tx, patientId, time.date, time.duration_minutes);
  if (refusal) throw refuse(refusal);
  const entry = {
    ...time,
    activity: time.activity ?? null,
    contact_type: time.contact_type ?? null,
    measured_minutes: time.measured_minutes ?? null,
    adjustment_reason: time.adjustment_reason ?? null,
  };
  const saved = presentTrackingEntry(await insertTrackingEntry(tx, patientId, ctx.actor.id, entry));
  await audit(tx, ctx, {
    action: 'tracking.create',
    outcome: 'success',
    // The audit log's name for the table's rows, kept so older records and newer ones match.
    resourceType: 'tracking_session',
    resourceId: saved.id,
    details: {
      patient_id: patientId,
      date: saved.date,
      duration_minutes: saved.duration_minutes,
      interactive: saved.interactive,
      contact_type: saved.contact_type,
      activity: saved.activity,
      measured_minutes: saved.measured_minutes,
      // Whether a reason was given, not its words: free text may name the patient's health.
      adjusted: saved.adjustment_reason !== null,
      ...details,
    },
  });
  return saved;
}
