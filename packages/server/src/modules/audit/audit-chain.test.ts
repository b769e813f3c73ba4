import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.ts';
import { verifyAuditChain } from './audit-chain.ts';
import { insertAuditLog } from './audit.repository.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.drop());

/** As a database superuser would: with the append-only triggers off for one statement. */
async function tamper(sql: string, params: unknown[] = []) {
  const c = await db.pool.connect();
  try {
    await c.query('BEGIN');
    await c.query(`SET LOCAL session_replication_role = replica`);
    await c.query(sql, params);
    await c.query('COMMIT');
  } finally {
    c.release();
  }
}

async function write(n: number, prefix: string) {
  for (let i = 0; i < n; i++) {
    await insertAuditLog(db.pool, { action: `${prefix}.${i}`, outcome: 'success', details: { i, nested: { ok: true } } });
  }
}

describe('audit hash chain', () => {
  it('links concurrent writers in commit order and verifies clean', async () => {
    await Promise.all(Array.from({ length: 8 }, (_, w) => write(25, `w${w}`)));
    const report = await verifyAuditChain(db.pool);
    expect(report.problems).toEqual([]);
    expect(report.checked).toBe(200);
    expect(report.head?.hash).toMatch(/^[0-9a-f]{64}$/);
    // Positions are dense, 1..n in commit order, which the audit log's paging relies on.
    const { rows } = await db.pool.query<{ n: number; max: number; distinct: number }>(
      `SELECT count(*)::int AS n, max(position)::int AS max, count(DISTINCT position)::int AS distinct FROM audit_chain`,
    );
    expect(rows[0]).toEqual({ n: 200, max: 200, distinct: 200 });
  });

  it('keeps positions gapless when a transaction with audit records rolls back', async () => {
    const c = await db.pool.connect();
    await c.query('BEGIN');
    await insertAuditLog(c, { action: 'rolled.back', outcome: 'success' });
    await c.query('ROLLBACK');
    c.release();
    await insertAuditLog(db.pool, { action: 'after.rollback', outcome: 'success' });
    const { rows } = await db.pool.query<{ n: number; max: number }>(
      `SELECT count(*)::int AS n, max(position)::int AS max FROM audit_chain`,
    );
    expect(rows[0]!.max).toBe(rows[0]!.n);
    expect((await verifyAuditChain(db.pool)).problems).toEqual([]);
  });

  it('does not depend on the session time zone', async () => {
    const c = await db.pool.connect();
    await c.query(`SET TIME ZONE 'Pacific/Auckland'`);
    await insertAuditLog(c, { action: 'tz.check', outcome: 'success' });
    c.release();
    expect((await verifyAuditChain(db.pool)).problems).toEqual([]);
  });

  it('detects an altered record', async () => {
    const { rows } = await db.pool.query<{ id: number }>(`SELECT id FROM audit_logs WHERE action = 'w3.7'`);
    await tamper(`UPDATE audit_logs SET outcome = 'failure' WHERE id = $1`, [rows[0]!.id]);
    const report = await verifyAuditChain(db.pool);
    expect(report.problems).toEqual([expect.objectContaining({ kind: 'altered', logId: rows[0]!.id })]);
    await tamper(`UPDATE audit_logs SET outcome = 'success' WHERE id = $1`, [rows[0]!.id]);
    expect((await verifyAuditChain(db.pool)).problems).toEqual([]);
  });

  it('detects a deleted record', async () => {
    const { rows } = await db.pool.query<{ id: number }>(`SELECT id FROM audit_logs WHERE action = 'w5.2'`);
    await tamper(`DELETE FROM audit_logs WHERE id = $1`, [rows[0]!.id]);
    const report = await verifyAuditChain(db.pool);
    expect(report.problems).toEqual([expect.objectContaining({ kind: 'deleted', logId: rows[0]!.id })]);
  });

  it('detects a record inserted out of band, and a removed link', async () => {
    await tamper(`INSERT INTO audit_logs (action, outcome) VALUES ('forged.entry', 'success')`);
    const forged = await db.pool.query<{ id: number }>(`SELECT id FROM audit_logs WHERE action = 'forged.entry'`);
    const { rows } = await db.pool.query<{ seq: number; log_id: number }>(
      `SELECT seq, log_id FROM audit_chain ORDER BY seq OFFSET 50 LIMIT 1`,
    );
    await tamper(`DELETE FROM audit_chain WHERE seq = $1`, [rows[0]!.seq]);
    const kinds = (await verifyAuditChain(db.pool)).problems.map((p) => `${p.kind}:${p.logId}`);
    expect(kinds).toContain(`unchained:${forged.rows[0]!.id}`);
    expect(kinds).toContain(`unchained:${rows[0]!.log_id}`);
    expect(kinds.some((k) => k.startsWith('broken-link:'))).toBe(true);
  });

  it('refuses ordinary UPDATE and DELETE of the chain itself', async () => {
    await expect(db.pool.query(`DELETE FROM audit_chain`)).rejects.toThrow(/append-only/);
    await expect(db.pool.query(`UPDATE audit_chain SET hash = '\\x00'`)).rejects.toThrow(/append-only/);
  });
});
