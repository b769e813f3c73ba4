// Load for the HTTP benchmark (bench.ts): fixed-rate and saturated drivers, latency summaries, CPU time of a process.
import { readFileSync } from 'node:fs';
import http from 'node:http';
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
 * Calls `job` from `connections` workers for `seconds`: as fast as they can, or at `rate` per
 * second overall, each call at its own evenly spaced slot (open loop). Latency in ms: at a fixed
 * rate from the slot's due time, so a call held back by a slow one counts its wait (no
 * coordinated omission); saturated from the call's start.
 */
export async function drive(job: (worker: number) => Promise<void>, seconds: number, rate?: number): Promise<Measured> {
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
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => worker(i)));
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
