import {
  EARLIEST_DATE,
  PatientErrors,
  TRACKING_MAX_MINUTES,
  latestToday,
  type TrackingSession,
  type TrackingSessionInput,
  type TrackingSessionPage,
} from '@rpm/contracts';
import type pg from 'pg';
import type { SignedInContext } from '../../plugins/context.ts';
import { audit } from '../audit/audit.service.ts';
import { AuditedRefusal, auditedTransaction, requirePatientAccess } from '../patients/patient-access.ts';
import { auditedPatientRead } from '../patients/paged-list.ts';
import { countTracking, insertTracking, lockedMinutesOnDay, monthTotals, pageTracking } from './tracking.repository.ts';

export async function listTracking(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
  limit: number,
  offset: number,
): Promise<TrackingSessionPage> {
  return auditedPatientRead(
    deps.db,
    ctx,
    patientId,
    'tracking.list',
    async (tx) => ({
      items: await pageTracking(tx, patientId, limit, offset),
      total: await countTracking(tx, patientId),
      month_totals: await monthTotals(tx, patientId),
    }),
    ({ items }) => ({ limit, offset, count: items.length }),
  );
}

export async function addTracking(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  patientId: number,
  input: TrackingSessionInput,
): Promise<TrackingSession> {
  return auditedTransaction(deps.db, ctx, async (tx) => {
    const action = 'tracking.create';
    await requirePatientAccess(tx, ctx, patientId, action);
    const refuse = (message: string, reason: string) =>
      new AuditedRefusal(400, message, { action, outcome: 'failure', resourceType: 'patient', resourceId: patientId, reason });
    if (input.date < EARLIEST_DATE) throw refuse(PatientErrors.trackingDateTooOld, 'tracking date before 1900');
    if (input.date > latestToday()) throw refuse(PatientErrors.trackingDateInFuture, 'tracking date in the future');
    const already = await lockedMinutesOnDay(tx, patientId, input.date);
    if (already + input.duration_minutes > TRACKING_MAX_MINUTES) {
      throw refuse(PatientErrors.trackingDayFull, 'over 1440 minutes in a day');
    }
    const notes = input.notes?.trim() ? input.notes : null;
    const session = await insertTracking(tx, patientId, ctx.actor.id, {
      date: input.date,
      duration_minutes: input.duration_minutes,
      notes,
    });
    await audit(tx, ctx, {
      action: 'tracking.create',
      outcome: 'success',
      resourceType: 'tracking_session',
      resourceId: session.id,
      details: { patient_id: patientId, date: session.date, duration_minutes: session.duration_minutes },
    });
    return session;
  });
}
