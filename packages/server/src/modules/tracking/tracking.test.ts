import { TrackingErrors, type TrackingEntry, type TrackingEntryPage } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient, startPatientFixture, type TestServer } from '../../../test/support/http.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';
import { buildPatient, buildTrackingEntry } from '../../../test/support/factories.ts';

let server: TestServer;
let provider: ApiClient;
let organizationId: number;
let patientId: number;
let otherPatientId: number;

beforeAll(async () => {
  ({ server, provider, organizationId, patientId, otherPatientId } = await startPatientFixture('T'));
});
afterAll(async () => server?.close());

const lastAudit = (action: string) => lastAuditOf(server, action);

describe('tracking time', () => {
  it('adds entries, lists them newest day first, and audits both', async () => {
    const a = await provider.post<TrackingEntry>(`/api/patients/${patientId}/sessions`, {
      date: '2026-03-01',
      duration_minutes: 1,
      notes: '',
    });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ date: '2026-03-01', duration_minutes: 1, notes: null });
    expect(await lastAudit('tracking.create')).toMatchObject({
      outcome: 'success',
      resource_type: 'tracking_session',
      resource_id: String(a.body.id),
    });
    await provider.post(`/api/patients/${patientId}/sessions`, {
      date: '2026-03-05',
      duration_minutes: 1440,
      notes: 'Call',
    });
    const list = await provider.get<TrackingEntryPage>(`/api/patients/${patientId}/sessions`);
    expect(list.body.total).toBe(2);
    expect(list.body.items.map((s) => s.date)).toEqual(['2026-03-05', '2026-03-01']);
    expect(await lastAudit('tracking.list')).toMatchObject({ outcome: 'success', resource_id: String(patientId) });
  });

  it('answers the minutes of each of the last three months with entries, whatever page is shown', async () => {
    const id = await buildPatient(server.db.pool, { firstName: 'Month', lastName: 'Totals', organizationId });
    for (const [date, minutes] of [
      ['2026-01-31', 5],
      ['2026-02-01', 20],
      ['2026-02-28', 25],
      ['2026-04-01', 0],
      ['2026-05-10', 30],
      ['2026-05-31', 12],
    ] as const) {
      await buildTrackingEntry(server.db.pool, { patientId: id, date, durationMinutes: minutes });
    }
    const page = await provider.get<TrackingEntryPage>(`/api/patients/${id}/sessions?limit=1&offset=5`);
    expect(page.body.items.map((s) => s.date)).toEqual(['2026-01-31']);
    expect(page.body.month_totals).toEqual([
      { month: '2026-05', minutes: 42 },
      { month: '2026-04', minutes: 0 },
      { month: '2026-02', minutes: 45 },
    ]);
  });

  it.each([
    ['minutes above 1440', { date: '2026-03-01', duration_minutes: 1441 }],
    ['negative minutes', { date: '2026-03-01', duration_minutes: -1 }],
    ['zero minutes', { date: '2026-03-01', duration_minutes: 0 }],
    ['no minutes', { date: '2026-03-01' }],
    ['minutes as text', { date: '2026-03-01', duration_minutes: '5' }],
    ['fractional minutes', { date: '2026-03-01', duration_minutes: 1.5 }],
    ['a bad date', { date: '01/03/2026' }],
    ['no date', { duration_minutes: 5 }],
    ['an unknown field', { date: '2026-03-01', user_id: 3 }],
  ])('refuses %s with 400', async (_l, body) => {
    expect((await provider.post(`/api/patients/${patientId}/sessions`, body)).status).toBe(400);
  });

  it("answers 404 for another organization's patient and 401 without a session", async () => {
    expect(
      (await provider.post(`/api/patients/${otherPatientId}/sessions`, { date: '2026-03-01', duration_minutes: 5 }))
        .status,
    ).toBe(404);
    expect(await lastAudit('tracking.create')).toMatchObject({ outcome: 'denied' });
    expect((await provider.get(`/api/patients/${otherPatientId}/sessions`)).status).toBe(404);
    expect((await apiClient(server).get(`/api/patients/${patientId}/sessions`)).status).toBe(401);
    const { rows } = await server.db.pool.query(
      'SELECT count(*)::int AS n FROM tracking_entries WHERE patient_id = $1',
      [otherPatientId],
    );
    expect(rows[0].n).toBe(0);
  });

  describe('what the timer measured and the live contact', () => {
    const post = (body: Record<string, unknown>) =>
      provider.post<TrackingEntry & { message: string }>(`/api/patients/${patientId}/sessions`, body);
    const entriesOn = async (date: string) =>
      (
        await server.db.pool.query(
          'SELECT count(*)::int AS n FROM tracking_entries WHERE patient_id = $1 AND date = $2',
          [patientId, date],
        )
      ).rows[0].n as number;

    it('makes an entry with a contact type interactive, and keeps the activity and the measured minutes', async () => {
      const res = await post({
        date: '2026-04-02',
        duration_minutes: 14,
        contact_type: 'video',
        activity: 'video_visit',
        measured_minutes: 16,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        interactive: true,
        contact_type: 'video',
        activity: 'video_visit',
        measured_minutes: 16,
        adjustment_reason: null,
      });
      expect(await lastAudit('tracking.create')).toMatchObject({
        outcome: 'success',
        details: expect.objectContaining({
          interactive: true,
          contact_type: 'video',
          measured_minutes: 16,
          adjusted: false,
        }),
      });
      const list = await provider.get<TrackingEntryPage>(`/api/patients/${patientId}/sessions`);
      expect(list.body.items.find((i) => i.id === res.body.id)).toEqual(res.body);
    });

    it('refuses a contact type on an entry marked not interactive, and saves nothing', async () => {
      const res = await post({ date: '2026-04-03', duration_minutes: 5, contact_type: 'phone', interactive: false });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(TrackingErrors.contactNotInteractive);
      expect(await lastAudit('tracking.create')).toMatchObject({ outcome: 'failure' });
      expect(await entriesOn('2026-04-03')).toBe(0);
    });

    it.each([
      ['no reason', {}],
      ['a blank reason', { adjustment_reason: '   ' }],
      ['a null reason', { adjustment_reason: null }],
    ])('refuses more minutes than measured with %s, and saves nothing', async (_l, reason) => {
      const res = await post({ date: '2026-04-04', duration_minutes: 21, measured_minutes: 20, ...reason });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(TrackingErrors.adjustmentReasonRequired);
      expect(await entriesOn('2026-04-04')).toBe(0);
    });

    it('keeps the reason for more minutes than measured; fewer, or as many, need none', async () => {
      const raised = await post({
        date: '2026-04-05',
        duration_minutes: 25,
        measured_minutes: 20,
        adjustment_reason: 'Call continued after the page was closed',
      });
      expect(raised.status).toBe(201);
      expect(raised.body).toMatchObject({
        duration_minutes: 25,
        measured_minutes: 20,
        adjustment_reason: 'Call continued after the page was closed',
      });
      expect((await lastAudit('tracking.create')).details).toMatchObject({ adjusted: true });
      // The reason's words stay out of the audit trail.
      expect(JSON.stringify((await lastAudit('tracking.create')).details)).not.toContain('Call continued');
      expect((await post({ date: '2026-04-05', duration_minutes: 15, measured_minutes: 20 })).status).toBe(201);
      expect((await post({ date: '2026-04-05', duration_minutes: 20, measured_minutes: 20 })).status).toBe(201);
    });

    it.each([
      ['an unknown contact type', { contact_type: 'email' }],
      ['an unknown activity', { activity: 'coffee' }],
      ['negative measured minutes', { measured_minutes: -1 }],
    ])('refuses %s with 400', async (_l, extra) => {
      expect((await post({ date: '2026-04-06', duration_minutes: 5, ...extra })).status).toBe(400);
    });
  });
});
