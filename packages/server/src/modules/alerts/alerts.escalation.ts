import { AlertTexts } from '@rpm/contracts';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { audit } from '../../kernel/audit-writer.ts';
import type { RequestContext } from '../../kernel/request-context.ts';
import type { AlertMailer } from './alerts.notify.ts';
import { notifyAlertChanges } from './alerts.repository.ts';
import { claimEscalations, escalationRecipients } from './alerts.escalation.repository.ts';

/** The escalation job acts for nobody: its audit records say so (no user, no address). */
const escalationContext = (requestId: string): RequestContext => ({
  actor: null,
  ip: 'system',
  userAgent: 'alert-escalation job',
  requestId,
});

/** The e-mail names no patient and no value: only a link to the alert, behind the sign-in. */
export function escalationMessage(publicUrl: string, alertId: number, to: string) {
  return {
    kind: 'alert-escalation' as const,
    to,
    subject: AlertTexts.escalationEmailSubject,
    text: AlertTexts.escalationEmailBody(`${publicUrl}/alerts?alert=${alertId}`),
  };
}

/**
 * Escalates the critical alerts nobody acknowledged in time (as of `now`; tests pass their own).
 * Claim, audit ('alert.escalate' per alert), NOTIFY and the e-mails commit together: the outbox
 * row is written in the transaction (SMTP hands the message over after the answer), so an alert
 * is escalated, and mailed, exactly once whichever instance runs the check.
 */
export async function checkEscalations(
  deps: { db: pg.Pool; mailer: AlertMailer; publicUrl: string },
  opts: { now?: Date; requestId?: string } = {},
): Promise<{ escalated: number; emails: number }> {
  const now = opts.now ?? new Date();
  const ctx = escalationContext(opts.requestId ?? `escalation:${now.toISOString()}`);
  return withTransaction(deps.db, async (tx) => {
    const claimed = await claimEscalations(tx, now);
    let emails = 0;
    for (const a of claimed) {
      const recipients = await escalationRecipients(tx, a.id);
      for (const to of recipients) await deps.mailer.send(escalationMessage(deps.publicUrl, a.id, to), tx);
      emails += recipients.length;
      await audit(tx, ctx, {
        action: 'alert.escalate',
        outcome: 'success',
        resourceType: 'alert',
        resourceId: a.id,
        // How many were told, not who: the recipients are staff, the record stays about the alert.
        details: { patient_id: a.patient_id, rule: a.rule, recipients: recipients.length },
      });
    }
    await notifyAlertChanges(tx, claimed);
    return { escalated: claimed.length, emails };
  });
}
