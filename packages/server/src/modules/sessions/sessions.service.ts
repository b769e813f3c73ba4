import { createHash, randomBytes } from 'node:crypto';
import { IDLE_TIMEOUT_MS, SESSION_ABSOLUTE_LIFETIME_MS } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';
import type { Actor } from '../../plugins/context.ts';
import { insertSession, revokeSession, revokeUserSessions, touchLiveSession } from './sessions.repository.ts';

/** Only this hash is stored: a leaked sessions table cannot be turned back into cookies. */
const hashToken = (token: string): Buffer => createHash('sha256').update(token).digest();

export async function createSession(
  db: Queryable,
  input: { userId: number; ip: string; userAgent: string | null },
): Promise<string> {
  const token = randomBytes(32).toString('base64url'); // 256 bits
  await insertSession(db, { ...input, idHash: hashToken(token), lifetimeMs: SESSION_ABSOLUTE_LIFETIME_MS });
  return token;
}

export async function resolveSession(db: Queryable, token: string): Promise<Actor | null> {
  if (!/^[\w-]{20,100}$/.test(token)) return null;
  return touchLiveSession(db, hashToken(token), IDLE_TIMEOUT_MS);
}

export async function endSession(db: Queryable, token: string): Promise<number | null> {
  return revokeSession(db, hashToken(token));
}

export async function endAllSessionsOf(db: Queryable, userId: number): Promise<number> {
  return revokeUserSessions(db, userId);
}
