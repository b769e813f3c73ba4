import { AlertErrors, TRACKING_MAX_MINUTES } from '@rpm/contracts';
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../policies/actor.ts';
import { auditsOf, refusalOf } from '../../../test/support/audit.ts';
import { buildOrganization, buildPatient, buildStaff, contextOf } from '../../../test/support/factories.ts';
import { serviceDatabase } from '../../../test/support/service-database.ts';
import { listNotes } from '../notes/notes.service.ts';
import { addTrackingEntry, listTrackingEntries, trackingToday } from '../tracking/tracking.service.ts';
import { addManualVital } from '../vitals/vitals.service.ts';
import { resolve } from './alerts.service.ts';
import { listAlerts } from './alerts.worklist.service.ts';

const db = serviceDatabase();
let deps: { db: pg.Pool };
let provider: Actor;
let org: number;

beforeAll(async () => {
  deps = { db: db.pool };
  org = (await buildOrganization(db.pool)).id;
  provider = await buildStaff(db.pool, 'provider', { organizationId: org });
});

/** A patient with one open alert, raised by a severe manual reading. */
async function patientWithAlert() {
  const patientId = await buildPatient(db.pool, { organizationId: org, enrolledRpm: true, enrollmentStatus: 'Active' });
  const ctx = contextOf(provider);
  await addManualVital(deps, ctx, patientId, { measured_at: new Date().toISOString(), systolic: 185, diastolic: 125 });
  const [alert] = (await listAlerts(deps, ctx, { patient_id: patientId })).items;
  expect(alert).toBeDefined();
  return { patientId, alertId: alert!.id };
}

describe('resolving an alert writes through the notes and tracking services', () => {
  it('refuses minutes that would pass a full day like any tracking entry, and keeps nothing of the resolve', async () => {
    const { patientId, alertId } = await patientWithAlert();
    const today = await trackingToday(db.pool, patientId);
    await addTrackingEntry(deps, contextOf(provider), patientId, {
      date: today,
      duration_minutes: TRACKING_MAX_MINUTES - 5,
    });
    const r = await refusalOf(db.pool, provider, (ctx) =>
      resolve(deps, ctx, alertId, { reason: 'reached_patient', note: 'Called.', minutes: 10 }),
    );
    expect(r).toMatchObject({ status: 400, message: AlertErrors.minutesDayFull });
    expect(r.audits).toEqual([
      expect.objectContaining({ action: 'alert.resolve', outcome: 'failure', reason: 'over 1440 minutes in a day' }),
    ]);
    const ctx = contextOf(provider);
    expect((await listAlerts(deps, ctx, { patient_id: patientId })).items.map((a) => a.id)).toEqual([alertId]);
    expect((await listNotes(deps, ctx, patientId, 10, 0)).total).toBe(0);
    expect((await listTrackingEntries(deps, ctx, patientId, 10, 0)).total).toBe(1);
  });

  it('stores the note and the minutes (review work, not a live contact) with the alert named in their records', async () => {
    const { patientId, alertId } = await patientWithAlert();
    const ctx = contextOf(provider);
    const resolving = contextOf(provider);
    expect(
      await resolve(deps, resolving, alertId, { reason: 'reached_patient', note: 'Called.', minutes: 5 }),
    ).toMatchObject({
      status: 'resolved',
    });
    expect((await listNotes(deps, ctx, patientId, 10, 0)).items.map((n) => n.content)).toEqual(['Called.']);
    const entries = (await listTrackingEntries(deps, ctx, patientId, 10, 0)).items;
    expect(entries).toEqual([expect.objectContaining({ duration_minutes: 5, notes: 'Called.', interactive: false })]);
    const rows = (await auditsOf(db.pool, resolving)).filter((a) => a.action !== 'alert.resolve');
    expect(rows.map((r) => [r.action, (r.details as { alert_id?: number }).alert_id])).toEqual([
      ['note.create', alertId],
      ['tracking.create', alertId],
    ]);
  });

  it('logs minutes that included a live contact as an interactive entry of that contact type', async () => {
    const { patientId, alertId } = await patientWithAlert();
    const ctx = contextOf(provider);
    await resolve(deps, ctx, alertId, {
      reason: 'reached_patient',
      note: 'Called back.',
      minutes: 12,
      contact_type: 'phone',
    });
    expect((await listTrackingEntries(deps, ctx, patientId, 10, 0)).items).toEqual([
      expect.objectContaining({
        duration_minutes: 12,
        interactive: true,
        contact_type: 'phone',
        activity: 'review_readings',
      }),
    ]);
  });
});
