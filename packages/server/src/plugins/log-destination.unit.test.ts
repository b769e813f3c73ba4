import fs from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchedDestination } from './log-destination.ts';

let dir: string;
let file: string;
let fd: number;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'log-destination-'));
  file = path.join(dir, 'out.log');
  fd = fs.openSync(file, 'a');
});
afterEach(async () => {
  vi.restoreAllMocks();
  fs.closeSync(fd);
  await rm(dir, { recursive: true, force: true });
});

const line = (i: number) => `${JSON.stringify({ msg: 'request', i, route: '/api/patients/:id/vitals' })}\n`;
const linesIn = async () => (await readFile(file, 'utf8')).split('\n').filter(Boolean);

describe('the batched log destination', () => {
  it('writes a lone line within its flush delay, and nothing more while idle', async () => {
    const writes = vi.spyOn(fs, 'write');
    const dest = batchedDestination(fd, { batchBytes: 4096, flushMs: 20 });
    dest.write(line(1));
    await vi.waitFor(async () => expect(await linesIn()).toEqual([line(1).trim()]), { timeout: 2000, interval: 10 });
    const after = writes.mock.calls.length;
    expect(after).toBeGreaterThan(0);
    await sleep(200);
    expect(writes.mock.calls.length).toBe(after);
  });

  it('writes lines that arrive one by one, as requests end, in a few writes, every line once and in order', async () => {
    const writes = vi.spyOn(fs, 'write');
    const dest = batchedDestination(fd, { batchBytes: 4096, flushMs: 50 });
    for (let i = 0; i < 100; i++) {
      dest.write(line(i));
      await sleep(1); // each line in a turn of its own: one write per line would be 100
    }
    await vi.waitFor(async () => expect(await linesIn()).toHaveLength(100), { timeout: 5000, interval: 20 });
    expect(await linesIn()).toEqual(Array.from({ length: 100 }, (_, i) => line(i).trim()));
    expect(writes.mock.calls.length).toBeGreaterThan(0);
    expect(writes.mock.calls.length).toBeLessThan(30);
  });

  it('writes what is pending at once when flushed synchronously (as on exit)', () => {
    const dest = batchedDestination(fd, { batchBytes: 4096, flushMs: 60_000 });
    dest.write(line(1));
    dest.write(line(2));
    dest.flushSync();
    expect(fs.readFileSync(file, 'utf8')).toBe(line(1) + line(2));
  });
});
