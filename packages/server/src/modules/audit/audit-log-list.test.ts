import { type AuditLogsResponse } from '@rpm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../db/pool.ts';
import { createTestDatabase, testKeys } from '../../../test/db.ts';
import {
  createOrganization,
  startTestServer,
  type ApiClient,
  type TestServer,
  signInNewStaff,
} from '../../../test/support/http.ts';
import { auditLogTotal, listAuditLogPage } from './audit.repository.ts';
import { sealBatch, sealPending } from './sealer.ts';
import { buildAuditRecords } from '../../../test/support/factories.ts';

let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  const org = await createOrganization(server);
  admin = await signInNewStaff(server, 'admin', org.id);
  await buildAuditRecords(server.db.pool, 120, (n) => ({ action: 'test.event', details: { n }, at: { ago: `${1000 - n} seconds` } }));
});
afterAll(async () => server?.close());

const page = (limit: number, offset: number) => admin.get<AuditLogsResponse>(`/api/audit-logs?limit=${limit}&offset=${offset}`);

describe('GET /api/audit-logs', () => {
  it('answers newest first with every field and an exact total for a small log', async () => {
    const res = await page(10, 0);
    expect(res.status).toBe(200);
    expect(res.body.logs).toHaveLength(10);
    const { rows } = await server.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_logs`);
    expect(res.body.total).toBe(rows[0]!.n);
    // This very read is recorded, and is the newest record.
    expect(res.body.logs[0]).toMatchObject({ action: 'audit.list', outcome: 'success', details: { limit: 10, offset: 0 } });
    expect(Object.keys(res.body.logs[0]!).sort()).toEqual(
      ['action', 'details', 'id', 'ip_address', 'outcome', 'reason', 'request_id', 'resource_id', 'resource_type', 'target_user_id', 'timestamp', 'user_agent', 'user_id'],
    );
    const times = res.body.logs.map((l) => Date.parse(l.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('pages without gaps or overlaps', async () => {
    const first = await page(50, 0);
    const second = await page(50, 50);
    // The second read added one record at the head: everything shifts down by one place.
    expect(second.body.logs[0]!.id).toBe(first.body.logs[49]!.id);
    const ids = new Set([...first.body.logs, ...second.body.logs.slice(1)].map((l) => l.id));
    expect(ids.size).toBe(99);
  });

  it('pages against the snapshot of the first page: reading on adds no rows and shifts none', async () => {
    const first = await page(30, 0);
    const { snapshot } = first.body;
    expect(snapshot).toBe(first.body.total);
    const at = (offset: number) => admin.get<AuditLogsResponse>(`/api/audit-logs?limit=10&offset=${offset}&snapshot=${snapshot}`);
    const pages = [await at(0), await at(10), await at(20), await at(0)];
    for (const p of pages) expect([p.body.total, p.body.snapshot]).toEqual([snapshot, snapshot]);
    // The same rows as the first answer, in the same places, though four reads were recorded since.
    expect(pages.slice(0, 3).flatMap((p) => p.body.logs.map((l) => l.id))).toEqual(first.body.logs.map((l) => l.id));
    expect(pages[3]!.body.logs.map((l) => l.id)).toEqual(first.body.logs.slice(0, 10).map((l) => l.id));
    // Without the snapshot, the reads since then are on top.
    const fresh = await page(10, 0);
    expect(fresh.body.total).toBe(snapshot + 5);
    // Each read is still recorded, with the snapshot it asked for (the newest here is this read).
    expect(fresh.body.logs[1]).toMatchObject({ action: 'audit.list', details: { offset: 0, snapshot } });
  });

  it('never shows more than the log holds for a snapshot from the future', async () => {
    const res = await admin.get<AuditLogsResponse>('/api/audit-logs?limit=10&offset=0&snapshot=999999999');
    expect(res.status).toBe(200);
    expect(res.body.snapshot).toBe(res.body.total);
    expect(res.body.total).toBeLessThan(999999999);
    expect(res.body.logs[0]).toMatchObject({ action: 'audit.list' });
  });

  it('answers an empty page, not an error, for an offset beyond the end', async () => {
    const res = await page(100, 100_000);
    expect(res.status).toBe(200);
    expect(res.body.logs).toEqual([]);
    expect(res.body.total).toBeGreaterThan(120);
  });

  it('refuses limits outside 1..100 and unknown parameters', async () => {
    expect((await page(0, 0)).status).toBe(400);
    expect((await page(101, 0)).status).toBe(400);
    expect((await page(10, -1)).status).toBe(400);
    expect((await admin.get('/api/audit-logs?limit=10&sort=id')).status).toBe(400);
  });

  it('answers deep pages exactly: the same records as a full sort of the log, and an exact total', async () => {
    await buildAuditRecords(server.db.pool, 3000, (g) => ({ action: 'bulk.event', details: { g } }));
    const res = await page(100, 2500);
    // The full order: records not sealed yet, newest first, then the chain, newest first. The
    // sealer keeps that order when it seals, so it is the same whenever this query runs.
    const { rows } = await server.db.pool.query<{ id: number }>(
      `SELECT id FROM (SELECT 0 AS part, log_id AS k, log_id AS id FROM audit_unsealed
                       UNION ALL SELECT 1, position, log_id FROM audit_chain) x
        ORDER BY part, k DESC OFFSET 2500 LIMIT 100`,
    );
    expect(res.body.logs.map((l) => l.id)).toEqual(rows.map((r) => r.id));
    const count = await server.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_logs`);
    // The count was taken after the page was read, whose own record it includes.
    expect(res.body.total).toBe(count.rows[0]!.n);
    // That request records itself first: one more record, so 31 are left past the offset.
    const last = await page(100, count.rows[0]!.n - 30);
    expect(last.body.logs).toHaveLength(31);
  });
});

describe('audit log paging across sealing', () => {
  it('lists records not sealed yet first, and every record keeps its place when they are sealed', async () => {
    // A database of its own, with no sealer running: this test seals when it chooses.
    const db = await createTestDatabase();
    try {
      await buildAuditRecords(db.pool, 120, (g) => ({ action: `paging.${g}` }));
      await sealBatch(db.pool, testKeys.auditHmacKey, 100);
      const everything = async () => {
        return withTransaction(db.pool, async (tx) => {
          await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
          const ids: number[] = [];
          for (let offset = 0; offset < 130; offset += 7) ids.push(...(await listAuditLogPage(tx, 7, offset)).map((r) => r.id));
          return { ids, total: await auditLogTotal(tx) };
        });
      };
      const partly = await everything();
      const unsealed = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_unsealed`);
      expect(unsealed.rows[0]!.n).toBe(20);
      expect(partly.total).toBe(120);
      expect(partly.ids).toHaveLength(120);
      expect(new Set(partly.ids).size).toBe(120);
      await sealPending(db.pool, testKeys.auditHmacKey);
      const sealed = await everything();
      expect(sealed).toEqual(partly);
      const all = await db.pool.query<{ id: number }>(`SELECT id FROM audit_logs ORDER BY id DESC`);
      expect(sealed.ids).toEqual(all.rows.map((r) => r.id));
    } finally {
      await db.drop();
    }
  });
});
