import { INGESTION_REJECTIONS_KEPT, type IngestionSourceKind } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';

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
}

export interface RejectionRow {
  source_id: string;
  reason: string;
  device_identifier: string | null;
  created_at: Date;
}

const COLUMNS = 'id, name, kind, auth_header, can_read, secret_hash, created_at, rotated_at, revoked_at';

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
  },
): Promise<SourceRow> {
  const { rows } = await db.query<SourceRow>(
    `INSERT INTO ingestion_sources (id, name, kind, auth_header, can_read, secret_hash, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
    [s.id, s.name, s.kind, s.authHeader, s.canRead, s.secretHash, s.createdBy],
  );
  return rows[0]!;
}

export async function listSources(db: Queryable): Promise<SourceRow[]> {
  const { rows } = await db.query<SourceRow>(
    `SELECT ${COLUMNS} FROM ingestion_sources ORDER BY revoked_at IS NOT NULL, lower(name), created_at`,
  );
  return rows;
}

export async function findSource(db: Queryable, id: string): Promise<SourceRow | null> {
  const { rows } = await db.query<SourceRow>(`SELECT ${COLUMNS} FROM ingestion_sources WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** A new secret for a live source; null when the source is unknown or revoked. */
export async function replaceSecret(db: Queryable, id: string, secretHash: Buffer): Promise<SourceRow | null> {
  const { rows } = await db.query<SourceRow>(
    `UPDATE ingestion_sources SET secret_hash = $2, rotated_at = now()
      WHERE id = $1 AND revoked_at IS NULL RETURNING ${COLUMNS}`,
    [id, secretHash],
  );
  return rows[0] ?? null;
}

/** Revokes once: the first revocation time stays. Null when the source is unknown. */
export async function revokeSource(db: Queryable, id: string): Promise<SourceRow | null> {
  const { rows } = await db.query<SourceRow>(
    `UPDATE ingestion_sources SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING ${COLUMNS}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function recentRejections(db: Queryable, sourceIds: string[]): Promise<RejectionRow[]> {
  const { rows } = await db.query<RejectionRow>(
    `SELECT r.source_id, r.reason, r.device_identifier, r.created_at
       FROM unnest($1::uuid[]) s(id)
       CROSS JOIN LATERAL (
         SELECT source_id, reason, device_identifier, created_at FROM ingestion_rejections
          WHERE source_id = s.id ORDER BY id DESC LIMIT $2) r`,
    [sourceIds, INGESTION_REJECTIONS_KEPT],
  );
  return rows;
}

/** Records a refusal and keeps only the newest few per source. */
export async function insertRejection(
  db: Queryable,
  r: { sourceId: string; reason: string; deviceIdentifier: string | null },
): Promise<void> {
  await db.query(
    `WITH added AS (
       INSERT INTO ingestion_rejections (source_id, reason, device_identifier) VALUES ($1, left($2, 500), left($3, 100))
     )
     DELETE FROM ingestion_rejections WHERE source_id = $1 AND id <= (
       SELECT id FROM ingestion_rejections WHERE source_id = $1 ORDER BY id DESC OFFSET $4 - 1 LIMIT 1)`,
    [r.sourceId, r.reason, r.deviceIdentifier, INGESTION_REJECTIONS_KEPT],
  );
}
