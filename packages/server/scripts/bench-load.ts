// Load for the HTTP benchmark (bench.ts): fixed-rate and saturated drivers, latency summaries, CPU time of a process.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

export const RATE = Number(process.env.BENCH_RATE ?? 200);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

export interface Measured {
  p50: number;
  p99: number;
  /** Requests per second answered. */
  rps: number;
  /** Answered in all. */
  count: number;
}

/** CPU milliseconds per answered request, by who spent them. */
export interface CpuShare {
  driver: number;
  server: number;
  database: number;
}

/** One load: fixed rate (p50, p99 of that) and saturated (req/s and CPU of that), as one row. */
export interface Row {
  rated: Measured;
  saturated: Measured;
  cpu: CpuShare;
}

// ---- CPU time, by process ------------------------------------------------------------------------

const TICK_MS = 10; // Linux's USER_HZ is 100

/** User + system CPU time of a process in ms, from /proc; 0 once it is gone. */
export function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

function percentile(sorted: number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export function summarize(latencies: number[], seconds: number): Measured {
  const s = latencies.sort((a, b) => a - b);
  return { p50: percentile(s, 0.5), p99: percentile(s, 0.99), rps: s.length / seconds, count: s.length };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Calls `job` from `workers` workers (BENCH_CONNECTIONS) for `seconds`: as fast as they can, or
 * at `rate` per second overall, each call at its own evenly spaced slot (open loop). Latency in
 * ms: at a fixed rate from the slot's due time, so a call held back by a slow one counts its wait
 * (no coordinated omission); saturated from the call's start.
 */
export async function drive(
  job: (worker: number) => Promise<void>,
  seconds: number,
  rate?: number,
  workers = CONNECTIONS,
): Promise<Measured> {
  const latencies: number[] = [];
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  let slot = 0;
  const worker = async (index: number) => {
    for (;;) {
      let start: number;
      if (rate) {
        const due = t0 + (slot++ * 1000) / rate;
        if (due >= end) return;
        // Timers fire on the event loop's millisecond clock, up to a millisecond before `due`.
        for (let wait = due - performance.now(); wait > 0; wait = due - performance.now()) await sleep(wait);
        start = due;
      } else if (performance.now() >= end) return;
      else start = performance.now();
      await job(index);
      latencies.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, i) => worker(i)));
  return summarize(latencies, (performance.now() - t0) / 1000);
}

/**
 * One GET over a kept-alive connection per worker, each carrying one user's session. For the fixed
 * rate: autocannon's overallRate is a per-second budget that each connection spends as fast as it
 * can and then waits for the next second, so "200 req/s" arrives as bursts at full speed, and its
 * p50/p99 are those of a saturated server for part of each second. Evenly spaced requests through
 * `drive` measure the rate that was asked for.
 */
export function paced(url: string, headers: Record<string, string>[]) {
  const agents = Array.from({ length: CONNECTIONS }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  const target = new URL(url);
  return (worker: number) =>
    new Promise<void>((resolve, reject) => {
      const req = http.get(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          agent: agents[worker],
          headers: headers[worker % headers.length],
        },
        (res) => {
          res.on('data', () => {});
          res.on('end', () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`${url}: answered ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
    });
}

/** Saturated load through HTTP with autocannon; each connection carries one user's session. */
export async function cannon(url: string, headers: Record<string, string>[], seconds: number): Promise<Measured> {
  let next = 0;
  const latencies: number[] = [];
  let bad = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: seconds,
        setupClient: (client) => client.setHeaders(headers[next++ % headers.length]!),
      },
      (err, done) => (err ? reject(err) : resolve(done)),
    );
    // autocannon's own histogram keeps whole milliseconds; these are exact.
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status !== 200) bad++;
      latencies.push(ms);
    });
  });
  if (bad > 0 || result.errors > 0) throw new Error(`${url}: ${bad} answers not 200, ${result.errors} errors`);
  return summarize(latencies, seconds);
}

// ---- a driver in C ---------------------------------------------------------------------------------

/** The wrk binary (Debian's package `wrk`) when installed: a saturating driver far cheaper than autocannon. */
export const WRK = ['/usr/bin/wrk', '/usr/local/bin/wrk'].find((p) => existsSync(p));

/** CPU ms of this process's children that have ended (wrk's, once it exits): /proc's cutime + cstime. */
export function endedChildrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
}

const wrkMs = (text: string): number => {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text.trim());
  if (!m) throw new Error(`wrk: cannot read the latency "${text}"`);
  return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1);
};

/**
 * Saturated load through HTTP with wrk (one thread, CONNECTIONS connections), the requests taking
 * the users' sessions in turn. wrk is a separate process: its CPU time is read when it has ended
 * (endedChildrenCpuMs), so the caller counts it as the driver's.
 */
export async function wrkLoad(url: string, headers: Record<string, string>[], seconds: number): Promise<Measured> {
  if (!WRK) throw new Error('wrk is not installed (apt-get install wrk)');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rpm-bench-wrk-'));
  const script = path.join(dir, 'sessions.lua');
  const lua = (s: string) => JSON.stringify(s); // a JSON string is a valid Lua string for these ASCII values
  writeFileSync(
    script,
    `local sessions = {${headers.map((h) => `{${Object.entries(h).map(([k, v]) => `[${lua(k)}] = ${lua(v)}`).join(', ')}}`).join(', ')}}\n` +
      `local n = 0\n` +
      `request = function() n = n + 1; return wrk.format("GET", nil, sessions[(n % #sessions) + 1]) end\n`,
    { mode: 0o600 },
  );
  try {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(WRK, ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', '-s', script, url], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d.toString()));
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}: ${text}`))));
    });
    const bad = /Non-2xx or 3xx responses: (\d+)/.exec(out);
    const errors = /Socket errors: (.*)/.exec(out);
    if (bad || errors) throw new Error(`${url}: ${bad?.[1] ?? 0} answers not 2xx; socket errors: ${errors?.[1] ?? 'none'}`);
    const count = Number(/(\d+) requests in/.exec(out)?.[1]);
    const pct = (q: string) => wrkMs(new RegExp(`^\\s+${q}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? '');
    return { p50: pct('50'), p99: pct('99'), rps: count / seconds, count };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
