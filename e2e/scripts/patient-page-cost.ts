/**
 * What the record of a patient with 90 days of readings costs the browser, in figures that move
 * less with the machine's load than Lighthouse's score: the built portal, the system Chromium at
 * a 4x CPU slowdown (Lighthouse's mobile profile), signed in, the page loaded until the network
 * has been quiet for a while. Prints per run and as medians: long tasks (count, total, the part
 * above 50 ms that Lighthouse counts as blocking), DOM elements, JavaScript bytes fetched and the
 * main thread's script time from a CPU profile.
 *
 *   npm run build && npm run patient-page-cost [-- runs [other-web-dist]]
 *
 * With a second built web app (e.g. packages/web/dist built from an older commit and copied
 * away), a second portal serves it and the two are measured alternately in the same sitting.
 * PROFILE_TOP=n also prints the n functions with the most self time (last run of each portal).
 */
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { chromiumPath, signInViaApi, startPortal, type Portal } from '../harness.ts';
import { createNinetyDayPatient } from './ninety-day-patient.ts';

const runs = Number(process.argv[2] ?? 3);
const otherDist = process.argv[3] ? path.resolve(process.argv[3]) : undefined;
const profileTop = Number(process.env.PROFILE_TOP ?? 0);
const IDLE_MS = 2000;
const CPU_SLOWDOWN = 4;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

interface Cost {
  longTasks: number;
  longTaskMs: number;
  blockingMs: number;
  domElements: number;
  scriptKiB: number;
  scriptMs: number;
  hot: string[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(browser: Browser, portal: Portal, patientId: number): Promise<Cost> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  try {
    const [name, value] = (await signInViaApi(portal, portal.adminEmail, portal.adminPassword)).split('=') as [string, string];
    await context.addCookies([{ name, value, url: portal.url }]);
    await context.addInitScript(() => {
      // The app's hint that this browser holds a session (it cannot read the HttpOnly cookie).
      localStorage.setItem('rpm.hasSession', '1');
      const w = window as unknown as { __longTasks: number[] };
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
      }).observe({ type: 'longtask', buffered: true });
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    let inFlight = 0;
    let lastActivity = Date.now();
    let scriptBytes = 0;
    const scripts = new Set<string>();
    cdp.on('Network.requestWillBeSent', (e) => {
      inFlight++;
      lastActivity = Date.now();
      if (e.type === 'Script') scripts.add(e.requestId);
    });
    const settled = (e: { requestId: string; encodedDataLength?: number }) => {
      inFlight = Math.max(0, inFlight - 1);
      lastActivity = Date.now();
      if (scripts.has(e.requestId)) scriptBytes += e.encodedDataLength ?? 0;
    };
    cdp.on('Network.loadingFinished', settled);
    cdp.on('Network.loadingFailed', (e) => settled({ requestId: e.requestId }));
    await cdp.send('Profiler.start');
    await page.goto(`${portal.url}/patients/${patientId}`);
    // The alert stream stays open for good: idle means nothing else in flight for a while.
    while (inFlight > 1 || Date.now() - lastActivity < IDLE_MS) await page.waitForTimeout(100);
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
    if (!page.url().endsWith(`/patients/${patientId}`)) throw new Error(`the record did not stay open: ${page.url()}`);
    const tasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
    const domElements = await page.evaluate(() => document.getElementsByTagName('*').length);
    const selfMs = new Map<number, number>();
    profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
    const byName = new Map<string, number>();
    let scriptMs = 0;
    for (const node of profile.nodes) {
      const ms = selfMs.get(node.id) ?? 0;
      const { functionName, url, lineNumber, columnNumber } = node.callFrame;
      if (!url) continue;
      scriptMs += ms;
      const key = `${functionName || '(anonymous)'} ${path.basename(url)}:${lineNumber + 1}:${columnNumber + 1}`;
      byName.set(key, (byName.get(key) ?? 0) + ms);
    }
    const hot = [...byName.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, profileTop)
      .map(([key, ms]) => `${ms.toFixed(0).padStart(6)} ms  ${key}`);
    return {
      longTasks: tasks.length,
      longTaskMs: tasks.reduce((a, b) => a + b, 0),
      blockingMs: tasks.reduce((a, b) => a + Math.max(0, b - 50), 0),
      domElements,
      scriptKiB: scriptBytes / 1024,
      scriptMs,
      hot,
    };
  } finally {
    await context.close();
  }
}

const portals: Array<{ label: string; portal: Portal; patientId: number; costs: Cost[] }> = [];
const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  for (const [label, env] of [
    ['this build', {}],
    ...(otherDist ? [[`other (${path.basename(otherDist)})`, { WEB_DIST: otherDist }] as const] : []),
  ] as const) {
    const portal = await startPortal({ env });
    const cookie = await signInViaApi(portal, portal.adminEmail, portal.adminPassword);
    portals.push({ label, portal, patientId: await createNinetyDayPatient(portal, cookie), costs: [] });
  }
  for (let run = 0; run < runs; run++) {
    // Alternated, so that a busy moment of the machine falls on both sides.
    for (const p of run % 2 === 0 ? portals : [...portals].reverse()) {
      const cost = await measure(browser, p.portal, p.patientId);
      p.costs.push(cost);
      console.log(
        `${p.label.padEnd(24)} run ${run + 1}: long tasks ${cost.longTasks} (${cost.longTaskMs.toFixed(0)} ms, ` +
          `blocking ${cost.blockingMs.toFixed(0)} ms)  script ${cost.scriptMs.toFixed(0)} ms  ` +
          `DOM ${cost.domElements}  JS ${cost.scriptKiB.toFixed(1)} KiB`,
      );
    }
  }
  console.log(`\nPatient record, 90 days × 2 kinds, ${CPU_SLOWDOWN}x CPU slowdown, median of ${runs} (range):`);
  for (const p of portals) {
    const fig = (pick: (c: Cost) => number, digits = 0) => {
      const values = p.costs.map(pick);
      return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
    };
    console.log(
      `  ${p.label.padEnd(24)} long tasks ${fig((c) => c.longTasks)}  long-task ms ${fig((c) => c.longTaskMs)}  ` +
        `blocking ms ${fig((c) => c.blockingMs)}  script ms ${fig((c) => c.scriptMs)}  DOM ${fig((c) => c.domElements)}  ` +
        `JS KiB ${fig((c) => c.scriptKiB, 1)}`,
    );
    if (profileTop > 0) console.log(p.costs.at(-1)!.hot.map((line) => `    ${line}`).join('\n'));
  }
} finally {
  await browser.close();
  for (const p of portals) await p.portal.dispose();
}
