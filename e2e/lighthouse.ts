/**
 * `npm run lighthouse`: Lighthouse (its default mobile profile) on the built portal, signed in,
 * for /login, /patients and a patient's record. Prints performance and accessibility per page.
 * Needs the build (`npm run build`) and Chromium (CHROMIUM_PATH or /usr/bin/chromium).
 * With LIGHTHOUSE_REPORT_DIR set, each page's full JSON report is written there as well.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { callApi, chromiumPath, signInViaApi, startPortal } from './harness.ts';

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

  const pages: Array<{ path: string; signedIn: boolean }> = [
    { path: '/login', signedIn: false },
    { path: '/patients', signedIn: true },
    { path: `/patients/${patient.body.id}`, signedIn: true },
  ];
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const rows: string[] = [];
  for (const { path, signedIn } of pages) {
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
    const score = (c: string) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
    const metric = (id: string) => lhr.audits[id]?.displayValue ?? '-';
    if (signedIn && !lhr.finalDisplayedUrl.endsWith(path)) throw new Error(`${path} did not stay signed in`);
    rows.push(
      `${path.padEnd(16)} performance ${String(score('performance')).padStart(3)}  accessibility ${String(score('accessibility')).padStart(3)}` +
        `  FCP ${metric('first-contentful-paint')}  LCP ${metric('largest-contentful-paint')}  TBT ${metric('total-blocking-time')}`,
    );
  }
  await browser.close().catch(() => {});
  console.log('Lighthouse, mobile profile (simulated slow 4G, 4x CPU slowdown):');
  for (const row of rows) console.log(`  ${row}`);
} finally {
  chrome.kill();
  await portal.dispose();
}
