import { sql } from 'kysely';
import type { Queryable } from '../../db/pool.ts';
import { kysely } from '../../db/kysely.ts';

/** One audit record as stored (every field of the spec, plus id). */
export interface AuditLogRow {
  id: number;
  timestamp: Date;
  user_id: number | null;
  ip_address: string | null;
  action: string;
  resource_type: string | null;
  resource_id: string | null;
  details: unknown;
  target_user_id: number | null;
  outcome: string;
  reason: string | null;
  user_agent: string | null;
  request_id: string | null;
}

/**
 * Starts the read of a page and its total in one snapshot, so that they agree with each other.
 * Call first in the transaction.
 */
export async function beginSnapshotRead(db: Queryable): Promise<void> {
  await sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`.execute(kysely(db));
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
  // The newest position still on this page once the queue's records have taken their places.
  const highestPosition = sql<number>`(SELECT coalesce(max(position), 0) FROM audit_chain)
    - greatest(${offset}::bigint - (SELECT count(*) FROM audit_unsealed), 0)`;
  return kysely(db)
    .with('unsealed', (qb) =>
      qb
        .selectFrom('audit_unsealed')
        .select([sql<number>`0`.as('part'), 'log_id as key', 'log_id'])
        .orderBy('log_id', 'desc')
        .offset(offset)
        .limit(limit),
    )
    .with('sealed', (qb) =>
      qb
        .selectFrom('audit_chain')
        .select([sql<number>`1`.as('part'), 'position as key', 'log_id'])
        .where('position', '<=', highestPosition)
        .orderBy('position', 'desc')
        .limit(limit),
    )
    .selectFrom((qb) => qb.selectFrom('unsealed').selectAll().unionAll(qb.selectFrom('sealed').selectAll()).as('p'))
    .innerJoin('audit_logs as a', 'a.id', 'p.log_id')
    .select([
      'a.id',
      'a.timestamp',
      'a.user_id',
      'a.ip_address',
      'a.action',
      'a.resource_type',
      'a.resource_id',
      'a.details',
      'a.target_user_id',
      'a.outcome',
      'a.reason',
      'a.user_agent',
      'a.request_id',
    ])
    .orderBy('p.part')
    .orderBy('p.key', 'desc')
    .limit(limit)
    .execute();
}

/** The number of committed records: the last sealed position plus the (short) queue. */
export async function auditLogTotal(db: Queryable): Promise<number> {
  const row = await kysely(db)
    .selectNoFrom((eb) => [
      sql<number>`${eb.selectFrom('audit_chain').select(sql<number>`coalesce(max(position), 0)`.as('m'))}
        + ${eb.selectFrom('audit_unsealed').select(eb.fn.countAll().as('c'))}`.as('n'),
    ])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---- the sealer's and the verifier's SQL ------------------------------------------------------

// Any fixed number, the same in every instance of the portal.
const SEAL_LOCK = 727_003;

/** One sealer at a time across all instances: false when another holds the lock (till its commit). */
export async function trySealerLock(db: Queryable): Promise<boolean> {
  // An advisory lock has no query-builder form.
  const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(${SEAL_LOCK}) AS locked`.execute(
    kysely(db),
  );
  return rows[0]!.locked;
}

/** The digest the chain links, of record `a` as it is now; null when the record is missing. */
const rowHashOf = sql<Buffer | null>`CASE WHEN a.id IS NULL THEN NULL ELSE audit_row_hash(a) END`;

/** Queued records, oldest id first, with the digest of their content (null: record missing). */
export async function readUnsealed(
  db: Queryable,
  limit: number,
): Promise<{ log_id: number; row_hash: Buffer | null }[]> {
  // Each queued record is looked up by its id and time, one probe of one month table's key
  // (migration 1080). LATERAL with LIMIT keeps it a lookup per queued record: as a plain join it was
  // costed from the queue's statistics, and a queue once analyzed large had every month table read
  // whole.
  return kysely(db)
    .selectFrom('audit_unsealed as u')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('audit_logs as a')
          .select(sql<Buffer>`audit_row_hash(a)`.as('row_hash'))
          .whereRef('a.id', '=', 'u.log_id')
          .whereRef('a.timestamp', '=', 'u.logged_at')
          .limit(1)
          .as('r'),
      (join) => join.onTrue(),
    )
    .select(['u.log_id', 'r.row_hash'])
    .orderBy('u.log_id')
    .limit(limit)
    .execute();
}

export async function readChainHead(db: Queryable): Promise<{ position: number; hash: Buffer } | null> {
  const row = await kysely(db)
    .selectFrom('audit_chain')
    .select(['position', 'hash'])
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/** Appends links and takes their records (and queue entries of missing records) off the queue. */
export async function appendLinks(
  db: Queryable,
  links: { position: number; logId: number; prevHash: Buffer; hash: Buffer }[],
  orphans: number[],
): Promise<void> {
  const k = kysely(db);
  if (links.length > 0) {
    await k
      .insertInto('audit_chain')
      .values(links.map((l) => ({ position: l.position, log_id: l.logId, prev_hash: l.prevHash, hash: l.hash })))
      .execute();
  }
  const done = [...links.map((l) => l.logId), ...orphans];
  // The runtime role may not delete from the queue (0955): the owner's function removes only the
  // entries of records linked by now (the inserts above) or gone.
  if (done.length > 0) {
    await k
      .selectNoFrom((eb) => eb.fn<number>('audit_unsealed_take_sealed', [sql`${done}::bigint[]`]).as('taken'))
      .execute();
  }
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
  return kysely(db)
    .selectFrom('audit_chain as c')
    .leftJoin('audit_logs as a', 'a.id', 'c.log_id')
    .select(['c.position', 'c.log_id', 'c.prev_hash', 'c.hash', rowHashOf.as('row_hash')])
    .where('c.position', '>', afterPosition)
    .orderBy('c.position')
    .limit(limit)
    .execute();
}

export async function readLinkAt(db: Queryable, position: number): Promise<Buffer | null> {
  const row = await kysely(db)
    .selectFrom('audit_chain')
    .select('hash')
    .where('position', '=', position)
    .executeTakeFirst();
  return row?.hash ?? null;
}

/** Records in no link, with how long they have been queued by the database's clock (null: not queued). */
export async function readUnlinkedRecords(
  db: Queryable,
  limit: number,
): Promise<{ id: number; queued_ms: number | null }[]> {
  return kysely(db)
    .selectFrom('audit_logs as a')
    .leftJoin('audit_chain as c', 'c.log_id', 'a.id')
    .leftJoin('audit_unsealed as u', 'u.log_id', 'a.id')
    .select(['a.id', sql<number | null>`(extract(epoch FROM now() - u.queued_at) * 1000)::float8`.as('queued_ms')])
    .where('c.log_id', 'is', null)
    .orderBy('a.id')
    .limit(limit)
    .execute();
}

/**
 * The id ranges of audit month tables dropped by retention (migration 1000): their links stay in
 * the chain while their records are gone on purpose.
 */
export async function readExpiredAuditRanges(
  db: Queryable,
): Promise<{ month: string; first_id: number; last_id: number }[]> {
  const rows = await kysely(db)
    .selectFrom('partition_drops')
    .select(['month', 'first_id', 'last_id'])
    .where('base', '=', 'audit_logs')
    .where('first_id', 'is not', null)
    .orderBy('first_id')
    .execute();
  return rows.map((r) => ({ month: r.month, first_id: r.first_id!, last_id: r.last_id! }));
}
