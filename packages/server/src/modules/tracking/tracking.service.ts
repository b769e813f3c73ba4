import {
  BillingErrors,
  EARLIEST_DATE,
  PatientErrors,
  TRACKING_MAX_MINUTES,
  latestToday,
  type TrackingSession as TrackingEntry,
  type TrackingSessionInput as TrackingEntryInput,
  type TrackingSessionPage as TrackingEntryPage,
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

/** Records minutes spent on a patient: a real day (1900 to today), at most a full day in all. */
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
    const notes = input.notes?.trim() ? input.notes : null;
    return recordTrackingTime(
      tx,
      ctx,
      patientId,
      { date: input.date, duration_minutes: input.duration_minutes, notes, interactive: input.interactive ?? false },
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
  entry: { date: string; duration_minutes: number; notes: string | null; interactive: boolean },
  refuse: (why: TrackingRefusal) => Error,
  details: Record<string, unknown> = {},
): Promise<TrackingEntry> {
  const refusal = await trackingDayRefusal(tx, patientId, entry.date, entry.duration_minutes);
  if (refusal) throw refuse(refusal);
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
      ...details,
    },
  });
  return saved;
}
