/**
 * Durability: many clients write notes and tracking time, the server is killed with SIGKILL in
 * the middle, started again on the same data, and every write that was answered 2xx must be
 * there, once, with its audit record (nothing half-saved). Against the embedded PostgreSQL and
 * an external one (EXTERNAL_DATABASE_URL, else a separately started PostgreSQL server the portal
 * only connects to).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../packages/server/src/db/embedded.ts';
import { callApi, signInViaApi, startPortal, type Portal } from './harness.ts';

const CLIENTS = 12;
const KILL_AFTER_MS = 2500;

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

async function externalDatabaseUrl(): Promise<string> {
  const name = `rpm_durability_${randomBytes(4).toString('hex')}`;
  let adminUrl = process.env.EXTERNAL_DATABASE_URL;
  let server: EmbeddedDatabase | undefined;
  let dir: string | undefined;
  if (!adminUrl) {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rpm-external-pg-'));
    server = await startEmbeddedPostgres({ dataDir: dir, database: 'postgres' });
    adminUrl = server.url;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

async function run(portal: Portal) {
  const cookie = await signInViaApi(portal, portal.adminEmail, portal.adminPassword);
  const orgs = await portal.db.query<{ id: number }>(`SELECT id FROM organizations ORDER BY id LIMIT 1`);
  const created = await callApi<{ id: number }>(portal, cookie, 'POST', '/api/patients', {
    first_name: 'Dura',
    last_name: 'Bility',
    organization_id: orgs.rows[0]!.id,
    insurances: [],
    device_ids: [],
  });
  expect(created.status).toBe(201);
  const patientId = created.body.id;

  const acknowledged: string[] = [];
  let stopping = false;
  const client = async (c: number) => {
    for (let i = 0; !stopping; i++) {
      const tag = `dur-${c}-${i}`;
      try {
        const res =
          i % 2 === 0
            ? await callApi(portal, cookie, 'POST', `/api/patients/${patientId}/notes`, { content: tag })
            : await callApi(portal, cookie, 'POST', `/api/patients/${patientId}/sessions`, {
                date: '2026-11-01',
                duration_minutes: 1, // at most 1,440 a day per patient: room for 1,440 writes
                notes: tag,
              });
        if (res.status >= 200 && res.status < 300) acknowledged.push(tag);
      } catch {
        // The connection died with the server: this write's outcome is unknown, not acknowledged.
        return;
      }
    }
  };
  const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
  await new Promise((r) => setTimeout(r, KILL_AFTER_MS));
  await portal.stop('SIGKILL');
  stopping = true;
  await Promise.all(clients);
  expect(acknowledged.length).toBeGreaterThan(20);

  await portal.restart();
  const notes = await portal.db.query<{ id: number; content: string }>(
    `SELECT id, content FROM notes WHERE patient_id = $1`,
    [patientId],
  );
  const sessions = await portal.db.query<{ id: number; notes: string }>(
    `SELECT id, notes FROM tracking_entries WHERE patient_id = $1`,
    [patientId],
  );
  const found = [...notes.rows.map((r) => r.content), ...sessions.rows.map((r) => r.notes)];
  const missing = acknowledged.filter((tag) => !found.includes(tag));
  expect(missing).toEqual([]);
  expect(new Set(found).size).toBe(found.length); // nothing saved twice

  // Nothing half-saved: every saved write has its audit record, written in the same transaction.
  const audited = await portal.db.query<{ resource_type: string; resource_id: string }>(
    `SELECT resource_type, resource_id FROM audit_logs WHERE action IN ('note.create', 'tracking.create') AND outcome = 'success'`,
  );
  const auditedKeys = new Set(audited.rows.map((r) => `${r.resource_type}:${r.resource_id}`));
  for (const n of notes.rows) expect(auditedKeys.has(`note:${n.id}`)).toBe(true);
  expect(audited.rows.length).toBe(notes.rows.length + sessions.rows.length);

  // The server works again with the same session.
  const after = await callApi(portal, cookie, 'POST', `/api/patients/${patientId}/notes`, { content: 'after restart' });
  expect(after.status).toBe(201);
  console.log(
    `durability: ${acknowledged.length} writes acknowledged before SIGKILL, ${found.length} found after restart, ${missing.length} lost`,
  );
}

describe('no acknowledged write is lost when the server is killed', () => {
  it('on the embedded PostgreSQL', async () => {
    const portal = await startPortal();
    cleanups.push(() => portal.dispose());
    await run(portal);
  });

  it('on an external PostgreSQL', async () => {
    const url = await externalDatabaseUrl();
    const portal = await startPortal({ env: { DATABASE_URL: url } });
    cleanups.push(() => portal.dispose());
    await run(portal);
  });
});
