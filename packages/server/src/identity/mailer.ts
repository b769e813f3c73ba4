import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import { insertOutbox, latestOutbox, type Db } from './repository.ts';

/**
 * Where the pool's messages (invitations with a temporary password, reset codes) go: SMTP when it
 * is configured, otherwise the `identity.outbox` table plus one info log line, which is then the
 * operator's delivery channel. This is the only place such a secret is ever written out.
 */

export interface OutgoingMessage {
  kind: 'invitation' | 'reset-code';
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: OutgoingMessage): Promise<void>;
  close(): void;
}

export function createMailer(deps: { db: Db; log: FastifyBaseLogger; smtpUrl?: string; mailFrom?: string }): Mailer {
  if (deps.smtpUrl) {
    const transport = nodemailer.createTransport(deps.smtpUrl);
    const from = deps.mailFrom ?? 'no-reply@localhost';
    return {
      async send(m) {
        await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text });
        deps.log.info({ kind: m.kind, to: m.to }, 'user pool message sent by SMTP');
      },
      close: () => transport.close(),
    };
  }
  return {
    async send(m) {
      await insertOutbox(deps.db, { kind: m.kind, recipient: m.to, subject: m.subject, body: m.text });
      // Never the text: it holds a temporary password or a reset code. The operator reads the outbox.
      deps.log.info(
        { kind: m.kind, to: m.to, subject: m.subject },
        'user pool message kept in the outbox (no SMTP_URL configured: deliver it to the recipient)',
      );
    },
    close: () => {},
  };
}

/** The latest outbox message for an address (tests, and operators via SQL). */
export async function readOutbox(
  db: Db,
  email: string,
): Promise<{ kind: string; to: string; subject: string; text: string; createdAt: Date } | null> {
  const row = await latestOutbox(db, email);
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
