/**
 * Measures how long `npm start`'s server takes to be ready (health answers and the first admin is
 * provisioned), on a fresh data directory ("first run": initdb, migrations, keys) and on an
 * existing one ("warm"). Several runs each; prints the median.
 *
 *   npm run startup-time --  [runs=5]
 *
 * Times the built artifact (`node packages/server/dist/server.js`, what `npm start` runs): build
 * first (`npm run build`); the build itself is not timed.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../src/config.ts';
import { freePort } from '../src/free-port.ts';

const runs = Number(process.argv[2] ?? 5);

async function timeStart(dataDir: string): Promise<number> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, ['packages/server/dist/server.js'], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, PORTAL_ADMIN_PASSWORD: 'Startup-Pa55!', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  while (!/portal ready/.test(out)) {
    if (child.exitCode !== null) throw new Error(out);
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - t0;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const first: number[] = [];
const warm: number[] = [];
for (let i = 0; i < runs; i++) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rpm-startup-'));
  first.push(await timeStart(dir));
  warm.push(await timeStart(dir));
  await rm(dir, { recursive: true, force: true });
}
console.log(`first run: median ${Math.round(median(first))} ms  (${first.map(Math.round).join(', ')})`);
console.log(`warm:      median ${Math.round(median(warm))} ms  (${warm.map(Math.round).join(', ')})`);
