import type pg from 'pg';
import type { SignedInContext } from '../../kernel/request-context.ts';
import { alertListScope } from '../../policies/alerts.ts';
import { audit } from '../../kernel/audit-writer.ts';
import { sessionKeyOf, sessionTimeLeft } from '../sessions/index.ts';
import type { StreamSession } from './alerts.stream.ts';

/**
 * Opening the live stream: recorded like a list read (events carry ids, never patient details).
 * Answers whose alerts it carries, and the session it belongs to, which it must not outlive.
 */
export async function openAlertStream(
  deps: { db: pg.Pool },
  ctx: SignedInContext,
  sessionToken: string,
): Promise<{ scope: number | null; session: StreamSession; timeLeftMs: number }> {
  const scope = alertListScope(ctx.actor);
  await audit(deps.db, ctx, { action: 'alert.stream', outcome: 'success', resourceType: 'alert' });
  const session: StreamSession = {
    key: sessionKeyOf(sessionToken),
    userId: ctx.actor.id,
    timeLeft: () => sessionTimeLeft(deps.db, sessionToken),
  };
  // Ended since the access check (null): the stream opens only to say so and end.
  return { scope, session, timeLeftMs: (await session.timeLeft()) ?? 0 };
}
