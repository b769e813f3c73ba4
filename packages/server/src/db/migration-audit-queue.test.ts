import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.ts';
import { runMigrations } from './migrate.ts';
import { verifyAuditChain } from '../modules/audit/audit-chain.ts';
import { sealPending } from '../modules/audit/sealer.ts';

/**
 * Migration 1080 gives the sealer's queue each record's time. Records queued before it get theirs
 * from the record; a queue entry whose record is gone keeps its own queued time, and the sealer
 * still drops it as an orphan.
 */
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
});
afterAll(async () => db?.drop());

describe('migration 1080: the audit queue carries the record time', () => {
  it('fills in the time of records queued before it, and seals them', async () => {
    await runMigrations(db.ownerPool, { before: '1080' });
    const q = (text: string, values: unknown[] = []) => db.ownerPool.query(text, values);
    const queued = (
      await q(`INSERT INTO audit_logs (action, outcome) VALUES ('old.one', 'success'), ('old.two', 'success')
               RETURNING id, "timestamp"`)
    ).rows as { id: number; timestamp: Date }[];
    // An entry whose record is not there (as after an out-of-band removal).
    await q(`INSERT INTO audit_unsealed (log_id) VALUES (999999)`);

    await runMigrations(db.ownerPool);

    const rows = (await q(`SELECT log_id, logged_at, queued_at FROM audit_unsealed ORDER BY log_id`)).rows as {
      log_id: number;
      logged_at: Date;
      queued_at: Date;
    }[];
    expect(rows.map((r) => [r.log_id, r.logged_at.getTime()])).toEqual([
      ...queued.map((r) => [r.id, r.timestamp.getTime()]),
      [999999, rows[2]!.queued_at.getTime()],
    ]);
    // Records written after it are queued with their time by the trigger.
    const next = (
      await q(`INSERT INTO audit_logs (action, outcome) VALUES ('new.one', 'success') RETURNING id, "timestamp"`)
    ).rows[0] as { id: number; timestamp: Date };
    const entry = (await q(`SELECT logged_at FROM audit_unsealed WHERE log_id = $1`, [next.id])).rows[0] as {
      logged_at: Date;
    };
    expect(entry.logged_at.getTime()).toBe(next.timestamp.getTime());

    const key = randomBytes(32);
    expect(await sealPending(db.ownerPool, key)).toBe(3);
    expect((await q(`SELECT count(*)::int AS n FROM audit_unsealed`)).rows[0]).toEqual({ n: 0 });
    expect((await verifyAuditChain(db.ownerPool, key)).problems).toEqual([]);
  });
});
