/**
 * `npm run lighthouse [-- runs]`: Lighthouse (its default mobile profile) on the built portal,
 * signed in, for /login, /patients and the record of a patient with 90 days of readings of two
 * kinds (a blood pressure and a weight each morning, entered through the API as manual
 * readings). Each page is audited `runs` times (3 by default); prints the median performance
 * score with its range, accessibility, and the median of each metric.
 * Needs the build (`npm run build`) and Chromium (CHROMIUM_PATH or /usr/bin/chromium).
 * With LIGHTHOUSE_REPORT_DIR set, each page's last full JSON report is written there as well.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { callApi, chromiumPath, signInViaApi, startPortal } from './harness.ts';

const runs = Number(process.argv[2] ?? 3);
const DAYS_OF_READINGS = 90;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const portal = await startPortal();
const chrome = await chromeLauncher.launch({
  chromePath: chromiumPath(),
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
});
try {
  const cookie = await signInViaApi(portal, portal.adminEmail, portal.adminPassword);
  const org = await portal.db.query<{ id: number }>('SELECT id FROM organizations ORDER BY id LIMIT 1');
  const patient = await callApi<{ id: number }>(portal, cookie, 'POST', '/api/patients', {
    first_name: 'Light',
    last_name: 'House',
    organization_id: org.rows[0]!.id,
    insurances: [],
    device_ids: [],
  });
  if (patient.status !== 201) throw new Error(`could not create the patient: ${JSON.stringify(patient.body)}`);
  // A morning blood pressure and weight for each of the last 90 days, varying a little.
  const day = (ago: number, hour: number) => {
    const d = new Date();
    d.setUTCHours(hour, 0, 0, 0);
    d.setUTCDate(d.getUTCDate() - ago);
    return d.toISOString();
  };
  for (let ago = DAYS_OF_READINGS; ago >= 1; ago--) {
    const readings = [
      { kind: 'blood_pressure', created_at: day(ago, 7), components: { systolic: 118 + (ago % 23), diastolic: 74 + (ago % 11), pulse: 64 + (ago % 9) } },
      { kind: 'weight', created_at: day(ago, 7), components: { weight: 82 + ((ago % 7) - 3) * 0.3 }, unit: 'kg' },
    ];
    for (const reading of readings) {
      const added = await callApi(portal, cookie, 'POST', `/api/patients/${patient.body.id}/observations`, reading);
      if (added.status !== 201) throw new Error(`could not add a reading: ${JSON.stringify(added.body)}`);
    }
  }

  const pages: Array<{ path: string; signedIn: boolean }> = [
    { path: '/login', signedIn: false },
    { path: '/patients', signedIn: true },
    { path: `/patients/${patient.body.id}`, signedIn: true },
  ];
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const rows: string[] = [];
  for (const { path, signedIn } of pages) {
    const scores: number[] = [];
    const accessibility: number[] = [];
    const metrics: Record<string, number[]> = {};
    for (let run = 0; run < runs; run++) {
      const context = browser.contexts()[0]!;
      await context.clearCookies();
      if (signedIn) {
        // A session per page: closing the audited tab ends its session (the page-close logout).
        const [name, value] = (await signInViaApi(portal, portal.adminEmail, portal.adminPassword)).split('=') as [string, string];
        await context.addCookies([{ name, value, url: portal.url }]);
        // The app's hint that this browser holds a session (it cannot read the HttpOnly cookie).
        const page = await context.newPage();
        await page.goto(`${portal.url}/favicon.svg`);
        await page.evaluate(() => localStorage.setItem('rpm.hasSession', '1'));
        await page.close();
      }
      const result = await lighthouse(`${portal.url}${path}`, {
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
        writeFileSync(join(reportDir, `${path.replace(/\W+/g, '_') || 'root'}.json`), JSON.stringify(lhr));
      }
      if (signedIn && !lhr.finalDisplayedUrl.endsWith(path)) throw new Error(`${path} did not stay signed in`);
      scores.push(Math.round((lhr.categories.performance?.score ?? 0) * 100));
      accessibility.push(Math.round((lhr.categories.accessibility?.score ?? 0) * 100));
      for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift']) {
        (metrics[id] ??= []).push(lhr.audits[id]?.numericValue ?? NaN);
      }
    }
    const ms = (id: string) => `${Math.round(median(metrics[id]!))} ms`;
    rows.push(
      `${path.padEnd(16)} performance ${String(median(scores)).padStart(3)} (${Math.min(...scores)}–${Math.max(...scores)})` +
        `  accessibility ${String(median(accessibility)).padStart(3)}` +
        `  FCP ${ms('first-contentful-paint')}  LCP ${ms('largest-contentful-paint')}  TBT ${ms('total-blocking-time')}` +
        `  CLS ${median(metrics['cumulative-layout-shift']!).toFixed(3)}`,
    );
  }
  await browser.close().catch(() => {});
  console.log(`Lighthouse, mobile profile (simulated slow 4G, 4x CPU slowdown), median of ${runs} runs (range):`);
  for (const row of rows) console.log(`  ${row}`);
} finally {
  chrome.kill();
  await portal.dispose();
}
