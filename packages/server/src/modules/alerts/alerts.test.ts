import {
  AlertErrors,
  AlertTexts,
  BillingErrors,
  type Alert,
  type AlertPage,
  type AlertSettings,
  type AlertSummary,
  type PatientThresholds,
  type WorklistPage,
  ALERT_SNOOZE_MAX_HOURS,
} from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrganization,
  createStaff,
  signIn,
  signInNewStaff,
  startTestServer,
  type ApiClient,
  type TestServer,
} from '../../../test/support/http.ts';
import { lastAuditOf } from '../../../test/support/audit.ts';
import { checkStaleData } from './alerts.stale.ts';
import {
  buildAlert,
  buildPatient,
  closeMonth,
  type Moment,
  reopenMonth,
  setOrganizationTimeZone,
} from '../../../test/support/factories.ts';

let server: TestServer;
let provider: ApiClient;
let providerEmail: string;
let otherProvider: ApiClient;
let admin: ApiClient;
let orgId: number;
let otherOrgId: number;

beforeAll(async () => {
  server = await startTestServer();
  orgId = (await createOrganization(server)).id;
  otherOrgId = (await createOrganization(server)).id;
  const staff = await createStaff(server, { role: 'provider', organizationId: orgId });
  providerEmail = staff.email;
  provider = await signIn(server, staff);
  otherProvider = await signInNewStaff(server, 'provider', otherOrgId);
  admin = await signInNewStaff(server, 'admin', null);
}, 120_000);
afterAll(async () => server?.close());

let seq = 0;
async function newPatient(organizationId = orgId, enrolled = true, createdAt?: Moment): Promise<number> {
  const staffId = (await server.db.pool.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [providerEmail]))
    .rows[0]!.id;
  return buildPatient(server.db.pool, {
    firstName: `P${++seq}`,
    lastName: 'Alertson',
    organizationId,
    primaryProviderId: organizationId === orgId ? staffId : null,
    enrolledRpm: enrolled,
    // Enrolled means actively enrolled here: the worklist shows only those.
    enrollmentStatus: enrolled ? 'Active' : null,
    createdAt,
  });
}

let minute = 0;
async function addReading(
  patientId: number,
  systolic: number,
  diastolic: number,
  pulse: number | null = 70,
  as = provider,
) {
  const measured_at = new Date(Date.now() - 60_000 * (1000 - ++minute)).toISOString();
  const res = await as.post(`/api/patients/${patientId}/vitals`, { measured_at, systolic, diastolic, pulse });
  expect(res.status).toBe(201);
  return measured_at;
}

async function alertsOf(patientId: number, as = provider, status = 'open'): Promise<Alert[]> {
  const res = await as.get<AlertPage>(`/api/alerts?status=${status}&patient_id=${patientId}&limit=100`);
  expect(res.status).toBe(200);
  return res.body.items;
}

describe('evaluation of stored readings', () => {
  // One reading raises only a crisis (above 180 or 120); stage 2 is the mean of a week of readings
  // (the engine's own tests cover the windows), so one reading at 180/80 or 140/90 raises nothing.
  it.each([
    [180, 80, 70, null],
    [181, 80, 70, 'bp_crisis'],
    [130, 120, 70, null],
    [130, 121, 70, 'bp_crisis'],
    [140, 90, 70, null],
  ])('a manual reading of %i/%i pulse %i raises %s', async (sys, dia, pulse, rule) => {
    const patientId = await newPatient();
    await addReading(patientId, sys, dia, pulse);
    const alerts = await alertsOf(patientId);
    expect(alerts.map((a) => a.rule)).toEqual(rule ? [rule] : []);
    if (rule === 'bp_crisis') expect(alerts[0]!.severity).toBe('critical');
  });

  it('counts repeated readings that break one rule on one alert, with the latest values', async () => {
    const patientId = await newPatient();
    await addReading(patientId, 185, 125);
    await addReading(patientId, 190, 122);
    const last = await addReading(patientId, 195, 126, 88);
    const alerts = await alertsOf(patientId);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      rule: 'bp_crisis',
      count: 3,
      last_values: { systolic: 195, diastolic: 126, pulse: 88 },
    });
    expect(alerts[0]!.last_at).toBe(last);
    const { rows } = await server.db.pool.query(
      'SELECT count(*)::int AS n FROM alert_readings ar JOIN alerts a ON a.id = ar.alert_id WHERE a.patient_id = $1',
      [patientId],
    );
    expect(rows[0].n).toBe(3);
  });

  it('sets a patient’s own thresholds over the defaults, audited, and queues their re-evaluation', async () => {
    const patientId = await newPatient();
    const current = await provider.get<PatientThresholds>(`/api/patients/${patientId}/thresholds`);
    expect(current.status).toBe(200);
    const blank = Object.fromEntries(Object.keys(current.body.overrides).map((k) => [k, null]));
    const put = await provider.put<PatientThresholds>(`/api/patients/${patientId}/thresholds`, {
      ...blank,
      stage2_systolic: 130,
      stage2_diastolic: 80,
      target_systolic: 125,
    });
    expect(put.status).toBe(200);
    expect(put.body.effective).toMatchObject({ stage2_systolic: 130, stage2_diastolic: 80, crisis_systolic: 180 });
    const audit = await lastAuditOf(server, 'alert.thresholds.update');
    expect(audit).toMatchObject({ outcome: 'success', resource_type: 'patient', resource_id: String(patientId) });
    const { rows } = await server.db.pool.query(
      `SELECT 1 FROM pgboss.job WHERE name = 'alerts-reevaluate' AND data->'patient_ids' = $1::jsonb`,
      [JSON.stringify([patientId])],
    );
    expect(rows).toHaveLength(1);
    // An organization-only key is not a patient's.
    expect(
      (await provider.put(`/api/patients/${patientId}/thresholds`, { ...blank, spo2_target_copd: 88 })).status,
    ).toBe(400);
  });

  it('lets admins change an organization’s defaults (audited), and not providers', async () => {
    const org = (await createOrganization(server)).id;
    const current = await admin.get<AlertSettings>(`/api/organizations/${org}/alert-settings`);
    expect(current.status).toBe(200);
    expect(current.body.overrides.escalation_contact_ids).toEqual([]);
    const body = { ...current.body.overrides, stage2_systolic: 140, stale_days: 5, escalation_minutes: 20 };
    expect((await provider.put(`/api/organizations/${org}/alert-settings`, body)).status).toBe(403);
    const res = await admin.put<AlertSettings>(`/api/organizations/${org}/alert-settings`, body);
    expect(res.status).toBe(200);
    expect(res.body.effective).toMatchObject({
      stage2_systolic: 140,
      stale_days: 5,
      crisis_systolic: 180,
      escalation_minutes: 20,
      bp_window_days: 7,
    });
    expect(await lastAuditOf(server, 'alert.settings.update')).toMatchObject({
      outcome: 'success',
      resource_id: String(org),
    });
    // A contact of another organization is refused.
    const staffId = (
      await server.db.pool.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [providerEmail])
    ).rows[0]!.id;
    const refused = await admin.put(`/api/organizations/${org}/alert-settings`, {
      ...body,
      escalation_contact_ids: [staffId],
    });
    expect(refused.status).toBe(400);
    expect((await provider.get(`/api/organizations/${org}/alert-settings`)).status).toBe(404);
    expect((await provider.get(`/api/organizations/${orgId}/alert-settings`)).status).toBe(200);
  });
});

describe('the worklist', () => {
  it('lists critical first, then oldest, and a provider of another organization never sees or acts on it (404, audited)', async () => {
    const a = await newPatient();
    const b = await newPatient();
    // A warning set up directly (stage 2 needs a week of readings), a crisis from one reading.
    await buildAlert(server.db.pool, { patientId: a, organizationId: orgId });
    await addReading(b, 190, 100);
    const list = await provider.get<AlertPage>('/api/alerts?status=open&limit=100');
    expect(list.status).toBe(200);
    const mine = list.body.items.filter((i) => i.patient_id === a || i.patient_id === b);
    expect(mine.map((i) => i.severity)).toEqual(['critical', 'warning']);
    const severities = list.body.items.map((i) => i.severity);
    expect(severities.indexOf('warning')).toBeGreaterThan(severities.lastIndexOf('critical'));
    expect(await lastAuditOf(server, 'alert.list')).toMatchObject({ outcome: 'success', resource_type: 'alert' });

    const alertId = mine[0]!.id;
    const other = await otherProvider.get<AlertPage>('/api/alerts?status=open&limit=100');
    expect(other.body.items.map((i) => i.id)).not.toContain(alertId);
    expect((await otherProvider.post(`/api/alerts/${alertId}/acknowledge`)).status).toBe(404);
    expect(await lastAuditOf(server, 'alert.acknowledge')).toMatchObject({
      outcome: 'denied',
      resource_id: String(alertId),
    });
    expect(
      (await otherProvider.post(`/api/alerts/${alertId}/resolve`, { reason: 'reached_patient', note: 'x' })).status,
    ).toBe(404);
    expect(await lastAuditOf(server, 'alert.resolve')).toMatchObject({ outcome: 'denied' });
    expect((await otherProvider.get(`/api/patients/${b}/thresholds`)).status).toBe(404);
    expect((await otherProvider.get(`/api/alerts?patient_id=${b}`)).status).toBe(404);
    expect((await provider.post('/api/alerts/999999999/acknowledge')).status).toBe(404);

    const summary = await otherProvider.get<AlertSummary>('/api/alerts/summary');
    expect(summary.body.by_severity.critical).toBe(0);
  });

  it('answers one row per enrolled patient at /api/alerts/worklist, and snoozes through acknowledge (400 past or too far)', async () => {
    const patientId = await newPatient(orgId, true);
    await addReading(patientId, 185, 125);
    const page = await provider.get<WorklistPage>('/api/alerts/worklist?severity=critical&limit=100');
    expect(page.status).toBe(200);
    const row = page.body.items.find((r) => r.patient_id === patientId);
    expect(row).toMatchObject({ severity: 'critical', escalated: false });
    expect(row!.alerts.map((a) => a.rule)).toEqual(['bp_crisis']);
    expect(row!.last_reading_at).not.toBeNull();
    expect(await lastAuditOf(server, 'alert.list')).toMatchObject({ outcome: 'success', resource_type: 'alert' });
    const other = await otherProvider.get<WorklistPage>('/api/alerts/worklist?limit=100');
    expect(other.body.items.map((r) => r.patient_id)).not.toContain(patientId);
    const summary = await provider.get<AlertSummary>('/api/alerts/summary');
    const all = await provider.get<WorklistPage>('/api/alerts/worklist?limit=1');
    expect(summary.body).toMatchObject({ patients: all.body.total, open: all.body.alerts });

    const id = row!.alerts[0]!.id;
    const past = await provider.post<{ message: string }>(`/api/alerts/${id}/acknowledge`, {
      snooze_until: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe(AlertErrors.snoozePast);
    const far = await provider.post(`/api/alerts/${id}/acknowledge`, {
      snooze_until: new Date(Date.now() + (ALERT_SNOOZE_MAX_HOURS + 1) * 3_600_000).toISOString(),
    });
    expect(far.status).toBe(400);
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const ack = await provider.post<Alert>(`/api/alerts/${id}/acknowledge`, { snooze_until: until });
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({ status: 'acknowledged', snoozed_until: until });
    expect(ack.body.acknowledged_by_name).toBeTruthy();
  });

  it('filters by severity and provider', async () => {
    const a = await newPatient();
    await addReading(a, 200, 100);
    await buildAlert(server.db.pool, { patientId: a, organizationId: orgId, rule: 'pulse_high' });
    const critical = await provider.get<AlertPage>(`/api/alerts?severity=critical&patient_id=${a}`);
    expect(critical.body.items.map((i) => i.rule)).toEqual(['bp_crisis']);
    const staffId = (
      await server.db.pool.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [providerEmail])
    ).rows[0]!.id;
    const byProvider = await provider.get<AlertPage>(`/api/alerts?provider_id=${staffId}&limit=100`);
    expect(byProvider.body.items.every((i) => i.primary_provider_id === staffId)).toBe(true);
    expect(byProvider.body.items.some((i) => i.patient_id === a)).toBe(true);
    const nobody = await provider.get<AlertPage>(`/api/alerts?provider_id=2147483000`);
    expect(nobody.body).toEqual({ items: [], total: 0 });
  });

  it('acknowledges, then resolves with a note and minutes: a clinical note and a tracking entry, all audited', async () => {
    const patientId = await newPatient();
    await addReading(patientId, 185, 95);
    const [alert] = await alertsOf(patientId);
    const ack = await provider.post<Alert>(`/api/alerts/${alert!.id}/acknowledge`);
    expect(ack.status).toBe(200);
    expect(ack.body.status).toBe('acknowledged');
    expect(await lastAuditOf(server, 'alert.acknowledge')).toMatchObject({
      outcome: 'success',
      resource_id: String(alert!.id),
    });
    // Acknowledged is still open: another crisis reading counts on it.
    await addReading(patientId, 186, 95);
    expect((await alertsOf(patientId, provider, 'acknowledged'))[0]!.count).toBe(2);

    const res = await provider.post<Alert>(`/api/alerts/${alert!.id}/resolve`, {
      reason: 'reached_patient',
      note: 'Called the patient; medication taken late.',
      minutes: 5,
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('resolved');
    const notes = await provider.get<{ items: { content: string }[] }>(`/api/patients/${patientId}/notes`);
    expect(notes.body.items[0]!.content).toBe('Called the patient; medication taken late.');
    const tracking = await provider.get<{ items: { duration_minutes: number }[] }>(
      `/api/patients/${patientId}/sessions`,
    );
    expect(tracking.body.items[0]!.duration_minutes).toBe(5);
    expect(await lastAuditOf(server, 'alert.resolve')).toMatchObject({
      outcome: 'success',
      resource_id: String(alert!.id),
    });
    expect(
      (await provider.post(`/api/alerts/${alert!.id}/resolve`, { reason: 'reached_patient', note: 'again' })).status,
    ).toBe(409);
    // A new crisis measured after the resolution is a new alert (one measured before it is not:
    // the rule must be met again on readings after the resolution).
    const after = await provider.post(`/api/patients/${patientId}/vitals`, {
      measured_at: new Date().toISOString(),
      systolic: 190,
      diastolic: 95,
      pulse: 70,
    });
    expect(after.status).toBe(201);
    const open = await alertsOf(patientId);
    expect(open).toHaveLength(1);
    expect(open[0]!.id).not.toBe(alert!.id);
    expect(open[0]!.count).toBe(1);
  });

  it('minutes from resolving an alert are dated in the organization time zone', async () => {
    // A zone whose day differs from UTC's right now: +14 h from 10:00 UTC on, -11 h before.
    const timeZone = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const clinic = (await createOrganization(server)).id;
    await setOrganizationTimeZone(server.db.pool, clinic, timeZone);
    const patientId = await newPatient(clinic);
    await addReading(patientId, 185, 95, 70, admin);
    const [alert] = await alertsOf(patientId, admin);
    const res = await admin.post<Alert>(`/api/alerts/${alert!.id}/resolve`, {
      reason: 'reached_patient',
      note: 'Reviewed.',
      minutes: 7,
    });
    expect(res.status).toBe(200);
    const { rows } = await server.db.pool.query<{ date: string }>(
      'SELECT date FROM tracking_entries WHERE patient_id = $1',
      [patientId],
    );
    const clinicToday = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date());
    expect(clinicToday).not.toBe(new Date().toISOString().slice(0, 10));
    expect(rows.map((r) => r.date)).toEqual([clinicToday]);
  });

  it('refuses minutes from resolving an alert in a closed month, and leaves the alert open', async () => {
    const patientId = await newPatient();
    await addReading(patientId, 185, 95);
    const [alert] = await alertsOf(patientId);
    // The clinic's current month, closed by hand (an admin closes by UTC's calendar, so the
    // clinic's last evening of a month can fall after its close); taken back as the owner after.
    const month = await closeMonth(server.db.ownerPool, { currentOf: orgId });
    try {
      const res = await provider.post<{ message: string }>(`/api/alerts/${alert!.id}/resolve`, {
        reason: 'reached_patient',
        note: 'Called.',
        minutes: 5,
      });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(BillingErrors.monthClosed);
      expect(await lastAuditOf(server, 'alert.resolve')).toMatchObject({
        outcome: 'failure',
        resource_id: String(alert!.id),
      });
      expect((await alertsOf(patientId)).map((a) => a.id)).toEqual([alert!.id]);
      const { rows: entries } = await server.db.pool.query('SELECT 1 FROM tracking_entries WHERE patient_id = $1', [
        patientId,
      ]);
      expect(entries).toEqual([]);
      // Without minutes the alert still resolves: only tracking time is frozen.
      expect(
        (await provider.post(`/api/alerts/${alert!.id}/resolve`, { reason: 'reached_patient', note: 'Called.' }))
          .status,
      ).toBe(200);
    } finally {
      await reopenMonth(server.db.ownerPool, month);
    }
  });

  it('refuses a blank note', async () => {
    const patientId = await newPatient();
    await addReading(patientId, 185, 95);
    const [alert] = await alertsOf(patientId);
    expect(
      (await provider.post(`/api/alerts/${alert!.id}/resolve`, { reason: 'reached_patient', note: '   ' })).status,
    ).toBe(400);
  });
});

describe('notification and live events', () => {
  it('e-mails the primary provider once for a critical alert, with a link and no patient details', async () => {
    const patientId = await newPatient();
    await addReading(patientId, 210, 125);
    const [alert] = await alertsOf(patientId);
    let rows: { subject: string; body: string }[] = [];
    for (let i = 0; i < 50 && rows.length === 0; i++) {
      rows = (
        await server.db.ownerPool.query(
          `SELECT subject, body FROM identity.outbox WHERE kind = 'critical-alert' AND lower(recipient) = lower($1) AND body LIKE $2`,
          [providerEmail, `%alert=${alert!.id}\n%`],
        )
      ).rows;
      if (!rows.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows).toHaveLength(1);
    expect(rows[0]!.subject).toBe(AlertTexts.emailSubject);
    expect(rows[0]!.body).not.toContain('Alertson');
    expect(rows[0]!.body).not.toContain('210');
    await addReading(patientId, 211, 125);
    await new Promise((r) => setTimeout(r, 300));
    const again = await server.db.ownerPool.query(
      `SELECT 1 FROM identity.outbox WHERE kind = 'critical-alert' AND body LIKE $1`,
      [`%alert=${alert!.id}\n%`],
    );
    expect(again.rowCount).toBe(1);
  });

  it('streams an alert event to a signed-in user of the organization within seconds, not to another organization', async () => {
    const open = async (client: ApiClient) => {
      const controller = new AbortController();
      const res = await fetch(`${server.url}/api/alerts/stream`, {
        headers: { cookie: client.cookie! },
        signal: controller.signal,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const reader = res.body!.getReader();
      let text = '';
      const decoder = new TextDecoder();
      const pump = (async () => {
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            text += decoder.decode(value);
          }
        } catch {
          /* aborted */
        }
      })();
      return { text: () => text, close: async () => (controller.abort(), await pump) };
    };
    const mine = await open(provider);
    const theirs = await open(otherProvider);
    const patientId = await newPatient();
    const started = Date.now();
    await addReading(patientId, 195, 100);
    while (!mine.text().includes('event: alert') && Date.now() - started < 5000)
      await new Promise((r) => setTimeout(r, 50));
    expect(mine.text()).toContain('event: alert');
    const data = JSON.parse(mine.text().split('event: alert\ndata: ')[1]!.split('\n')[0]!);
    expect(data).toMatchObject({ patient_id: patientId, severity: 'critical', status: 'open' });
    expect(Object.keys(data).sort()).toEqual(['id', 'patient_id', 'severity', 'status']);
    expect(theirs.text()).not.toContain(`"patient_id":${patientId}`);
    await mine.close();
    await theirs.close();
    expect(await lastAuditOf(server, 'alert.stream')).toMatchObject({ outcome: 'success' });
  });
});

describe('stale data', () => {
  it('raises one alert for an RPM patient without recent readings, refreshes it, and ends it on a new reading', async () => {
    const patientId = await newPatient(orgId, true, { ago: '10 days' });
    const notEnrolled = await newPatient(orgId, false, { ago: '10 days' });
    await checkStaleData(server.db.pool);
    await checkStaleData(server.db.pool);
    const alerts = await alertsOf(patientId);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      rule: 'stale_data',
      severity: 'info',
      count: 1,
      last_values: { days_without_reading: 10 },
    });
    expect(await alertsOf(notEnrolled)).toEqual([]);
    const summary = await provider.get<AlertSummary>('/api/alerts/summary');
    expect(summary.body.stale_patients).toBeGreaterThanOrEqual(1);
    await addReading(patientId, 120, 80);
    expect(await alertsOf(patientId)).toEqual([]);
  });
});
