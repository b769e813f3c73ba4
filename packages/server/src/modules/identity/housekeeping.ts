import type { Queryable } from '../../db/pool.ts';
import { deleteOldAttempts } from './repositories/attempts.repository.ts';
import { deleteExpiredChallenges } from './repositories/pending-challenges.repository.ts';
import { deleteOutboxOlderThan } from './repositories/outbox.repository.ts';
import { deleteExpiredRefreshTokens } from './repositories/refresh-tokens.repository.ts';
import { deleteExpiredResetCodes } from './repositories/reset-codes.repository.ts';
import { deleteExpiredResetDecoys } from './repositories/reset-decoys.repository.ts';

/**
 * The local pool's housekeeping, run every few minutes: nothing older than a day is ever counted,
 * challenges, codes and decoys die when they expire, a refresh token a day after, and messages
 * live `outboxRetentionDays` at most.
 */
export async function pruneExpired(db: Queryable, outboxRetentionDays: number): Promise<void> {
  await deleteOldAttempts(db);
  await deleteExpiredChallenges(db);
  await deleteExpiredResetCodes(db);
  await deleteExpiredResetDecoys(db);
  await deleteExpiredRefreshTokens(db);
  await deleteOutboxOlderThan(db, outboxRetentionDays);
}
