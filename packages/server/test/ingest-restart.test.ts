/**
 * No reading lost when PostgreSQL restarts mid-load. Several senders post Tenovi webhooks over
 * HTTP without pause while the database server is shut down the hard way (SIGQUIT: immediate
 * shutdown, no checkpoint, the next start replays the WAL as after a crash) and started again on
 * the same data directory and port. A sender retries the very same body until it is answered 2xx,
 * as a vendor's cloud does. Then every reading answered 2xx must be stored exactly once, and no
 * reading stored that was never sent. The database is an embedded PostgreSQL of this file's own
 * (the run's shared server cannot be restarted under the other test files).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS, DEFAULT_INGEST_AUTH_HEADER, type IngestResult } from '@rpm/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.ts';
import { kysely } from '../src/db/kysely.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { createPool } from '../src/db/pool.ts';
import { freePort } from '../src/free-port.ts';
import type { TestDatabase } from './db.ts';
import { buildDevice, buildOrganization, buildPatient, buildSource } from './support/factories.ts';
import { startTestServer, type TestServer } from './support/http.ts';

const SENDERS = 4;
const DEVICES = 20;

let dataDir: string;
let port: number;
let postgres: EmbeddedDatabase;
let server: TestServer;
const sources: { id: string; secret: string }[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'rpm-ingest-restart-'));
  port = await freePort();
  postgres = await startEmbeddedPostgres({ dataDir, port });
  const pool = createPool(postgres.url, 8);
  const ownerPool = createPool(postgres.url, 2);
  await runMigrations(pool);
  const database: TestDatabase = {
    pool,
    url: postgres.url,
    ownerPool,
    ownerUrl: postgres.url,
    drop: async () => {
      await pool.end();
      await ownerPool.end();
      await postgres.stop();
    },
  };
  const org = await buildOrganization(pool);
  for (let d = 1; d <= DEVICES; d++) {
    const patientId = await buildPatient(pool, { organizationId: org.id, enrollmentStatus: 'Active' });
    await buildDevice(pool, { deviceId: `RESTART-${d}`, patientId, assignedFrom: { ago: '30 days' } });
  }
  for (let s = 0; s < SENDERS; s++)
    sources.push(await buildSource(pool, { organizationId: org.id, authHeader: DEFAULT_INGEST_AUTH_HEADER }));
  server = await startTestServer({}, database);
}, 90_000);

afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Immediate shutdown (SIGQUIT to the postmaster): open transactions are cut off mid-flight. */
async function crashPostgres(): Promise<void> {
  const pid = Number((await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  process.kill(pid, 'SIGQUIT');
  for (let waited = 0; waited < 20_000; waited += 50) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('PostgreSQL did not shut down');
}

describe('Tenovi webhook while PostgreSQL restarts', () => {
  it('stores every reading answered 2xx exactly once; refused calls are retried without duplicates', async () => {
    let running = true;
    let n = 0;
    const acknowledged = new Set<string>();
    const sent = new Set<string>();
    const statuses = new Map<string, number>();
    const tally = (s: string) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    let retriedAfterFailure = 0;
    const start = Date.now() - 20 * 86_400_000;

    const sender = async (source: { id: string; secret: string }, s: number) => {
      while (running) {
        // 1 to 25 readings, each a new measurement key (device, kind, time).
        const size = 1 + ((n * 7 + s) % 25);
        const body = Array.from({ length: size }, () => {
          n++;
          return {
            hwi_device_id: `RESTART-${1 + (n % DEVICES)}`,
            timestamp: new Date(start + n * 1000).toISOString(),
            filter_params: { measurement_index: n },
            metric: 'blood_pressure',
            value_1: 110 + (n % 25),
            value_2: 70 + (n % 15),
          };
        });
        const keys = body.map((m) => `RESTART-${1 + (m.filter_params.measurement_index % DEVICES)}|${new Date(m.timestamp).toISOString()}`);
        for (const k of keys) sent.add(k);
        const payload = JSON.stringify(body);
        // The same body again until it is answered 2xx, however long the database is away.
        for (let attempt = 0; ; attempt++) {
          let status: number | string;
          let answer: IngestResult | null = null;
          try {
            const res = await fetch(`${server.url}/api/ingest/tenovi/${source.id}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', [DEFAULT_INGEST_AUTH_HEADER]: source.secret },
              body: payload,
              signal: AbortSignal.timeout(15_000),
            });
            status = res.status;
            if (res.ok) answer = (await res.json()) as IngestResult;
            else {
              await res.arrayBuffer();
              // The database away is "come back in a moment", not a failure of the server.
              if (status === 503) expect(res.headers.get('retry-after')).toBe(String(DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS));
            }
          } catch {
            status = 'network error';
          }
          tally(String(status));
          if (answer) {
            // A retry of a call that committed before its answer was lost finds its readings stored.
            expect(answer.received).toBe(size);
            expect(answer.stored + answer.duplicates).toBe(size);
            if (attempt > 0) retriedAfterFailure++;
            for (const k of keys) acknowledged.add(k);
            break;
          }
          // Only the database's absence may refuse a valid call, and says so: 503 (or the
          // connection dropped), never a 4xx or a plain 500.
          expect(typeof status === 'string' || status === 503, `answered ${status}`).toBe(true);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    };

    const senders = sources.map((source, s) => sender(source, s));
    await new Promise((r) => setTimeout(r, 2_000));
    const beforeCrash = acknowledged.size;
    await crashPostgres();
    await new Promise((r) => setTimeout(r, 1_500));
    postgres = await startEmbeddedPostgres({ dataDir, port });
    await new Promise((r) => setTimeout(r, 3_000));
    running = false;
    await Promise.all(senders);

    const rows = await sql<{ device: string; at: Date; copies: number }>`
      SELECT d.device_id AS device, o.created_at AS at, count(*)::int AS copies
        FROM observations o JOIN devices d ON d.id = o.device_id GROUP BY 1, 2`.execute(kysely(server.db.pool));
    const stored = new Map(rows.rows.map((r) => [`${r.device}|${r.at.toISOString()}`, r.copies]));
    const missing = [...acknowledged].filter((k) => stored.get(k) !== 1);
    const unknown = [...stored.keys()].filter((k) => !sent.has(k));

    const summary = Object.fromEntries(statuses);
    // The load really crossed the restart: calls were answered before it, refused during it, and
    // answered after it, some of them retries of refused ones.
    expect(beforeCrash, JSON.stringify(summary)).toBeGreaterThan(0);
    expect(acknowledged.size, JSON.stringify(summary)).toBeGreaterThan(beforeCrash);
    expect(retriedAfterFailure, JSON.stringify(summary)).toBeGreaterThan(0);
    expect(statuses.get('503'), JSON.stringify(summary)).toBeGreaterThan(0);
    expect(missing, 'answered 2xx but not stored exactly once').toEqual([]);
    expect(unknown, 'stored but never sent').toEqual([]);
    // Every sender retried until answered: all it sent is stored, once.
    expect(stored.size).toBe(sent.size);
    expect([...stored.values()].every((c) => c === 1)).toBe(true);
  }, 60_000);
});
