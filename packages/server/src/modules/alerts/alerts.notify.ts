import { AlertTexts } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/pool.ts';
import { createMailer } from '../identity/index.ts';
import { claimCriticalNotifications, type AlertChange } from './alerts.repository.ts';

/**
 * What the alert e-mails (critical, escalation) need of the portal's mailer: SMTP when configured,
 * else the outbox, written with `db` when given (the caller's transaction).
 */
export interface AlertMailer {
  send(
    message: { kind: 'critical-alert' | 'alert-escalation'; to: string; subject: string; text: string },
    db?: Queryable,
  ): Promise<void>;
  close(): void;
}

/** The e-mail names no patient and no value: only a link to the alert, behind the sign-in. */
export function criticalAlertMessage(publicUrl: string, alertId: number, to: string) {
  return {
    kind: 'critical-alert' as const,
    to,
    subject: AlertTexts.emailSubject,
    text: AlertTexts.emailBody(`${publicUrl}/alerts?alert=${alertId}`),
  };
}

/**
 * Sends a critical alert's e-mail to the patient's primary provider, once: every instance hears
 * the change, and the one that claims the alert (notified_at, set atomically) sends it. `sweep`
 * sends what no instance claimed (none was running when it was raised); the scheduled job calls it.
 */
export function createAlertNotifier(deps: {
  db: pg.Pool;
  log: FastifyBaseLogger;
  config: Config;
  mailer?: AlertMailer;
}) {
  const mailer: AlertMailer =
    deps.mailer ??
    createMailer({ db: deps.db, log: deps.log, smtpUrl: deps.config.smtpUrl, mailFrom: deps.config.mailFrom });
  const send = async (ids: number[] | null) => {
    const claimed = await claimCriticalNotifications(deps.db, ids);
    for (const c of claimed) await mailer.send(criticalAlertMessage(deps.config.publicUrl, c.id, c.email));
    return claimed.length;
  };
  return {
    async onChanges(changes: AlertChange[]) {
      const critical = changes.filter((c) => c.severity === 'critical' && c.status !== 'resolved').map((c) => c.id);
      if (critical.length) await send(critical);
    },
    sweep: () => send(null),
    /** The same mailer, for the escalation e-mails. */
    mailer,
    close: () => mailer.close(),
  };
}
