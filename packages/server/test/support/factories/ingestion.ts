import { randomUUID } from 'node:crypto';
import type { IngestionSourceKind } from '@rpm/contracts';
import type { Queryable } from '../../../src/db/pool.ts';
import { insertSource } from '../../../src/modules/ingestion/ingestion-sources.repository.ts';
import { hashSecret, newSourceSecret } from '../../../src/modules/ingestion/source-secret.ts';
import { unique } from './common.ts';

/**
 * An ingestion source (a device cloud or a FHIR caller) of an organization, made as the API makes
 * one (through the database function the runtime role may call); answers its id and secret.
 */
export async function buildSource(
  db: Queryable,
  s: {
    organizationId: number;
    name?: string;
    kind?: IngestionSourceKind;
    authHeader?: string | null;
    canRead?: boolean;
    /** None by default: the column allows it, and most tests do not care who made the source. */
    createdBy?: number | null;
    expiresAt?: Date | null;
  },
): Promise<{ id: string; secret: string }> {
  const id = randomUUID();
  const secret = newSourceSecret(id);
  await insertSource(db, {
    id,
    name: s.name ?? unique('Source'),
    kind: s.kind ?? 'tenovi',
    authHeader: s.authHeader ?? null,
    canRead: s.canRead ?? false,
    secretHash: hashSecret(secret),
    createdBy: (s.createdBy ?? null) as number,
    organizationId: s.organizationId,
    expiresAt: s.expiresAt ?? null,
  });
  return { id, secret };
}
