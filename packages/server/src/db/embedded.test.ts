import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function count(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('CREATE TABLE IF NOT EXISTS kept (n int)');
    await c.query('INSERT INTO kept VALUES (1)');
    const { rows } = await c.query<{ n: string }>('SELECT count(*) AS n FROM kept');
    return Number(rows[0]!.n);
  } finally {
    await c.end();
  }
}

describe('embedded PostgreSQL', () => {
  it('keeps data across a clean stop, an orphaned postmaster and a stale lock file', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rpm-embedded-'));
    dirs.push(dataDir);

    const first = await startEmbeddedPostgres({ dataDir });
    expect(await count(first.url)).toBe(1);
    await first.stop();

    // Like a `kill -9` of the portal: the postmaster is left running, holding the data directory.
    const second = await startEmbeddedPostgres({ dataDir });
    expect(await count(second.url)).toBe(2);
    const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
    const orphanPid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);

    const third = await startEmbeddedPostgres({ dataDir });
    expect(() => process.kill(orphanPid, 0)).toThrow(); // the orphan was shut down
    expect(await count(third.url)).toBe(3);

    // The postmaster itself killed with SIGKILL: a lock file naming a dead process stays behind.
    const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
    execFileSync('kill', ['-9', String(pid)]);
    await new Promise((r) => setTimeout(r, 500));
    const fourth = await startEmbeddedPostgres({ dataDir });
    expect(await count(fourth.url)).toBe(4);
    await fourth.stop();
    await second.stop().catch(() => {});
    await third.stop().catch(() => {});
  }, 120_000);

  it('removes a lock file naming a process that is not our PostgreSQL', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rpm-embedded-'));
    dirs.push(dataDir);
    const db = await startEmbeddedPostgres({ dataDir });
    await db.stop();
    // PID 1 is alive but is not a postmaster for this directory.
    await writeFile(path.join(dataDir, 'pg', 'postmaster.pid'), '1\n' + path.join(dataDir, 'pg') + '\n');
    const again = await startEmbeddedPostgres({ dataDir });
    expect(await count(again.url)).toBe(1);
    await again.stop();
  }, 120_000);
});
