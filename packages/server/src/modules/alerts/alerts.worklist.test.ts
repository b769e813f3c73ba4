import { ALERT_SEVERITY_RANK, AlertErrors, type AlertRule, type AlertSeverity } from '@rpm/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { serviceDatabase } from '../../../test/support/service-database.ts';
import * as build from '../../../test/support/factories.ts';
import { auditsOf, refusalOf } from '../../../test/support/audit.ts';
import type { Actor } from '../../policies/actor.ts';
import { updatePatientPrograms } from '../programs/programs.service.ts';
import { REEVALUATE_QUEUE } from './alerts.jobs.ts';
import { acknowledge, resolve } from './alerts.service.ts';
import { getPatientThresholds, putAlertSettings, putPatientThresholds } from './alerts.thresholds.service.ts';
import { alertSummary, listAlerts, worklist } from './alerts.worklist.service.ts';

const { buildOrganization, buildPatient, buildStaff, contextOf } = build;
const db = serviceDatabase();
const deps = {
  get db() {
    return db.pool;
  },
};
let provider: Actor;
let admin: Actor;
let org: number;

beforeAll(async () => {
  // An organization of its own: the worklist counts everything in it.
  org = (await buildOrganization(db.pool)).id;
  [provider, admin] = await Promise.all([
    buildStaff(db.pool, 'provider', { organizationId: org, firstName: 'Ada', lastName: 'Lovelace' }),
    buildStaff(db.pool, 'admin', { organizationId: null }),
  ]);
});

let seq = 0;
/** An actively enrolled patient (the worklist's) unless told otherwise. */
async function patient(
  o: { enrolled?: boolean; status?: string | null; lastName?: string; organizationId?: number } = {},
) {
  return buildPatient(db.pool, {
    organizationId: o.organizationId ?? org,
    firstName: `W${++seq}`,
    lastName: o.lastName ?? 'Worklist',
    primaryProviderId: provider.id,
    enrolledRpm: o.enrolled ?? true,
    enrollmentStatus: o.status === undefined ? 'Active' : o.status,
  });
}

/** An alert set up directly (the evaluation is tested elsewhere): first seen `minutesAgo`. */
async function alert(
  patientId: number,
  a: {
    rule?: AlertRule;
    severity?: AlertSeverity;
    minutesAgo?: number;
    status?: 'open' | 'acknowledged' | 'resolved';
    snoozedUntil?: Date;
    escalated?: boolean;
    organizationId?: number;
  } = {},
): Promise<number> {
  const severity = a.severity ?? 'warning';
  return build.buildAlert(db.pool, {
    patientId,
    organizationId: a.organizationId ?? org,
    rule: a.rule ?? (severity === 'critical' ? 'bp_crisis' : severity === 'info' ? 'stale_data' : 'bp_stage2'),
    severity,
    severityRank: ALERT_SEVERITY_RANK[severity],
    status: a.status ?? 'open',
    minutesAgo: a.minutesAgo ?? 10,
    snoozedUntil: a.snoozedUntil ?? null,
    escalated: a.escalated ?? false,
    values: { systolic: 150 },
  });
}

const ctx = () => contextOf(provider);

describe('the worklist', () => {
  it('has one row per actively enrolled patient, most severe first, escalated first, longest waiting first', async () => {
    const warnOld = await patient();
    await alert(warnOld, { minutesAgo: 300 });
    await alert(warnOld, { severity: 'info', rule: 'stale_data', minutesAgo: 400 });
    const critNew = await patient();
    await alert(critNew, { severity: 'critical', minutesAgo: 5 });
    const critOld = await patient();
    await alert(critOld, { severity: 'critical', minutesAgo: 60 });
    const critEscalated = await patient();
    await alert(critEscalated, { severity: 'critical', minutesAgo: 2, escalated: true });
    const warnNew = await patient();
    await alert(warnNew, { minutesAgo: 20 });
    // Not on the worklist: not enrolled, paused, only a resolved alert.
    await alert(await patient({ enrolled: false }), { severity: 'critical' });
    await alert(await patient({ status: 'Paused' }), { severity: 'critical' });
    await alert(await patient(), { status: 'resolved' });

    const listing = ctx();
    const page = await worklist(deps, listing, {});
    expect(page.items.map((r) => r.patient_id)).toEqual([critEscalated, critOld, critNew, warnOld, warnNew]);
    expect(page.total).toBe(5);
    expect(page.alerts).toBe(6);
    const first = page.items[0]!;
    expect(first).toMatchObject({ severity: 'critical', escalated: true, primary_provider_id: provider.id });
    expect(first.alerts).toHaveLength(1);
    expect(first.alerts[0]).toMatchObject({ rule: 'bp_crisis', status: 'open', acknowledged_by_name: null });
    const warnRow = page.items[3]!;
    expect(warnRow.severity).toBe('warning');
    expect(warnRow.alerts.map((a) => a.severity)).toEqual(['warning', 'info']);
    // Waiting since the oldest open alert.
    expect(Date.now() - new Date(warnRow.waiting_since).getTime()).toBeGreaterThan(399 * 60_000);

    const summary = await alertSummary(deps, ctx());
    expect(summary).toEqual({
      open: 6,
      patients: 5,
      by_severity: { critical: 3, warning: 2, info: 1 },
      escalated: 1,
      stale_patients: 1,
    });

    const audits = (await auditsOf(db.pool, listing)).filter((a) => a.action === 'alert.list');
    expect(audits.at(-1)).toMatchObject({ outcome: 'success', resource_type: 'alert' });
    expect((audits.at(-1)!.details as { patient_ids: number[] }).patient_ids).toEqual(
      page.items.map((r) => r.patient_id),
    );
  });

  it('filters by severity (rows with one), rule and provider; sorts by name, waiting and last reading; pages with totals', async () => {
    const bySeverity = await worklist(deps, ctx(), { severity: 'info' });
    expect(bySeverity.items.length).toBeGreaterThanOrEqual(1);
    // The row keeps all its alerts, not only the info one.
    expect(bySeverity.items.every((r) => r.alerts.some((a) => a.severity === 'info'))).toBe(true);
    expect(bySeverity.items.some((r) => r.alerts.some((a) => a.severity === 'warning'))).toBe(true);
    const byRule = await worklist(deps, ctx(), { rule: 'bp_crisis' });
    expect(byRule.items.every((r) => r.alerts.some((a) => a.rule === 'bp_crisis'))).toBe(true);
    expect(byRule.total).toBe(3);
    expect((await worklist(deps, ctx(), { provider_id: 2147483000 })).total).toBe(0);
    expect((await worklist(deps, ctx(), { provider_id: provider.id })).total).toBe(5);

    const byName = await worklist(deps, ctx(), { sort: 'patient', order: 'desc' });
    const names = byName.items.map((r) => r.patient_name);
    expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a, 'en', { numeric: true })));
    const waiting = await worklist(deps, ctx(), { sort: 'waiting' });
    const times = waiting.items.map((r) => r.waiting_since);
    expect(times).toEqual([...times].sort());
    expect((await worklist(deps, ctx(), { sort: 'last_reading' })).total).toBe(5);

    const second = await worklist(deps, ctx(), { limit: 2, offset: 2 });
    expect(second.items).toHaveLength(2);
    expect(second.total).toBe(5);
    const past = await worklist(deps, ctx(), { limit: 2, offset: 50 });
    expect(past).toEqual({ items: [], total: 5, alerts: 6 });

    // Another organization's provider sees none of it.
    const otherOrg = (await buildOrganization(db.pool)).id;
    const stranger = await buildStaff(db.pool, 'provider', { organizationId: otherOrg });
    expect((await worklist(deps, contextOf(stranger), {})).total).toBe(0);
    expect((await alertSummary(deps, contextOf(stranger))).open).toBe(0);
    // An admin sees every organization's.
    expect((await worklist(deps, contextOf(admin), { limit: 100 })).total).toBeGreaterThanOrEqual(5);
  });

  it('shows an acknowledged alert as waiting again once its snooze has ended', async () => {
    const p = await patient({ lastName: 'Snoozer' });
    await alert(p, { minutesAgo: 30, status: 'acknowledged', snoozedUntil: new Date(Date.now() - 60_000) });
    const open = await worklist(deps, ctx(), { status: 'open' });
    expect(open.items.map((r) => r.patient_id)).toContain(p);
    const acked = await worklist(deps, ctx(), { status: 'acknowledged' });
    expect(acked.items.map((r) => r.patient_id)).not.toContain(p);
    await build.setAlertStatus(db.pool, { patientId: p }, 'resolved');
  });
});

describe('acknowledging and resolving', () => {
  it('acknowledges with a snooze in the future, at most a week ahead, naming who acknowledged', async () => {
    const p = await patient();
    const id = await alert(p, { severity: 'critical' });
    const past = await refusalOf(db.pool, provider, (c) =>
      acknowledge(deps, c, id, { snooze_until: new Date(Date.now() - 1000).toISOString() }),
    );
    expect(past).toMatchObject({ status: 400, message: AlertErrors.snoozePast });
    const far = await refusalOf(db.pool, provider, (c) =>
      acknowledge(deps, c, id, { snooze_until: new Date(Date.now() + 8 * 86_400_000).toISOString() }),
    );
    expect(far).toMatchObject({ status: 400, message: AlertErrors.snoozeTooLong });
    expect(far.audits).toEqual([expect.objectContaining({ action: 'alert.acknowledge', outcome: 'failure' })]);

    const until = new Date(Date.now() + 3_600_000).toISOString();
    const acked = await acknowledge(deps, ctx(), id, { snooze_until: until });
    expect(acked).toMatchObject({ status: 'acknowledged', snoozed_until: until, acknowledged_by_name: 'Ada Lovelace' });
    expect(acked.acknowledged_at).not.toBeNull();
    const row = (await worklist(deps, ctx(), { status: 'acknowledged', limit: 100 })).items.find(
      (r) => r.patient_id === p,
    );
    expect(row!.alerts[0]!.snoozed_until).toBe(until);
    // Acknowledging again without a snooze ends the snooze.
    expect((await acknowledge(deps, ctx(), id)).snoozed_until).toBeNull();
  });

  it('resolves with a reason, kept on the alert and in the audit record', async () => {
    const p = await patient();
    const id = await alert(p);
    const c = ctx();
    const resolved = await resolve(deps, c, id, { reason: 'medication_changed', note: 'Dose raised.' });
    expect(resolved).toMatchObject({ status: 'resolved', resolution_reason: 'medication_changed' });
    expect(resolved.resolved_at).not.toBeNull();
    const audit = (await auditsOf(db.pool, c)).find((a) => a.action === 'alert.resolve');
    expect(audit).toMatchObject({
      outcome: 'success',
      details: expect.objectContaining({ reason: 'medication_changed' }),
    });
    const listed = await listAlerts(deps, ctx(), { patient_id: p, status: 'resolved' });
    expect(listed.items[0]).toMatchObject({ id, resolution_reason: 'medication_changed' });
  });
});

describe('settings and thresholds', () => {
  const jobs = async () =>
    (
      await db.pool.query<{ data: { cause: string; patient_ids?: number[]; organization_id?: number } }>(
        'SELECT data FROM pgboss.job WHERE name = $1 ORDER BY created_on',
        [REEVALUATE_QUEUE],
      )
    ).rows.map((r) => r.data);

  it('takes every threshold key for a patient but the organization-only ones, with programs in the effective values, and queues a re-evaluation', async () => {
    const p = await patient();
    const before = (await jobs()).length;
    await build.buildPatientPrograms(db.pool, p, ['copd']);
    const body = Object.fromEntries(
      Object.keys((await getPatientThresholds(deps, ctx(), p)).overrides).map((k) => [k, null]),
    );
    expect(Object.keys(body)).not.toContain('spo2_target_copd');
    const saved = await putPatientThresholds(deps, ctx(), p, { ...body, stage2_systolic: 140 });
    expect(saved.overrides.stage2_systolic).toBe(140);
    expect(saved.effective).toMatchObject({ stage2_systolic: 140, stage2_diastolic: 85, spo2_target: 88 });
    const queued = await jobs();
    expect(queued.slice(before)).toEqual([{ cause: 'patient-thresholds', patient_ids: [p] }]);
  });

  it('accepts only active staff of the organization as escalation contacts (400 otherwise), and queues the organization', async () => {
    const settings = {
      ...Object.fromEntries(
        ['crisis_systolic', 'stale_days', 'escalation_minutes', 'bp_window_days'].map((k) => [k, null]),
      ),
      escalation_contact_ids: [] as number[],
    };
    const colleague = await buildStaff(db.pool, 'provider', { organizationId: org });
    const disabled = await buildStaff(db.pool, 'provider', { organizationId: org, status: 'disabled' });
    const outsider = await buildStaff(db.pool, 'provider', { organizationId: (await buildOrganization(db.pool)).id });
    for (const bad of [disabled.id, outsider.id]) {
      const r = await refusalOf(db.pool, admin, (c) =>
        putAlertSettings(deps, c, org, { ...settings, escalation_contact_ids: [colleague.id, bad] }),
      );
      expect(r).toMatchObject({ status: 400, message: AlertErrors.contactsNotStaff });
    }
    const before = (await jobs()).length;
    const saved = await putAlertSettings(deps, contextOf(admin), org, {
      ...settings,
      escalation_minutes: 15,
      escalation_contact_ids: [colleague.id],
    });
    expect(saved.overrides).toMatchObject({ escalation_minutes: 15, escalation_contact_ids: [colleague.id] });
    expect(saved.effective).toMatchObject({
      escalation_minutes: 15,
      bp_window_days: 7,
      bp_window_min_readings: 6,
      stale_days: 3,
    });
    expect((await jobs()).slice(before)).toEqual([{ cause: 'organization-settings', organization_id: org }]);
  });

  it('queues a re-evaluation when a patient’s programs change, not when they stay the same', async () => {
    const p = await patient();
    const before = (await jobs()).length;
    await updatePatientPrograms(deps, ctx(), p, { programs: ['copd'] });
    await updatePatientPrograms(deps, ctx(), p, { programs: ['copd'] });
    expect((await jobs()).slice(before)).toEqual([{ cause: 'programs', patient_ids: [p] }]);
  });
});
