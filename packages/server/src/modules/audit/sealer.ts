import { createHmac } from 'node:crypto';
import type pg from 'pg';
import { withTransaction } from '../../db/pool.ts';
import { appendLinks, readChainHead, readUnsealed, trySealerLock } from './audit.repository.ts';

/*
 * Why a sealer.
 *
 * The audit chain is keyed: link(n) = HMAC(key, position(n) | link(n-1) | row_hash(record n)),
 * with the key kept outside the database (AUDIT_HMAC_KEY or a key file in the data directory). A
 * database owner who edits a record and recomputes the later links cannot produce valid links,
 * and `audit:verify` (audit-chain.ts) tells an altered record from a recomputed chain.
 *
 * A key that the database never sees cannot be used by a trigger, and linking inside each
 * request's commit would in any case make every writer queue behind one global lock (the chain
 * is a single sequence). So requests only write their record, in the same transaction as the
 * change it records and before any answer leaves; a trigger queues the record's id in
 * `audit_unsealed` (a plain insert, no lock). This sealer, every SEAL_INTERVAL_MS, takes the
 * queued records and links them in one batch, in one transaction that inserts the links and
 * removes the queue entries together, so that every committed record is, in any snapshot,
 * either sealed or queued, never both nor neither. Records are linked in id order within a
 * batch; a record committed late joins a later batch. One sealer at a time across all
 * instances: a transaction-level `pg_try_advisory_xact_lock`; an instance that does not get it
 * simply tries again at its next tick.
 *
 * The window: a record is unsealed for a few hundred milliseconds. `audit:verify` reports
 * queued records as information while recent, and any record neither sealed nor queued, or
 * queued for longer than a grace period, as a problem (an out-of-band insert, or a sealer that
 * has stopped). Whoever can write to the database could still remove a record in that short
 * window; keeping a recent head elsewhere (`--expect`) bounds what can go unnoticed before it.
 */

export const SEAL_INTERVAL_MS = 250;
export const SEAL_BATCH = 2_000;
const LINK_DOMAIN = Buffer.from('rpm-audit-link-v1');

/** The keyed link of the record at `position`, after `prev` (empty before the first). */
export function linkHash(key: Buffer, position: number, prev: Buffer, rowHash: Buffer): Buffer {
  const pos = Buffer.alloc(8);
  pos.writeBigUInt64BE(BigInt(position));
  return createHmac('sha256', key).update(LINK_DOMAIN).update(pos).update(prev).update(rowHash).digest();
}

/**
 * How a batch of queued records is read, with their digests: the queue as the current schema has
 * it. A test of a migration passes the reader of the schema it starts from.
 */
export type UnsealedReader = (
  tx: pg.PoolClient,
  limit: number,
) => Promise<{ log_id: number; row_hash: Buffer | null }[]>;

/**
 * Links one batch of queued records. Answers how many were sealed, or null when another sealer
 * holds the lock.
 */
export async function sealBatch(
  pool: pg.Pool,
  key: Buffer,
  batch = SEAL_BATCH,
  read: UnsealedReader = readUnsealed,
): Promise<number | null> {
  return withTransaction(pool, async (tx) => {
    if (!(await trySealerLock(tx))) return null;
    const pending = await read(tx, batch);
    if (pending.length === 0) return 0;
    const head = await readChainHead(tx);
    let position = head?.position ?? 0;
    let prev = head?.hash ?? Buffer.alloc(0);
    const links: { position: number; logId: number; prevHash: Buffer; hash: Buffer }[] = [];
    const orphans: number[] = [];
    for (const r of pending) {
      // A queue entry whose record is gone: the verifier reports the record's absence, if any.
      if (r.row_hash === null) {
        orphans.push(r.log_id);
        continue;
      }
      position++;
      const hash = linkHash(key, position, prev, r.row_hash);
      links.push({ position, logId: r.log_id, prevHash: prev, hash });
      prev = hash;
    }
    await appendLinks(tx, links, orphans);
    return links.length;
  });
}

/** Seals until the queue is empty (or another instance holds the lock). */
export async function sealPending(pool: pg.Pool, key: Buffer, read?: UnsealedReader): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await sealBatch(pool, key, SEAL_BATCH, read);
    if (n === null) return total;
    total += n;
    if (n < SEAL_BATCH) return total;
  }
}

export interface Sealer {
  /** Stops the timer and seals what is queued, so that a clean shutdown leaves nothing unsealed. */
  stop(): Promise<void>;
}

export function startSealer(opts: {
  pool: pg.Pool;
  key: Buffer;
  intervalMs?: number;
  onError?: (err: Error) => void;
}): Sealer {
  const interval = opts.intervalMs ?? SEAL_INTERVAL_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let failing = false;
  const tick = () => {
    running = sealPending(opts.pool, opts.key)
      .then(() => {
        failing = false;
      })
      .catch((err: Error) => {
        // One report per outage, not one every tick.
        if (!failing) opts.onError?.(err);
        failing = true;
      })
      .finally(() => {
        if (!stopped) {
          timer = setTimeout(tick, interval);
          timer.unref();
        }
      });
  };
  timer = setTimeout(tick, interval);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await sealPending(opts.pool, opts.key).catch((err: Error) => opts.onError?.(err));
    },
  };
}
