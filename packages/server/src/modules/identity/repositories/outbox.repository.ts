import { sql } from 'kysely';
import { kysely } from '../../../db/kysely.ts';
import type { Queryable } from '../../../db/pool.ts';

/** identity.outbox: the pool's messages when no SMTP server is configured (see mailer.ts). */

export interface OutboxRow {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  body: string;
  created_at: Date;
}

export async function insertOutbox(
  db: Queryable,
  m: { kind: 'invitation' | 'reset-code' | 'critical-alert' | 'alert-escalation'; recipient: string; subject: string; body: string },
): Promise<void> {
  await kysely(db).insertInto('identity.outbox').values(m).execute();
}

export async function latestOutbox(db: Queryable, recipient: string): Promise<Omit<OutboxRow, 'id'> | null> {
  const row = await kysely(db)
    .selectFrom('identity.outbox')
    .select(['kind', 'recipient', 'subject', 'body', 'created_at'])
    .where('recipient', '=', recipient)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/** Messages an operator still has to deliver, oldest first. */
export async function undeliveredOutbox(db: Queryable): Promise<OutboxRow[]> {
  return kysely(db)
    .selectFrom('identity.outbox')
    .select(['id', 'kind', 'recipient', 'subject', 'body', 'created_at'])
    .where('delivered_at', 'is', null)
    .orderBy('id')
    .execute();
}

export async function markOutboxDelivered(db: Queryable, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await kysely(db)
    .updateTable('identity.outbox')
    .set({ delivered_at: sql<Date>`now()` })
    .where('id', 'in', ids)
    .execute();
}

export async function deleteOutboxOlderThan(db: Queryable, days: number): Promise<void> {
  await kysely(db)
    .deleteFrom('identity.outbox')
    .where('created_at', '<', sql<Date>`now() - make_interval(days => ${days})`)
    .execute();
}
