import type { AuditOutcome } from '@rpm/contracts';
import type { Queryable } from '../../db/pool.ts';

export interface AuditEntry {
  action: string;
  outcome: AuditOutcome;
  resourceType?: string | null;
  resourceId?: string | number | null;
  details?: Record<string, unknown> | null;
  targetUserId?: number | null;
  reason?: string | null;
  userId?: number | null;
  ipAddress?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
}

export async function insertAuditLog(db: Queryable, e: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO audit_logs (user_id, ip_address, action, resource_type, resource_id, details,
       target_user_id, outcome, reason, user_agent, request_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      e.userId ?? null,
      e.ipAddress ?? null,
      e.action,
      e.resourceType ?? null,
      e.resourceId === undefined || e.resourceId === null ? null : String(e.resourceId),
      e.details ? JSON.stringify(e.details) : null,
      e.targetUserId ?? null,
      e.outcome,
      e.reason ?? null,
      e.userAgent ?? null,
      e.requestId ?? null,
    ],
  );
}

/** One audit record as GET /api/audit-logs answers it (every field of the spec, plus id). */
export interface AuditLogRow {
  id: number;
  timestamp: Date;
  user_id: number | null;
  ip_address: string | null;
  action: string;
  resource_type: string | null;
  resource_id: string | null;
  details: Record<string, unknown> | null;
  target_user_id: number | null;
  outcome: string;
  reason: string | null;
  user_agent: string | null;
  request_id: string | null;
}

/**
 * One page, newest first, at any offset, exact. Every committed record is, in any snapshot, in
 * exactly one of two places (sealer.ts): the queue of records not sealed yet (at most a few
 * hundred milliseconds' worth, listed first, by id, newest first), or the keyed chain at a dense
 * position 1..n (listed after them, newest position first). The sealer appends a batch in id
 * order above every earlier position, so a record keeps its place in the list when it is sealed.
 * An offset beyond the queue is a range of the chain's unique position index rather than a walk
 * past the skipped rows, so deep pages cost what the first one does.
 */
export async function listAuditLogPage(db: Queryable, limit: number, offset: number): Promise<AuditLogRow[]> {
  const { rows } = await db.query<AuditLogRow>(
    `WITH unsealed AS (
       SELECT 0 AS part, log_id AS key, log_id FROM audit_unsealed ORDER BY log_id DESC OFFSET $2 LIMIT $1
     ), sealed AS (
       SELECT 1 AS part, position AS key, log_id FROM audit_chain
        WHERE position <= (SELECT coalesce(max(position), 0) FROM audit_chain)
                          - greatest($2 - (SELECT count(*) FROM audit_unsealed), 0)
        ORDER BY position DESC LIMIT $1
     )
     SELECT a.id, a."timestamp", a.user_id, a.ip_address, a.action, a.resource_type, a.resource_id,
            a.details, a.target_user_id, a.outcome, a.reason, a.user_agent, a.request_id
       FROM (SELECT * FROM unsealed UNION ALL SELECT * FROM sealed) p JOIN audit_logs a ON a.id = p.log_id
      ORDER BY p.part, p.key DESC
      LIMIT $1`,
    [limit, offset],
  );
  return rows;
}

/** The number of committed records: the last sealed position plus the (short) queue. */
export async function auditLogTotal(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT (SELECT coalesce(max(position), 0) FROM audit_chain) + (SELECT count(*) FROM audit_unsealed) AS n`,
  );
  return rows[0]!.n;
}

// ---- the sealer's and the verifier's SQL ------------------------------------------------------

/** Queued records, oldest id first, with the digest of their content (null: record missing). */
export async function readUnsealed(db: Queryable, limit: number): Promise<{ log_id: number; row_hash: Buffer | null }[]> {
  const { rows } = await db.query<{ log_id: number; row_hash: Buffer | null }>(
    `SELECT u.log_id, CASE WHEN a.id IS NULL THEN NULL ELSE audit_row_hash(a) END AS row_hash
       FROM audit_unsealed u LEFT JOIN audit_logs a ON a.id = u.log_id
      ORDER BY u.log_id LIMIT $1`,
    [limit],
  );
  return rows;
}

export async function readChainHead(db: Queryable): Promise<{ position: number; hash: Buffer } | null> {
  const { rows } = await db.query<{ position: number; hash: Buffer }>(
    'SELECT position, hash FROM audit_chain ORDER BY position DESC LIMIT 1',
  );
  return rows[0] ?? null;
}

/** Appends links and takes their records (and queue entries of missing records) off the queue. */
export async function appendLinks(
  db: Queryable,
  links: { position: number; logId: number; prevHash: Buffer; hash: Buffer }[],
  orphans: number[],
): Promise<void> {
  if (links.length > 0) {
    await db.query(
      `INSERT INTO audit_chain (position, log_id, prev_hash, hash)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bytea[], $4::bytea[])`,
      [links.map((l) => l.position), links.map((l) => l.logId), links.map((l) => l.prevHash), links.map((l) => l.hash)],
    );
  }
  const done = [...links.map((l) => l.logId), ...orphans];
  await db.query('DELETE FROM audit_unsealed WHERE log_id = ANY($1::bigint[])', [done]);
}

export interface ChainLinkRow {
  position: number;
  log_id: number;
  prev_hash: Buffer;
  hash: Buffer;
  row_hash: Buffer | null;
}

/** Links after `position`, in order, with the digest of their record as it is now. */
export async function readChainLinks(db: Queryable, afterPosition: number, limit: number): Promise<ChainLinkRow[]> {
  const { rows } = await db.query<ChainLinkRow>(
    `SELECT c.position, c.log_id, c.prev_hash, c.hash,
            CASE WHEN a.id IS NULL THEN NULL ELSE audit_row_hash(a) END AS row_hash
       FROM audit_chain c LEFT JOIN audit_logs a ON a.id = c.log_id
      WHERE c.position > $1 ORDER BY c.position LIMIT $2`,
    [afterPosition, limit],
  );
  return rows;
}

export async function readLinkAt(db: Queryable, position: number): Promise<Buffer | null> {
  const { rows } = await db.query<{ hash: Buffer }>('SELECT hash FROM audit_chain WHERE position = $1', [position]);
  return rows[0]?.hash ?? null;
}

/** Records in no link, with how long they have been queued by the database's clock (null: not queued). */
export async function readUnlinkedRecords(db: Queryable, limit: number): Promise<{ id: number; queued_ms: number | null }[]> {
  const { rows } = await db.query<{ id: number; queued_ms: number | null }>(
    `SELECT a.id, (extract(epoch FROM now() - u.queued_at) * 1000)::float8 AS queued_ms
       FROM audit_logs a
       LEFT JOIN audit_chain c ON c.log_id = a.id
       LEFT JOIN audit_unsealed u ON u.log_id = a.id
      WHERE c.log_id IS NULL
      ORDER BY a.id LIMIT $1`,
    [limit],
  );
  return rows;
}
