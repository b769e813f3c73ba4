/**
 * `npm run lighthouse [-- runs [other-web-dist [pages]]]`: Lighthouse (its default mobile
 * profile) on the built portal, signed in, for /login, /patients and the record of a patient with
 * 90 days of readings of two kinds (a blood pressure and a weight each morning, entered through
 * the API as manual readings). Each page is audited `runs` times (3 by default); prints the
 * median performance score with its range, accessibility, and the median of each metric.
 * With a second built web app (e.g. packages/web/dist built from an older commit and copied
 * away), a second portal serves it and the two are audited alternately, run by run, so that a busy
 * moment of the machine falls on both; `pages` (e.g. `record`, or `login,patients,record`)
 * limits the pages audited.
 * Needs the build (`npm run build`) and Chromium (CHROMIUM_PATH or /usr/bin/chromium).
 * With LIGHTHOUSE_REPORT_DIR set, each page's last full JSON report is written there as well.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { chromiumPath, signInViaApi, startPortal, type Portal } from './harness.ts';
import { createNinetyDayPatient } from './scripts/ninety-day-patient.ts';

const runs = Number(process.argv[2] ?? 3);
const otherDist = process.argv[3] && process.argv[3] !== '-' ? resolve(process.argv[3]) : undefined;
const wanted = (process.argv[4] ?? 'login,patients,record').split(',');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];

interface Audited {
  label: string;
  portal: Portal;
  pages: Array<{
    name: string;
    path: string;
    signedIn: boolean;
    scores: number[];
    accessibility: number[];
    metrics: Record<string, number[]>;
    /** Runs Lighthouse itself could not complete, by error code. */
    failed: string[];
  }>;
}

const sides: Audited[] = [];
const chrome = await chromeLauncher.launch({
  chromePath: chromiumPath(),
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
});
try {
  for (const [label, env] of [
    ['this build', {}],
    ...(otherDist ? [[`other (${basename(otherDist)})`, { WEB_DIST: otherDist }] as const] : []),
  ] as const) {
    const portal = await startPortal({ env });
    sides.push({ label, portal, pages: [] });
    const cookie = await signInViaApi(portal, portal.adminEmail, portal.adminPassword);
    const patientId = await createNinetyDayPatient(portal, cookie);
    const pages = [
      { name: 'login', path: '/login', signedIn: false },
      { name: 'patients', path: '/patients', signedIn: true },
      { name: 'record', path: `/patients/${patientId}`, signedIn: true },
    ];
    sides.at(-1)!.pages = pages
      .filter((p) => wanted.includes(p.name))
      .map((p) => ({ ...p, scores: [], accessibility: [], metrics: {}, failed: [] }));
  }

  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  for (let run = 0; run < runs; run++) {
    for (const side of run % 2 === 0 ? sides : [...sides].reverse()) {
      const { portal } = side;
      for (const page of side.pages) {
        const context = browser.contexts()[0]!;
        await context.clearCookies();
        if (page.signedIn) {
          // A session per page: closing the audited tab ends its session (the page-close logout).
          const [name, value] = (await signInViaApi(portal, portal.adminEmail, portal.adminPassword)).split('=') as [string, string];
          await context.addCookies([{ name, value, url: portal.url }]);
          // The app's hint that this browser holds a session (it cannot read the HttpOnly cookie).
          const tab = await context.newPage();
          await tab.goto(`${portal.url}/favicon.svg`);
          await tab.evaluate(() => localStorage.setItem('rpm.hasSession', '1'));
          await tab.close();
        }
        const result = await lighthouse(`${portal.url}${page.path}`, {
          port: chrome.port,
          logLevel: 'error',
          output: 'json',
          onlyCategories: ['performance', 'accessibility'],
          // Keep the session cookie set above.
          disableStorageReset: true,
        });
        const lhr = result!.lhr;
        const reportDir = process.env.LIGHTHOUSE_REPORT_DIR;
        if (reportDir) {
          mkdirSync(reportDir, { recursive: true });
          const prefix = sides.indexOf(side) === 1 ? 'other-' : '';
          writeFileSync(join(reportDir, `${prefix}${page.path.replace(/\W+/g, '_') || 'root'}.json`), JSON.stringify(lhr));
        }
        if (lhr.runtimeError) {
          // Lighthouse's own failures (NO_NAVSTART, a trace it could not read) say nothing of the
          // page: such a run is counted apart, not as a score of 0.
          page.failed.push(lhr.runtimeError.code);
          console.log(`${side.label.padEnd(22)} run ${run + 1} ${page.name.padEnd(9)} Lighthouse failed: ${lhr.runtimeError.code}`);
          continue;
        }
        if (page.signedIn && !lhr.finalDisplayedUrl.endsWith(page.path)) throw new Error(`${page.path} did not stay signed in`);
        const score = Math.round((lhr.categories.performance?.score ?? 0) * 100);
        page.scores.push(score);
        page.accessibility.push(Math.round((lhr.categories.accessibility?.score ?? 0) * 100));
        for (const id of METRICS) (page.metrics[id] ??= []).push(lhr.audits[id]?.numericValue ?? NaN);
        if (sides.length > 1) {
          const m = (id: string) => Math.round(page.metrics[id]!.at(-1)!);
          console.log(
            `${side.label.padEnd(22)} run ${run + 1} ${page.name.padEnd(9)} performance ${score}  LCP ${m('largest-contentful-paint')} ms  ` +
              `TBT ${m('total-blocking-time')} ms  SI ${m('speed-index')} ms`,
          );
        }
      }
    }
  }
  await browser.close().catch(() => {});

  console.log(`Lighthouse, mobile profile (simulated slow 4G, 4x CPU slowdown), median of the completed runs of ${runs} (range):`);
  for (const side of sides) {
    if (sides.length > 1) console.log(side.label);
    for (const page of side.pages) {
      const failed = page.failed.length ? `  (${page.failed.length} run(s) failed in Lighthouse: ${page.failed.join(', ')})` : '';
      if (page.scores.length === 0) {
        console.log(`  ${page.path.padEnd(16)} no completed run${failed}`);
        continue;
      }
      const ms = (id: string) => {
        const values = page.metrics[id]!;
        return `${Math.round(median(values))} ms (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))})`;
      };
      console.log(
        `  ${page.path.padEnd(16)} performance ${String(median(page.scores)).padStart(3)} (${Math.min(...page.scores)}–${Math.max(...page.scores)})` +
          `  accessibility ${String(median(page.accessibility)).padStart(3)}` +
          `  FCP ${ms('first-contentful-paint')}  LCP ${ms('largest-contentful-paint')}  TBT ${ms('total-blocking-time')}` +
          `  SI ${ms('speed-index')}  CLS ${median(page.metrics['cumulative-layout-shift']!).toFixed(3)}${failed}`,
      );
    }
  }
} finally {
  chrome.kill();
  for (const side of sides) await side.portal.dispose();
}
