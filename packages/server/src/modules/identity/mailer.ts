import { OUTBOX_RETENTION_DAYS, normalizeEmail } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Queryable } from '../../db/pool.ts';
import { insertOutbox, latestOutbox, markOutboxDelivered, undeliveredOutbox } from './repositories/outbox.repository.ts';

/**
 * Where the pool's messages (invitations with a temporary password, reset codes) go: SMTP when it
 * is configured, otherwise the `identity.outbox` table, which an operator reads with
 * `npm run outbox` (rows expire after OUTBOX_RETENTION_DAYS). The message text, which holds the
 * secret, is never logged at any level: the log line names only the kind and the recipient.
 */

export interface OutgoingMessage {
  kind: 'invitation' | 'reset-code' | 'critical-alert' | 'alert-escalation';
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /**
   * Outbox: inserted with `db` (the caller's transaction, so a rolled-back change sends nothing).
   * SMTP: handed over after the caller's answer, so that how long an answer takes never tells
   * whether a message was sent (no account enumeration by timing); a failure is logged.
   */
  send(message: OutgoingMessage, db?: Queryable): Promise<void>;
  close(): void;
}

export function createMailer(deps: { db: Queryable; log: FastifyBaseLogger; smtpUrl?: string; mailFrom?: string }): Mailer {
  if (deps.smtpUrl) {
    const transport = nodemailer.createTransport(deps.smtpUrl);
    const from = deps.mailFrom ?? 'no-reply@localhost';
    return {
      async send(m) {
        setImmediate(() => {
          transport
            .sendMail({ from, to: m.to, subject: m.subject, text: m.text })
            .then(() => deps.log.info({ kind: m.kind, to: m.to }, 'user pool message sent by SMTP'))
            .catch((err: Error) => deps.log.warn({ kind: m.kind, to: m.to, error: err.message }, 'user pool message not sent'));
        });
      },
      close: () => transport.close(),
    };
  }
  return {
    async send(m, db) {
      await insertOutbox(db ?? deps.db, { kind: m.kind, recipient: m.to, subject: m.subject, body: m.text });
      deps.log.info(
        { kind: m.kind, to: m.to },
        'user pool message in the outbox (no SMTP_URL configured: `npm run outbox` shows it for delivery)',
      );
    },
    close: () => {},
  };
}

/** The latest outbox message for an address (tests, and operators via SQL). */
export async function readOutbox(
  db: Queryable,
  email: string,
): Promise<{ kind: string; to: string; subject: string; text: string; createdAt: Date } | null> {
  const row = await latestOutbox(db, normalizeEmail(email));
  return row ? { kind: row.kind, to: row.recipient, subject: row.subject, text: row.body, createdAt: row.created_at } : null;
}

export function invitationMessage(publicUrl: string, email: string, temporaryPassword: string): OutgoingMessage {
  return {
    kind: 'invitation',
    to: email,
    subject: 'Your RPM portal account',
    text:
      `An account was created for you on the RPM portal.\n\n` +
      `Sign in at ${publicUrl}/login with your email address ${email} and this temporary password:\n\n` +
      `    ${temporaryPassword}\n\n` +
      `You will be asked to choose your own password. The temporary password expires in 7 days.`,
  };
}

export function resetCodeMessage(publicUrl: string, email: string, code: string): OutgoingMessage {
  const link = `${publicUrl}/reset-password?code=${encodeURIComponent(code)}&email=${encodeURIComponent(email)}`;
  return {
    kind: 'reset-code',
    to: email,
    subject: 'Reset your RPM portal password',
    text:
      `Someone (hopefully you) asked to reset the password of ${email} on the RPM portal.\n\n` +
      `Open this link to choose a new password:\n${link}\n\n` +
      `or enter this code: ${code}\n\n` +
      `The code expires in 1 hour. If you did not ask for it, ignore this message.`,
  };
}

/**
 * `npm run outbox`: the messages still to deliver, for an operator without SMTP, oldest first.
 * With `markDelivered` the printed ones are marked and not shown again.
 */
export async function printUndelivered(
  db: Queryable,
  write: (text: string) => void,
  { markDelivered = false }: { markDelivered?: boolean } = {},
): Promise<number> {
  const rows = await undeliveredOutbox(db);
  for (const r of rows) {
    write(
      [
        `--- message ${r.id} (${r.kind}) ${r.created_at.toISOString()}`,
        `To: ${r.recipient}`,
        `Subject: ${r.subject}`,
        '',
        r.body,
        '',
      ].join('\n'),
    );
  }
  write(`${rows.length} undelivered message(s); messages are deleted ${OUTBOX_RETENTION_DAYS} days after they were written.\n`);
  if (markDelivered && rows.length) await markOutboxDelivered(db, rows.map((r) => r.id));
  return rows.length;
}
