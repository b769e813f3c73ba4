import { randomUUID } from 'node:crypto';
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
