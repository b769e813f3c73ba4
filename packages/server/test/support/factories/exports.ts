import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Queryable } from '../../../src/db/pool.ts';
import { kysely } from '../../../src/db/kysely.ts';

/** An export request row held in a state (no job takes it), for limits on exports in flight. */
export async function buildBulkExport(
  db: Queryable,
  e: {
    organizationId: number;
    requesterKind: 'staff' | 'client';
    requesterId: string;
    status: string;
    types?: string[];
  },
): Promise<string> {
  const { id } = await kysely(db)
    .insertInto('bulk_exports')
    .values({
      id: randomUUID(),
      organization_id: e.organizationId,
      requester_kind: e.requesterKind,
      requester_id: e.requesterId,
      types: e.types ?? ['Patient'],
      status: e.status,
      request_url: 'test',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** An export that failed with `error`, as the export job records a failure. */
export async function failExport(db: Queryable, id: string, error: string): Promise<void> {
  await kysely(db).updateTable('bulk_exports').set({ status: 'failed', error }).where('id', '=', id).execute();
}

/** An export past its expiry (its files are due for removal). */
export async function expireExport(db: Queryable, id: string): Promise<void> {
  await kysely(db)
    .updateTable('bulk_exports')
    .set({ expires_at: sql`now() - interval '1 second'` })
    .where('id', '=', id)
    .execute();
}

/** An export that never finished, asked for `askedAgo` (an SQL interval) ago. */
export async function stallExport(db: Queryable, id: string, askedAgo: string): Promise<void> {
  await kysely(db)
    .updateTable('bulk_exports')
    .set({ status: 'running', expires_at: null, created_at: sql`now() - ${askedAgo}::interval` })
    .where('id', '=', id)
    .execute();
}
