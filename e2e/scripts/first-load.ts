/**
 * Reload-to-data time of /patients/{id}: the real portal (built web app, embedded PostgreSQL),
 * system Chromium, the admin signed in with SRP; the page is reloaded several times and the time
 * from navigation start until the patient's name is on screen is taken by the page's own clock.
 *
 *   npm run build && npx tsx e2e/scripts/first-load.ts [reloads] [other-web-dist]
 *
 * With a second built web app (e.g. a copy of packages/web/dist built from an older commit), both
 * are served by two portals and reloaded in turn, so that both see the same machine load, and
 * the medians are printed side by side with the target (half of the other's).
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { callApi, launchBrowser, signInAs, signInViaApi, startPortal, type Portal } from '../harness.ts';

const reloads = Number(process.argv[2] ?? 15);
const otherDist = process.argv[3] ? path.resolve(process.argv[3]) : undefined;
const PATIENT_NAME = 'Loadtime Measure';
const trace = process.env.FIRST_LOAD_TRACE === '1';

interface Subject {
  label: string;
  portal: Portal;
  page: Page;
  url: string;
  times: number[];
}

async function prepare(browser: Browser, label: string, env: Record<string, string>): Promise<Subject> {
  const portal = await startPortal({ env });
  const adminCookie = await signInViaApi(portal, portal.adminEmail, portal.adminPassword);
  const { rows } = await portal.db.query<{ organization_id: number }>(
    `SELECT organization_id FROM users WHERE lower(email) = lower($1)`,
    [portal.adminEmail],
  );
  const created = await callApi<{ id: number }>(portal, adminCookie, 'POST', '/api/patients', {
    first_name: 'Loadtime',
    middle_name: null,
    last_name: 'Measure',
    date_of_birth: '1950-02-03',
    gender: 'female',
    organization_id: rows[0]!.organization_id,
    primary_provider_id: null,
    enrolled_rpm: true,
    enrollment_status: 'Active',
  });
  if (created.status !== 201) throw new Error(`could not create the patient: ${JSON.stringify(created.body)}`);

  const context = await browser.newContext({ timezoneId: 'UTC' });
  const page = await context.newPage();
  // Notes the moment the patient's name is first on screen, with no polling delay.
  await page.addInitScript((name: string) => {
    const w = window as unknown as { dataShownAt?: number };
    const observer = new MutationObserver(() => {
      if (w.dataShownAt === undefined && document.querySelector('h1')?.textContent === name) {
        w.dataShownAt = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  }, PATIENT_NAME);
  await signInAs(page, portal, portal.adminEmail, portal.adminPassword);
  const url = `${portal.url}/patients/${created.body.id}`;
  await page.goto(url);
  await page.getByRole('heading', { name: PATIENT_NAME }).waitFor();
  return { label, portal, page, url, times: [] };
}

async function reloadOnce(subject: Subject, last: boolean): Promise<void> {
  const { page } = subject;
  await page.reload({ waitUntil: 'commit' });
  await page.getByRole('heading', { name: PATIENT_NAME }).waitFor({ timeout: 30_000 });
  subject.times.push(await page.evaluate(() => (window as unknown as { dataShownAt: number }).dataShownAt));
  if (trace && last) {
    const rows = await page.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((e) => !new URL(e.name).pathname.startsWith('/assets/'))
        .map((e) => `  ${new URL(e.name).pathname} ${Math.round(e.startTime)}-${Math.round(e.responseEnd)} ms`),
    );
    process.stdout.write(`${subject.label}, last reload:\n${rows.join('\n')}\n`);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const browser = await launchBrowser();
const subjects: Subject[] = [];
try {
  subjects.push(await prepare(browser, 'this build', {}));
  if (otherDist) subjects.push(await prepare(browser, `other build (${otherDist})`, { WEB_DIST: otherDist }));
  for (let i = 0; i < reloads; i++) {
    for (const subject of subjects) await reloadOnce(subject, i === reloads - 1);
  }
  for (const s of subjects) {
    const sorted = [...s.times].sort((a, b) => a - b).map(Math.round);
    process.stdout.write(`${s.label}: median ${Math.round(median(s.times))} ms over ${reloads} reloads [${sorted.join(', ')}]\n`);
  }
  if (subjects.length === 2) {
    const [now, before] = subjects.map((s) => median(s.times)) as [number, number];
    process.stdout.write(
      `reload-to-data of /patients/{id}: ${Math.round(now)} ms, before ${Math.round(before)} ms, ` +
        `target at most ${Math.round(before / 2)} ms: ${now <= before / 2 ? 'met' : 'NOT met'} (${Math.round((100 * now) / before)}% of before)\n`,
    );
  }
} finally {
  await browser.close();
  for (const s of subjects) await s.portal.dispose();
}
