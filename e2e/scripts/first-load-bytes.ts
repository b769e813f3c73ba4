/**
 * What a browser really fetches on a first, signed-out visit to /login: the built portal (real
 * server, embedded PostgreSQL), the system Chromium with an empty cache, every response counted
 * (HTML, scripts, styles, fonts, images, the configuration fetch) until the network has been idle
 * for a while. Bytes are as transferred over the wire (Chromium's encodedDataLength: compressed
 * bodies as the server sent them, plus response headers). Fails above the budget.
 *
 *   npm run build && npm run size:browser [-- runs [other-web-dist]]
 *
 * The figure is the same on every run (a fresh profile each time); several runs show that it is.
 * With a second built web app (e.g. packages/web/dist built from an older commit and copied
 * away), it is served by a second portal and measured in the same run, for a before/after table;
 * the budget applies to this build only.
 */
import path from 'node:path';
import { chromium, type CDPSession } from 'playwright-core';
import { chromiumPath, startPortal } from '../harness.ts';

/** The budget for a first visit to /login (issue 28): JavaScript kibibytes as transferred, and requests of any kind. */
export const FIRST_LOAD_BUDGET = { javaScriptKiB: 150, requests: 20 } as const;
/** The network counts as idle once nothing has been in flight for this long. */
const IDLE_MS = 1500;

const runs = Number(process.argv[2] ?? 3);
const otherDist = process.argv[3] ? path.resolve(process.argv[3]) : undefined;

interface Fetched {
  url: string;
  type: string;
  mimeType: string;
  encoding: string;
  bytes: number;
}

async function measure(url: string): Promise<Fetched[]> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp: CDPSession = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const pending = new Map<string, Omit<Fetched, 'bytes'>>();
    const done: Fetched[] = [];
    let lastActivity = Date.now();
    cdp.on('Network.requestWillBeSent', (e) => {
      lastActivity = Date.now();
      pending.set(e.requestId, { url: e.request.url, type: e.type ?? 'Other', mimeType: '', encoding: '' });
    });
    cdp.on('Network.responseReceived', (e) => {
      lastActivity = Date.now();
      const entry = pending.get(e.requestId);
      if (!entry) return;
      entry.mimeType = e.response.mimeType;
      const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
      entry.encoding = headers['content-encoding'] ?? 'identity';
    });
    cdp.on('Network.loadingFinished', (e) => {
      lastActivity = Date.now();
      const entry = pending.get(e.requestId);
      if (!entry) return;
      pending.delete(e.requestId);
      done.push({ ...entry, bytes: e.encodedDataLength });
    });
    cdp.on('Network.loadingFailed', (e) => {
      lastActivity = Date.now();
      const entry = pending.get(e.requestId);
      if (!entry) return;
      pending.delete(e.requestId);
      done.push({ ...entry, bytes: 0, encoding: `failed: ${e.errorText}` });
    });
    await page.goto(url, { waitUntil: 'load' });
    // Code the page starts after load (idle-time imports, preloads for the next step) counts too.
    const deadline = Date.now() + 30_000;
    while (pending.size > 0 || Date.now() - lastActivity < IDLE_MS) {
      if (Date.now() > deadline) throw new Error(`the network did not go idle: ${[...pending.values()].map((p) => p.url).join(', ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return done;
  } finally {
    await browser.close();
  }
}

const isJavaScript = (f: Fetched) => f.type === 'Script' || /javascript/.test(f.mimeType);
const kib = (bytes: number) => bytes / 1024;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Result {
  jsKiB: number;
  totalKiB: number;
  requests: number;
  jsRequests: number;
}

async function measureBuild(label: string, env: Record<string, string>): Promise<Result[]> {
  const portal = await startPortal({ env });
  const results: Result[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const fetched = await measure(`${portal.url}/login`);
      const js = fetched.filter(isJavaScript);
      results.push({
        jsKiB: kib(js.reduce((s, f) => s + f.bytes, 0)),
        totalKiB: kib(fetched.reduce((s, f) => s + f.bytes, 0)),
        requests: fetched.length,
        jsRequests: js.length,
      });
      if (i === 0) {
        process.stdout.write(`${label}: first visit to /login, every response (bytes as transferred, content-encoding):\n`);
        for (const f of [...fetched].sort((a, b) => b.bytes - a.bytes)) {
          process.stdout.write(`  ${String(f.bytes).padStart(7)}  ${f.type.padEnd(10)} ${f.encoding.padEnd(9)} ${new URL(f.url).pathname}\n`);
        }
      }
    }
  } finally {
    await portal.dispose();
  }
  return results;
}

const range = (values: number[], digits = 1) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
function summary(label: string, results: Result[]): string {
  return (
    `${label}, first visit to /login over ${runs} runs (median, range):\n` +
    `  JavaScript ${median(results.map((r) => r.jsKiB)).toFixed(1)} KiB (${range(results.map((r) => r.jsKiB))}) in ${median(results.map((r) => r.jsRequests))} scripts; budget ${FIRST_LOAD_BUDGET.javaScriptKiB} KiB\n` +
    `  all responses ${median(results.map((r) => r.totalKiB)).toFixed(1)} KiB (${range(results.map((r) => r.totalKiB))})\n` +
    `  requests ${median(results.map((r) => r.requests))} (${range(results.map((r) => r.requests), 0)}); budget ${FIRST_LOAD_BUDGET.requests}\n`
  );
}

const other = otherDist ? await measureBuild(`other build (${otherDist})`, { WEB_DIST: otherDist }) : undefined;
const results = await measureBuild('this build', {});
if (other) process.stdout.write(summary(`before: other build (${otherDist})`, other));
process.stdout.write(summary(other ? 'after: this build' : 'this build', results));

// Every run must be within the budget, not only the median.
const worstJsKiB = Math.max(...results.map((r) => r.jsKiB));
const worstRequests = Math.max(...results.map((r) => r.requests));
const over = [
  worstJsKiB > FIRST_LOAD_BUDGET.javaScriptKiB && `JavaScript ${worstJsKiB.toFixed(1)} KiB > ${FIRST_LOAD_BUDGET.javaScriptKiB} KiB`,
  worstRequests > FIRST_LOAD_BUDGET.requests && `${worstRequests} requests > ${FIRST_LOAD_BUDGET.requests}`,
].filter(Boolean);
if (over.length) {
  process.stderr.write(`first-load budget exceeded: ${over.join('; ')}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write('first-load budget met\n');
}
