import { PatientErrors, TRACKING_MAX_MINUTES } from '@rpm/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../policies/actor.ts';
import { refusalOf } from '../../../test/support/audit.ts';
import { buildOrganization, buildPatient, buildStaff, contextOf } from '../../../test/support/factories.ts';
import { serviceDatabase } from '../../../test/support/service-database.ts';
import { addTrackingEntry, listTrackingEntries } from './tracking.service.ts';

const db = serviceDatabase();
let provider: Actor;
let org: number;

beforeAll(async () => {
  org = (await buildOrganization(db.pool)).id;
  provider = await buildStaff(db.pool, 'provider', { organizationId: org });
});

const add = (patientId: number, date: string, minutes: number, notes?: string) =>
  addTrackingEntry({ db: db.pool }, contextOf(provider), patientId, { date, duration_minutes: minutes, notes });

describe('tracking entries', () => {
  it('allows at most a full day of minutes per patient and day', async () => {
    const patientId = await buildPatient(db.pool, { organizationId: org });
    await add(patientId, '2024-03-01', TRACKING_MAX_MINUTES - 10);
    await add(patientId, '2024-03-02', 30);
    const r = await refusalOf(db.pool, provider, (ctx) =>
      addTrackingEntry({ db: db.pool }, ctx, patientId, { date: '2024-03-01', duration_minutes: 11 }),
    );
    expect(r).toMatchObject({ status: 400, message: PatientErrors.trackingDayFull });
    expect(r.audits).toEqual([expect.objectContaining({ outcome: 'failure', reason: 'over 1440 minutes in a day' })]);
    expect(await add(patientId, '2024-03-01', 10)).toMatchObject({ date: '2024-03-01', duration_minutes: 10 });
  });

  it('refuses days before 1900 or after today', async () => {
    const patientId = await buildPatient(db.pool, { organizationId: org });
    const refused = async (date: string) =>
      (await refusalOf(db.pool, provider, (ctx) => addTrackingEntry({ db: db.pool }, ctx, patientId, { date, duration_minutes: 5 }))).message;
    expect(await refused('1899-12-31')).toBe(PatientErrors.trackingDateTooOld);
    expect(await refused('2999-01-01')).toBe(PatientErrors.trackingDateInFuture);
  });

  it('stores blank notes as null and totals the minutes of each month, newest first', async () => {
    const patientId = await buildPatient(db.pool, { organizationId: org });
    expect((await add(patientId, '2024-01-31', 15, '   ')).notes).toBeNull();
    await add(patientId, '2024-01-02', 5, 'call');
    await add(patientId, '2024-02-10', 20);
    const page = await listTrackingEntries({ db: db.pool }, contextOf(provider), patientId, 2, 0);
    expect(page.total).toBe(3);
    expect(page.items.map((e) => e.date)).toEqual(['2024-02-10', '2024-01-31']);
    expect(page.month_totals).toEqual([
      { month: '2024-02', minutes: 20 },
      { month: '2024-01', minutes: 20 },
    ]);
  });
});
