import type { Queryable } from '../../db/pool.ts';
import { readChainLinks, readExpiredAuditRanges, readLinkAt, readUnlinkedRecords } from './audit.repository.ts';
import { linkHash } from './sealer.ts';

export type ChainProblemKind =
  /** The record, or its link, differs from when it was sealed. */
  | 'altered'
  /** A link that follows a broken one without matching the key: the chain was recomputed without it. */
  | 'recomputed'
  /** A sealed record is missing. */
  | 'deleted'
  /** A link does not name the previous link. */
  | 'broken-link'
  /** Positions skip: links were removed. */
  | 'gap'
  /** The chain ends before the head recorded elsewhere: its newest links were removed. */
  | 'truncated'
  /** The link at the recorded head's position is not the recorded one: the chain was rewritten. */
  | 'head-mismatch'
  /** A record that was never sealed: inserted around the queue, or left queued past the grace period. */
  | 'out-of-band';

export interface ChainProblem {
  kind: ChainProblemKind;
  position?: number;
  logId?: number;
  detail: string;
}

export interface ChainHead {
  position: number;
  /** hex */
  hash: string;
}

export interface ChainReport {
  /** Sealed records checked. */
  checked: number;
  problems: ChainProblem[];
  /** The newest link: keep it somewhere else and pass it back as `expect` to detect a removed tail. */
  head: ChainHead | null;
  /** Records queued for the sealer within the grace period: information, not a problem. */
  unsealed: number;
  /**
   * Sealed records whose audit month was dropped after six years (partition_drops): their links
   * still chain, but their content can no longer be checked. Information, not a problem.
   */
  expired: number;
}

/** How long a record may wait for the sealer before it counts as an out-of-band insert. */
export const DEFAULT_GRACE_MS = 60_000;
const BATCH = 20_000;
const LISTED = 1_000;

/** Parses `HEAD@POSITION` (hex link, position), as `audit:verify` prints the head. */
export function parseExpectedHead(text: string): ChainHead | undefined {
  const m = /^([0-9a-fA-F]{64})@([1-9]\d{0,15})$/.exec(text.trim());
  return m ? { hash: m[1]!.toLowerCase(), position: Number(m[2]) } : undefined;
}

export const formatHead = (head: ChainHead) => `${head.hash}@${head.position}`;

/**
 * Walks the keyed chain in position order and recomputes every link with the key from the
 * records as they are now; then checks the expected head, if given, and the records outside the
 * chain. See sealer.ts for how the chain is made.
 */
export async function verifyAuditChain(
  db: Queryable,
  key: Buffer,
  opts: { expect?: ChainHead; graceMs?: number } = {},
): Promise<ChainReport> {
  const problems: ChainProblem[] = [];
  const add = (p: ChainProblem) => {
    if (problems.length < LISTED) problems.push(p);
  };
  let prevHash: Buffer = Buffer.alloc(0);
  let prevPosition = 0;
  let prevValid = true;
  let checked = 0;
  let expired = 0;
  const expiredRanges = await readExpiredAuditRanges(db);
  const inExpiredMonth = (logId: number) => expiredRanges.some((r) => logId >= r.first_id && logId <= r.last_id);
  for (;;) {
    const rows = await readChainLinks(db, prevPosition, BATCH);
    if (rows.length === 0) break;
    for (const r of rows) {
      checked++;
      if (r.position !== prevPosition + 1) {
        add({ kind: 'gap', position: r.position, detail: `links ${prevPosition + 1}..${r.position - 1} are missing` });
      }
      const follows = r.prev_hash.equals(prevHash);
      if (!follows)
        add({
          kind: 'broken-link',
          position: r.position,
          logId: r.log_id,
          detail: 'link does not follow the previous one',
        });
      let valid = false;
      if (r.row_hash === null && inExpiredMonth(r.log_id)) {
        // Dropped with its month by the retention, which the database allows only after six
        // years and records with the month's ids: the link is taken as it is.
        expired++;
        valid = true;
      } else if (r.row_hash === null) {
        add({ kind: 'deleted', position: r.position, logId: r.log_id, detail: 'sealed audit record is missing' });
      } else {
        valid = linkHash(key, r.position, r.prev_hash, r.row_hash).equals(r.hash);
        if (!valid) {
          add(
            !prevValid && follows
              ? { kind: 'recomputed', position: r.position, logId: r.log_id, detail: 'link recomputed without the key' }
              : {
                  kind: 'altered',
                  position: r.position,
                  logId: r.log_id,
                  detail: 'audit record or its link differs from when it was sealed',
                },
          );
        }
      }
      prevValid = valid;
      prevHash = r.hash;
      prevPosition = r.position;
    }
  }
  const head = checked > 0 ? { position: prevPosition, hash: prevHash.toString('hex') } : null;

  if (opts.expect) {
    const at = await readLinkAt(db, opts.expect.position);
    if (at === null && opts.expect.position > prevPosition) {
      add({
        kind: 'truncated',
        position: opts.expect.position,
        detail: `the chain ends at ${prevPosition}, before the expected head at ${opts.expect.position}: its newest links were removed`,
      });
    } else if (at === null || at.toString('hex') !== opts.expect.hash) {
      add({
        kind: 'head-mismatch',
        position: opts.expect.position,
        detail: 'the link at the expected head differs: the chain was rewritten',
      });
    }
  }

  const grace = opts.graceMs ?? DEFAULT_GRACE_MS;
  let unsealed = 0;
  for (const r of await readUnlinkedRecords(db, LISTED)) {
    if (r.queued_ms === null) {
      add({ kind: 'out-of-band', logId: r.id, detail: 'audit record was inserted around the sealer (never queued)' });
    } else if (r.queued_ms > grace) {
      add({
        kind: 'out-of-band',
        logId: r.id,
        detail: `audit record has not been sealed within ${Math.round(grace / 1000)} s`,
      });
    } else {
      unsealed++;
    }
  }
  return { checked, problems, head, unsealed, expired };
}
