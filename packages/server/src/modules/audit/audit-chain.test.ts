import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { verifyAuditChain, type ChainHead } from './audit-chain.ts';
import { insertAuditLog } from '../../kernel/audit-writer.repository.ts';
import { linkHash, SEAL_BATCH, sealPending, startSealer } from './sealer.ts';
import { readUnsealed } from './audit.repository.ts';
import { planOf } from '../../../test/support/plans.ts';

const key = randomBytes(32);
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

/** As a database owner would: with the append-only triggers off for one transaction. */
async function tamper(...statements: [string, unknown[]?][]) {
  const c = await db.ownerPool.connect();
  try {
    await c.query('BEGIN');
    await c.query(`SET LOCAL session_replication_role = replica`);
    for (const [sql, params] of statements) await c.query(sql, params ?? []);
    await c.query('COMMIT');
  } finally {
    c.release();
  }
}

async function write(n: number, prefix: string) {
  for (let i = 0; i < n; i++) {
    await insertAuditLog(db.pool, {
      action: `${prefix}.${i}`,
      outcome: 'success',
      details: { i, nested: { ok: true } },
    });
  }
}

const verify = (opts: { expect?: ChainHead; graceMs?: number } = {}) => verifyAuditChain(db.pool, key, opts);
const kinds = async (opts: { expect?: ChainHead; graceMs?: number } = {}) =>
  (await verify(opts)).problems.map((p) => `${p.kind}:${p.logId ?? p.position}`);
const logId = async (action: string) =>
  (await db.pool.query<{ id: number }>(`SELECT id FROM audit_logs WHERE action = $1`, [action])).rows[0]!.id;
const positionOf = async (id: number) =>
  (await db.pool.query<{ position: number }>(`SELECT position FROM audit_chain WHERE log_id = $1`, [id])).rows[0]!
    .position;

describe('audit chain: sealing', () => {
  it('seals concurrent writers while a sealer runs, densely and verifiably', async () => {
    const sealer = startSealer({ pool: db.pool, key, intervalMs: 20 });
    await Promise.all(Array.from({ length: 8 }, (_, w) => write(25, `w${w}`)));
    await sealer.stop();
    const report = await verify();
    expect(report.problems).toEqual([]);
    expect(report.checked).toBe(200);
    expect(report.unsealed).toBe(0);
    expect(report.head).toEqual({ position: 200, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const { rows } = await db.pool.query<{ n: number; max: number; queued: number }>(
      `SELECT count(*)::int AS n, max(position)::int AS max, (SELECT count(*)::int FROM audit_unsealed) AS queued FROM audit_chain`,
    );
    expect(rows[0]).toEqual({ n: 200, max: 200, queued: 0 });
  });

  it('links with the key: the same chain under another key does not verify', async () => {
    const other = await verifyAuditChain(db.pool, randomBytes(32));
    expect(other.problems.length).toBeGreaterThan(0);
  });

  it('lets only one sealer at a time link a batch', async () => {
    await write(300, 'race');
    const results = await Promise.all([
      sealPending(db.pool, key),
      sealPending(db.pool, key),
      sealPending(db.pool, key),
    ]);
    // Whoever did not get the lock sealed nothing; a later pass seals what remains, if anything.
    await sealPending(db.pool, key);
    expect(results.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(300);
    expect((await verify()).problems).toEqual([]);
    const { rows } = await db.pool.query<{ n: number; max: number }>(
      `SELECT count(*)::int AS n, max(position)::int AS max FROM audit_chain`,
    );
    expect(rows[0]).toEqual({ n: 500, max: 500 });
  });

  it("the runtime role cannot delete from the sealer's queue", async () => {
    await write(1, 'queued');
    const id = await logId('queued.0');
    // The portal's own role: neither a plain DELETE nor the owner's function takes an unsealed entry.
    await expect(db.pool.query(`DELETE FROM audit_unsealed WHERE log_id = $1`, [id])).rejects.toMatchObject({
      code: '42501',
    });
    const taken = await db.pool.query<{ n: number }>(`SELECT audit_unsealed_take_sealed(ARRAY[$1]::bigint[]) AS n`, [
      id,
    ]);
    expect(taken.rows[0]!.n).toBe(0);
    expect((await db.pool.query(`SELECT 1 FROM audit_unsealed WHERE log_id = $1`, [id])).rowCount).toBe(1);
    // The sealer, as the same role, still links it and takes it off the queue.
    await sealPending(db.pool, key);
    expect((await db.pool.query(`SELECT 1 FROM audit_unsealed WHERE log_id = $1`, [id])).rowCount).toBe(0);
    expect(await positionOf(id)).toBeGreaterThan(0);
    expect((await verify()).problems).toEqual([]);
  });

  it('does not queue a record whose transaction rolls back', async () => {
    const c = await db.pool.connect();
    await c.query('BEGIN');
    await insertAuditLog(c, { action: 'rolled.back', outcome: 'success' });
    await c.query('ROLLBACK');
    c.release();
    await insertAuditLog(db.pool, { action: 'after.rollback', outcome: 'success' });
    await sealPending(db.pool, key);
    const { rows } = await db.pool.query<{ n: number; max: number }>(
      `SELECT count(*)::int AS n, max(position)::int AS max FROM audit_chain`,
    );
    expect(rows[0]!.max).toBe(rows[0]!.n);
    expect((await verify()).problems).toEqual([]);
  });

  it('does not depend on the session time zone', async () => {
    const c = await db.pool.connect();
    await c.query(`SET TIME ZONE 'Pacific/Auckland'`);
    await insertAuditLog(c, { action: 'tz.check', outcome: 'success' });
    await c.query(`RESET TIME ZONE`);
    c.release();
    await sealPending(db.pool, key);
    expect((await verify()).problems).toEqual([]);
  });
});

describe('audit:verify', () => {
  it('reports recent unsealed records as information, and stale ones as a problem', async () => {
    await write(3, 'pending');
    const fresh = await verify();
    expect(fresh.problems).toEqual([]);
    expect(fresh.unsealed).toBe(3);
    // Past the grace period, a record the sealer never linked is no longer "recent".
    expect(await kinds({ graceMs: 0 })).toEqual([
      `out-of-band:${await logId('pending.0')}`,
      `out-of-band:${await logId('pending.1')}`,
      `out-of-band:${await logId('pending.2')}`,
    ]);
    await sealPending(db.pool, key);
    const sealed = await verify({ graceMs: 0 });
    expect(sealed.problems).toEqual([]);
    expect(sealed.unsealed).toBe(0);
  });

  it('detects an altered record', async () => {
    const id = await logId('w3.7');
    await tamper([`UPDATE audit_logs SET outcome = 'failure' WHERE id = $1`, [id]]);
    expect(await kinds()).toEqual([`altered:${id}`]);
    await tamper([`UPDATE audit_logs SET outcome = 'success' WHERE id = $1`, [id]]);
    expect(await kinds()).toEqual([]);
  });

  it('detects a chain recomputed without the key after an alteration', async () => {
    const before = (await verify()).head!;
    const id = await logId('w5.2');
    const from = await positionOf(id);
    // The attacker alters a record and rewrites every later link, with a key of their own (or
    // plain SHA-256 as earlier versions did): the links then chain, but do not verify.
    const forger = randomBytes(32);
    const { rows } = await db.ownerPool.query<{ position: number; prev_hash: Buffer }>(
      `SELECT position, prev_hash FROM audit_chain WHERE position = $1`,
      [from],
    );
    let prev = rows[0]!.prev_hash;
    const updates: [string, unknown[]][] = [[`UPDATE audit_logs SET action = 'w5.2-edited' WHERE id = $1`, [id]]];
    await tamper(...updates);
    const chain = await db.ownerPool.query<{ position: number; row_hash: Buffer }>(
      `SELECT c.position, audit_row_hash(a) AS row_hash FROM audit_chain c JOIN audit_logs a ON a.id = c.log_id
        WHERE c.position >= $1 ORDER BY c.position`,
      [from],
    );
    const rewrites: [string, unknown[]][] = [];
    for (const link of chain.rows) {
      const hash = linkHash(forger, link.position, prev, link.row_hash);
      rewrites.push([
        `UPDATE audit_chain SET prev_hash = $2, hash = $3 WHERE position = $1`,
        [link.position, prev, hash],
      ]);
      prev = hash;
    }
    await tamper(...rewrites);
    const report = await verify({ expect: before });
    const found = report.problems.map((p) => `${p.kind}:${p.position}`);
    expect(found).toContain(`altered:${from}`);
    expect(found).toContain(`recomputed:${from + 1}`);
    expect(found).toContain(`head-mismatch:${before.position}`);
    expect(found).not.toContain(`broken-link:${from + 1}`);
    // Put back as it was, for the tests that follow.
    await tamper([`UPDATE audit_logs SET action = 'w5.2' WHERE id = $1`, [id]]);
    let good = rows[0]!.prev_hash;
    const restores: [string, unknown[]][] = [];
    const again = await db.ownerPool.query<{ position: number; row_hash: Buffer }>(
      `SELECT c.position, audit_row_hash(a) AS row_hash FROM audit_chain c JOIN audit_logs a ON a.id = c.log_id
        WHERE c.position >= $1 ORDER BY c.position`,
      [from],
    );
    for (const link of again.rows) {
      const hash = linkHash(key, link.position, good, link.row_hash);
      restores.push([
        `UPDATE audit_chain SET prev_hash = $2, hash = $3 WHERE position = $1`,
        [link.position, good, hash],
      ]);
      good = hash;
    }
    await tamper(...restores);
    expect(await kinds({ expect: before })).toEqual([]);
  });

  it('detects a deleted tail, given the earlier head', async () => {
    const head = (await verify()).head!;
    const tail = await db.ownerPool.query<{ log_id: number }>(
      `SELECT log_id FROM audit_chain WHERE position > $1 - 3`,
      [head.position],
    );
    await tamper(
      [`DELETE FROM audit_chain WHERE position > $1 - 3`, [head.position]],
      [`DELETE FROM audit_logs WHERE id = ANY($1::bigint[])`, [tail.rows.map((r) => r.log_id)]],
    );
    // Without the earlier head the shorter chain is consistent in itself...
    expect(await kinds()).toEqual([]);
    // ...with it, the removal shows.
    expect(await kinds({ expect: head })).toEqual([`truncated:${head.position}`]);
  });

  it('detects a deleted record and a gap in positions', async () => {
    const id = await logId('w1.1');
    const position = await positionOf(id);
    await tamper([`DELETE FROM audit_logs WHERE id = $1`, [id]]);
    expect(await kinds()).toEqual([`deleted:${id}`]);
    await tamper([`DELETE FROM audit_chain WHERE position = $1`, [position]]);
    const found = (await verify()).problems.map((p) => p.kind);
    expect(found).toEqual(expect.arrayContaining(['gap', 'broken-link']));
  });

  it('detects a record inserted out of band, at once', async () => {
    await tamper([`INSERT INTO audit_logs (action, outcome) VALUES ('forged.entry', 'success')`]);
    const forged = await logId('forged.entry');
    expect(await kinds()).toContain(`out-of-band:${forged}`);
    // The sealer never links it: it was not queued.
    await sealPending(db.pool, key);
    expect(await kinds()).toContain(`out-of-band:${forged}`);
  });

  it('refuses ordinary UPDATE and DELETE of the chain, even to its owner', async () => {
    await expect(db.ownerPool.query(`DELETE FROM audit_chain`)).rejects.toThrow(/append-only/);
    await expect(db.ownerPool.query(`UPDATE audit_chain SET hash = '\\x00'`)).rejects.toThrow(/append-only/);
  });
});

// On a database of its own: the chain it leaves is thousands of records longer than the tests
// above count on.
describe("audit chain: the sealer's batch", () => {
  let own: TestDatabase;
  beforeAll(async () => {
    own = await createTestDatabase();
  });
  afterAll(async () => own?.drop());

  it("reads its batch one record at a time, whatever its queue's statistics say", async () => {
    // Statistics taken while the queue was long, as autovacuum takes them in a busy minute: joined
    // by id alone, every month table was read whole to find the batch (migration 1080).
    await own.pool.query(
      `INSERT INTO audit_logs (action, outcome) SELECT 'busy.' || g, 'success' FROM generate_series(1, 5000) g`,
    );
    await own.ownerPool.query('ANALYZE audit_unsealed');
    await sealPending(own.pool, key);
    for (let i = 0; i < 3; i++) await insertAuditLog(own.pool, { action: `after.busy.${i}`, outcome: 'success' });
    const { result, nodes } = await planOf(own.pool, (c) => readUnsealed(c, SEAL_BATCH));
    expect(result).toHaveLength(3);
    expect(result.every((r) => Buffer.isBuffer(r.row_hash))).toBe(true);
    // Joined record by record (a nested loop probing one key), not by reading the month tables
    // whole to hash or merge them.
    const joins = nodes.filter((n) => /Join|Nested Loop/.test(n['Node Type'])).map((n) => n['Node Type']);
    expect(joins).toEqual(['Nested Loop']);
    await sealPending(own.pool, key);
    expect((await verifyAuditChain(own.pool, key)).problems).toEqual([]);
  });
});
