import { INGESTION_REJECTIONS_KEPT, type IngestionSourceKind } from '@rpm/contracts';
import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';
import { runPrepared } from './readings.repository.ts';

export interface SourceRow {
  id: string;
  name: string;
  kind: IngestionSourceKind;
  auth_header: string | null;
  can_read: boolean;
  secret_hash: Buffer;
  created_at: Date;
  rotated_at: Date | null;
  revoked_at: Date | null;
  /** Null only for a source made before sources had one, with several organizations: refused. */
  organization_id: number | null;
  expires_at: Date | null;
}

export interface RejectionRow {
  source_id: string;
  reason: string;
  device_identifier: string | null;
  created_at: Date;
}

const COLUMNS = [
  'id',
  'name',
  'kind',
  'auth_header',
  'can_read',
  'secret_hash',
  'created_at',
  'rotated_at',
  'revoked_at',
  'organization_id',
  'expires_at',
] as const;

// The table's CHECK constraint holds `kind` to the contract's values.
type Narrowed = { kind: IngestionSourceKind };

/**
 * Through the migration's function: the runtime role may not write a secret hash itself (0951).
 * Answers the stored row.
 */
export async function insertSource(
  db: Queryable,
  s: {
    id: string;
    name: string;
    kind: IngestionSourceKind;
    authHeader: string | null;
    canRead: boolean;
    secretHash: Buffer;
    createdBy: number;
    organizationId: number;
    expiresAt: Date | null;
  },
): Promise<SourceRow> {
  await sql`SELECT rpm_create_ingestion_source(${s.id}::uuid, ${s.name}::text, ${s.kind}::text, ${s.authHeader}::text,
              ${s.canRead}::boolean, ${s.secretHash}::bytea, ${s.createdBy}::integer, ${s.organizationId}::integer,
              ${s.expiresAt}::timestamptz)`.execute(kysely(db));
  return kysely(db)
    .selectFrom('ingestion_sources')
    .select(COLUMNS)
    .$narrowType<Narrowed>()
    .where('id', '=', s.id)
    .executeTakeFirstOrThrow();
}

export async function listSources(db: Queryable): Promise<SourceRow[]> {
  return kysely(db)
    .selectFrom('ingestion_sources')
    .select(COLUMNS)
    .$narrowType<Narrowed>()
    .orderBy((eb) => eb('revoked_at', 'is not', null))
    .orderBy((eb) => eb.fn('lower', ['name']))
    .orderBy('created_at')
    .execute();
}

/** A source id as the routes accept it: anything else is no source, and never goes into SQL. */
const SOURCE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The source lookup as a statement without parameters, to go with BEGIN in one round trip
 * (beginTransaction's `opening`): its rows are SourceRows. The id is a literal, and only an id of
 * the UUID form is put there; null for any other (no source has it).
 */
export function findSourceOpening(db: Queryable, id: string): string | null {
  if (!SOURCE_ID.test(id)) return null;
  return kysely(db)
    .selectFrom('ingestion_sources')
    .select(COLUMNS)
    .where('id', '=', sql.lit(id))
    .compile().sql;
}

/** Every ingestion call starts here: a prepared statement, parsed once per connection. */
export async function findSource(db: Queryable, id: string): Promise<SourceRow | null> {
  const query = kysely(db)
    .selectFrom('ingestion_sources')
    .select(COLUMNS)
    .$narrowType<Narrowed>()
    .where('id', '=', id)
    .compile();
  return (await runPrepared(db, 'ingest_find_source', query))[0] ?? null;
}

/**
 * A new secret for a live source, through the migration's function (the runtime role may not
 * write a secret hash itself); a read key's expiry is renewed. Null when the source is unknown or
 * revoked.
 */
export async function replaceSecret(
  db: Queryable,
  id: string,
  secretHash: Buffer,
  readKeyDefaultDays: number,
): Promise<SourceRow | null> {
  const { rows } = await sql<{ rotated: boolean }>`
    SELECT rpm_rotate_ingestion_source(${id}::uuid, ${secretHash}::bytea, ${readKeyDefaultDays}::integer) AS rotated`.execute(
    kysely(db),
  );
  if (!rows[0]?.rotated) return null;
  return (
    (await kysely(db)
      .selectFrom('ingestion_sources')
      .select(COLUMNS)
      .$narrowType<Narrowed>()
      .where('id', '=', id)
      .executeTakeFirst()) ?? null
  );
}

/**
 * Gives a source made before sources had an organization its organization, once: a source that
 * has one keeps it (moving a key to other patients is a new source). Null when the source is
 * unknown, revoked or has an organization already.
 */
export async function assignOrganization(db: Queryable, id: string, organizationId: number): Promise<SourceRow | null> {
  const row = await kysely(db)
    .updateTable('ingestion_sources')
    .set({ organization_id: organizationId })
    .where('id', '=', id)
    .where('organization_id', 'is', null)
    .where('revoked_at', 'is', null)
    .returning(COLUMNS)
    .$narrowType<Narrowed>()
    .executeTakeFirst();
  return row ?? null;
}

/** Revokes once: the first revocation time stays. Null when the source is unknown. */
export async function revokeSource(db: Queryable, id: string): Promise<SourceRow | null> {
  const row = await kysely(db)
    .updateTable('ingestion_sources')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', id)
    .returning(COLUMNS)
    .$narrowType<Narrowed>()
    .executeTakeFirst();
  return row ?? null;
}

/** The newest few refusals of each source, in one statement whatever the number of sources. */
export async function recentRejections(db: Queryable, sourceIds: string[]): Promise<RejectionRow[]> {
  if (sourceIds.length === 0) return [];
  return kysely(db)
    .selectFrom(sql<{ id: string }>`(SELECT unnest(${sourceIds}::uuid[]) AS id)`.as('s'))
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('ingestion_rejections')
          .select(['source_id', 'reason', 'device_identifier', 'created_at'])
          .whereRef('source_id', '=', 's.id')
          .orderBy('id', 'desc')
          .limit(INGESTION_REJECTIONS_KEPT)
          .as('r'),
      (join) => join.onTrue(),
    )
    .select(['r.source_id', 'r.reason', 'r.device_identifier', 'r.created_at'])
    .execute();
}

/** Records a refusal and keeps only the newest few per source. */
export async function insertRejection(
  db: Queryable,
  r: { sourceId: string; reason: string; deviceIdentifier: string | null },
): Promise<void> {
  await kysely(db)
    .with('added', (qb) =>
      qb.insertInto('ingestion_rejections').values({
        source_id: r.sourceId,
        reason: sql<string>`left(${r.reason}, 500)`,
        device_identifier: sql<string | null>`left(${r.deviceIdentifier}, 100)`,
      }),
    )
    .deleteFrom('ingestion_rejections')
    .where('source_id', '=', r.sourceId)
    .where('id', '<=', (eb) =>
      eb
        .selectFrom('ingestion_rejections')
        .select('id')
        .where('source_id', '=', r.sourceId)
        .orderBy('id', 'desc')
        .offset(INGESTION_REJECTIONS_KEPT - 1)
        .limit(1),
    )
    .execute();
}
