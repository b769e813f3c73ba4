import { createHash } from 'node:crypto';
import type pg from 'pg';

export interface ChainProblem {
  kind: 'altered' | 'deleted' | 'unchained' | 'broken-link';
  seq?: number;
  logId: number;
  detail: string;
}

export interface ChainReport {
  checked: number;
  problems: ChainProblem[];
  /** The newest link: record it somewhere else to detect a truncated tail later. */
  head: { seq: number; hash: string } | null;
}

const BATCH = 20_000;

/**
 * Walks the hash chain in commit order and recomputes every link from the audit records as they
 * are now. Finds records altered after the fact, records deleted from under the chain, records
 * inserted without passing through the chain (triggers switched off), and links edited or removed.
 */
export async function verifyAuditChain(pool: pg.Pool): Promise<ChainReport> {
  const problems: ChainProblem[] = [];
  let prev: Buffer = Buffer.alloc(0);
  let lastSeq = 0;
  let checked = 0;
  let head: ChainReport['head'] = null;
  for (;;) {
    const { rows } = await pool.query<{
      seq: number;
      log_id: number;
      prev_hash: Buffer;
      hash: Buffer;
      row_hash: Buffer | null;
    }>(
      `SELECT c.seq, c.log_id, c.prev_hash, c.hash,
              CASE WHEN a.id IS NULL THEN NULL ELSE audit_row_hash(a) END AS row_hash
         FROM audit_chain c LEFT JOIN audit_logs a ON a.id = c.log_id
        WHERE c.seq > $1 ORDER BY c.seq LIMIT $2`,
      [lastSeq, BATCH],
    );
    if (rows.length === 0) break;
    for (const r of rows) {
      checked++;
      if (!r.prev_hash.equals(prev)) {
        problems.push({ kind: 'broken-link', seq: r.seq, logId: r.log_id, detail: 'link does not follow the previous one' });
      }
      if (r.row_hash === null) {
        problems.push({ kind: 'deleted', seq: r.seq, logId: r.log_id, detail: 'audit record is missing' });
      } else {
        const expected = createHash('sha256').update(Buffer.concat([r.prev_hash, r.row_hash])).digest();
        if (!expected.equals(r.hash)) {
          problems.push({ kind: 'altered', seq: r.seq, logId: r.log_id, detail: 'audit record differs from when it was written' });
        }
      }
      prev = r.hash;
      lastSeq = r.seq;
      head = { seq: r.seq, hash: r.hash.toString('hex') };
    }
  }
  const unchained = await pool.query<{ id: number }>(
    `SELECT a.id FROM audit_logs a LEFT JOIN audit_chain c ON c.log_id = a.id WHERE c.log_id IS NULL ORDER BY a.id LIMIT 1000`,
  );
  for (const r of unchained.rows) {
    problems.push({ kind: 'unchained', logId: r.id, detail: 'audit record was inserted outside the chain' });
  }
  return { checked, problems, head };
}
