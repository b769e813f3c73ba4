import { randomUUID } from 'node:crypto';
import type { IngestionSourceKind } from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../../src/db/pool.ts';
import { kysely } from '../../../src/db/kysely.ts';
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

/** Moves a source to an organization (a source acts for one; choosing it is the sources' page's part). */
export async function moveSource(db: Queryable, sourceId: string, organizationId: number): Promise<void> {
  await kysely(db)
    .updateTable('ingestion_sources')
    .set({ organization_id: organizationId })
    .where('id', '=', sourceId)
    .execute();
}

/** A source past its expiry (set by the owner: no one edits a source's expiry once made). */
export async function expireSource(db: Queryable, sourceId: string): Promise<void> {
  await kysely(db)
    .updateTable('ingestion_sources')
    .set({ expires_at: sql`now() - interval '1 second'` })
    .where('id', '=', sourceId)
    .execute();
}

/**
 * A source as migration 0950 left one made before organizations (no organization) and, with
 * `authHeader`, before the x- rule for secret headers. The checks that forbid such rows now are
 * dropped, the row written and the checks put back unvalidated, as the owner would repair around
 * them (give the owner's pool).
 */
export async function legacySource(db: Queryable, sourceId: string, o: { authHeader?: string } = {}): Promise<void> {
  const run = (statement: ReturnType<typeof sql>) => statement.execute(kysely(db));
  if (o.authHeader === undefined) {
    await run(sql`ALTER TABLE ingestion_sources DROP CONSTRAINT ingestion_sources_organization_required`);
    await kysely(db)
      .updateTable('ingestion_sources')
      .set({ organization_id: null })
      .where('id', '=', sourceId)
      .execute();
    await run(sql`
      ALTER TABLE ingestion_sources ADD CONSTRAINT ingestion_sources_organization_required
        CHECK (organization_id IS NOT NULL OR revoked_at IS NOT NULL) NOT VALID`);
    return;
  }
  await run(sql`
    ALTER TABLE ingestion_sources DROP CONSTRAINT ingestion_sources_organization_required,
                                  DROP CONSTRAINT ingestion_sources_auth_header_custom`);
  await kysely(db)
    .updateTable('ingestion_sources')
    .set({ organization_id: null, auth_header: o.authHeader })
    .where('id', '=', sourceId)
    .execute();
  await run(sql`
    ALTER TABLE ingestion_sources
      ADD CONSTRAINT ingestion_sources_organization_required
        CHECK (organization_id IS NOT NULL OR revoked_at IS NOT NULL) NOT VALID,
      ADD CONSTRAINT ingestion_sources_auth_header_custom
        CHECK (auth_header IS NULL OR revoked_at IS NOT NULL
               OR (auth_header ~ '^x-[a-z0-9-]{1,62}$'
                   AND auth_header !~ '^x-(forwarded|real-ip|client-ip|request-id|requested-with|correlation-id|amz|amzn|csrf|xsrf|http-method|original)'))
        NOT VALID`);
}
