import { AlertTexts } from '@rpm/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import {
  buildAlert,
  buildAlertSettings,
  buildOrganization,
  buildPatient,
  buildStaff,
} from '../../../test/support/factories.ts';
import type { Actor } from '../../policies/actor.ts';
import { createMailer } from '../identity/index.ts';
import { checkEscalations } from './alerts.escalation.ts';
import { startAlertJobs, type AlertJobs } from './alerts.jobs.ts';
import type { AlertMailer } from './alerts.notify.ts';

let db: TestDatabase;
const log = pino({ level: 'silent' });
let mailer: AlertMailer;
let org: number;
let provider: Actor;
const publicUrl = 'https://portal.example';

beforeAll(async () => {
  db = await createTestDatabase();
  // The outbox (no SMTP): what was "sent" can be counted.
  mailer = createMailer({ db: db.pool, log });
  org = (await buildOrganization(db.pool)).id;
  provider = await buildStaff(db.pool, 'provider', { organizationId: org });
});
afterAll(async () => db?.drop());

async function criticalAlert(minutesAgo: number, status: 'open' | 'acknowledged' = 'open', organizationId = org) {
  const patientId = await buildPatient(db.pool, {
    organizationId,
    primaryProviderId: provider.id,
    enrolledRpm: true,
    enrollmentStatus: 'Active',
  });
  return buildAlert(db.pool, {
    patientId,
    organizationId,
    rule: 'bp_crisis',
    severity: 'critical',
    severityRank: 0,
    status,
    minutesAgo,
    values: { systolic: 190 },
  });
}

const escalated = async (id: number) =>
  (await db.pool.query<{ at: Date | null }>('SELECT escalated_at AS at FROM alerts WHERE id = $1', [id])).rows[0]!.at;
const emailsOf = async (id: number) =>
  (
    await db.ownerPool.query<{ recipient: string; subject: string; body: string }>(
      `SELECT recipient, subject, body FROM identity.outbox WHERE kind = 'alert-escalation' AND body LIKE $1`,
      [`%alert=${id}\n%`],
    )
  ).rows;
const escalationAudits = async (id: number) =>
  (
    await db.ownerPool.query(
      `SELECT user_id, details FROM audit_logs WHERE action = 'alert.escalate' AND resource_id = $1`,
      [String(id)],
    )
  ).rows;

describe('escalation of critical alerts nobody acknowledged', () => {
  it('escalates a due alert exactly once with two instances at once, e-mails a link only, audits it; never an acknowledged or not yet due one', async () => {
    const due = await criticalAlert(45);
    const acknowledged = await criticalAlert(45, 'acknowledged');
    const notYet = await criticalAlert(10);
    const deps = { db: db.pool, mailer, publicUrl };
    const results = await Promise.all([checkEscalations(deps), checkEscalations(deps)]);
    expect(results.reduce((n, r) => n + r.escalated, 0)).toBe(1);
    expect(await escalated(due)).not.toBeNull();
    expect(await escalated(acknowledged)).toBeNull();
    expect(await escalated(notYet)).toBeNull();
    const mails = await emailsOf(due);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(AlertTexts.escalationEmailSubject);
    expect(mails[0]!.body).toContain(`${publicUrl}/alerts?alert=${due}`);
    expect(mails[0]!.body).not.toContain('190');
    const audits = await escalationAudits(due);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ user_id: null, details: expect.objectContaining({ recipients: 1 }) });

    // Again later: nothing more for the escalated one; the other is due 30 minutes on.
    await checkEscalations(deps);
    expect(await emailsOf(due)).toHaveLength(1);
    await checkEscalations(deps, { now: new Date(Date.now() + 25 * 60_000) });
    expect(await escalated(notYet)).not.toBeNull();
    expect(await escalated(acknowledged)).toBeNull();
  });

  it('goes to the organization’s active escalation contacts, after its own minutes', async () => {
    const clinic = (await buildOrganization(db.pool)).id;
    const contact = await buildStaff(db.pool, 'provider', { organizationId: clinic });
    const away = await buildStaff(db.pool, 'provider', { organizationId: clinic, status: 'disabled' });
    await buildAlertSettings(db.pool, {
      organizationId: clinic,
      escalationMinutes: 5,
      escalationContactIds: [contact.id, away.id],
    });
    const id = await criticalAlert(6, 'open', clinic);
    await checkEscalations({ db: db.pool, mailer, publicUrl });
    const mails = await emailsOf(id);
    const { rows } = await db.pool.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [contact.id]);
    expect(mails.map((m) => m.recipient.toLowerCase())).toEqual([rows[0]!.email.toLowerCase()]);
  });

  it('runs as a job once per run with two job instances on one database', async () => {
    const id = await criticalAlert(60);
    const instances: AlertJobs[] = [];
    const runs = [0, 0];
    for (const i of [0, 1]) {
      instances.push(
        await startAlertJobs({
          pool: db.pool,
          log,
          pollingIntervalSeconds: 0.5,
          // Schedules that do not tick while the test counts.
          cron: '0 0 1 1 *',
          escalationCron: '0 0 1 1 *',
          runStaleCheck: async () => undefined,
          runEscalationCheck: async (requestId) => {
            runs[i]!++;
            return checkEscalations({ db: db.pool, mailer, publicUrl }, { requestId });
          },
          reevaluate: async () => undefined,
        }),
      );
    }
    try {
      const ids = await Promise.all(instances.map((j) => j.requestEscalationCheck('run-1')));
      expect(ids.filter((x) => x !== null)).toHaveLength(1);
      const started = Date.now();
      while ((await escalated(id)) === null && Date.now() - started < 10_000)
        await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 1000));
      expect(runs[0]! + runs[1]!).toBe(1);
      expect(await emailsOf(id)).toHaveLength(1);
      expect(await escalationAudits(id)).toHaveLength(1);
    } finally {
      for (const j of instances) await j.stop();
    }
  });
});
