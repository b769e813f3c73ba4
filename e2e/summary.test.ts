/**
 * The monthly summary for the physician as a person prints it: the page of a patient's month,
 * with long notes and every section filled, laid out for print (print media emulated) at the
 * printable width of A4 and of US Letter at 100 %: no table may be wider than the page, and the
 * portal's top bar and navigation are not printed. The PDF button downloads the server's PDF, and
 * the page works on a phone without widening it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SummaryTexts, summaryMonthLabel, summaryPagePath, summaryPdfFileName } from '@rpm/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminOrganizationId,
  axeViolations,
  buildNote,
  buildPatient,
  buildReadings,
  buildTrackingEntry,
  collectConsoleErrors,
  launchBrowser,
  REPO_ROOT,
  signInAs,
  startPortal,
  type Portal,
} from './harness.ts';

let portal: Portal;
let browser: Browser;
let patientId: number;
const MONTH = '2026-03';

/** CSS pixels (96 per inch) of the paper's width less the page's 12 mm margins on each side. */
const MM = 96 / 25.4;
const PRINTABLE = {
  a4: Math.floor((210 - 24) * MM),
  letter: Math.floor((8.5 * 25.4 - 24) * MM),
};

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
  const org = await adminOrganizationId(portal);
  patientId = await buildPatient(portal.db, {
    firstName: 'Prudence',
    lastName: 'Printwell-Featherstonehaugh',
    dateOfBirth: '1944-07-08',
    organizationId: org,
    enrolledRpm: true,
    enrollmentStatus: 'Active',
  });
  const days = Array.from({ length: 20 }, (_, d) => new Date(Date.UTC(2026, 2, 2 + d, 15)));
  await buildReadings(
    portal.db,
    patientId,
    days.map((at, i) => ({ at, source: 'CUFF-SUM', systolic: 120 + (i % 25), diastolic: 76 + (i % 9), pulse: 64 + (i % 7) })),
  );
  const { rows } = await portal.db.query<{ id: number }>(`SELECT id FROM users WHERE lower(email) = lower($1)`, [portal.adminEmail]);
  const author = rows[0]!.id;
  // Long words and long notes: the notes table must wrap them, not run past the paper's edge.
  for (const [i, content] of [
    'Spoke with the patient about the morning readings; advised to measure seated after five minutes of rest.',
    'Pharmacy-confirmed-medication-change-hydrochlorothiazide-12.5mg-to-25mg-without-any-spaces-in-this-long-token',
    'Follow-up call scheduled. '.repeat(20),
  ].entries()) {
    await buildNote(portal.db, { patientId, authorId: author, content, createdAt: `2026-03-${10 + i}T15:00:00Z` });
  }
  for (const [date, minutes] of [
    ['2026-03-04', 12],
    ['2026-03-18', 15],
  ] as const) {
    await buildTrackingEntry(portal.db, { patientId, date, durationMinutes: minutes, userId: author, interactive: minutes === 15 });
  }
});
afterAll(async () => {
  await browser?.close();
  await portal?.dispose();
});

async function signedInPage(width: number, height: number) {
  const context = await browser.newContext({ timezoneId: 'America/New_York', viewport: { width, height }, acceptDownloads: true });
  const page = await context.newPage();
  const errors = collectConsoleErrors(page, [/401/]);
  await signInAs(page, portal, portal.adminEmail, portal.adminPassword);
  return { page, errors, close: () => context.close() };
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(REPO_ROOT, 'e2e/artifacts', `summary-${name}.png`), fullPage: true });

/** Each table's overflow past the page's width and past its own box (0 when it fits). */
const tableOverflows = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('table')].map((t) => ({
      name: t.getAttribute('aria-label'),
      pastPage: Math.max(0, Math.ceil(t.getBoundingClientRect().right) - document.documentElement.clientWidth),
      pastOwnBox: Math.max(0, t.scrollWidth - t.clientWidth, (t.parentElement?.scrollWidth ?? 0) - (t.parentElement?.clientWidth ?? 0)),
    })),
  );

describe('monthly summary page', () => {
  for (const paper of ['a4', 'letter'] as const) {
    it(`prints on ${paper} at 100 % without the portal's chrome or a table wider than the page`, async () => {
      const { page, errors, close } = await signedInPage(PRINTABLE[paper], 1100);
      await page.goto(`${portal.url}${summaryPagePath(patientId, MONTH)}`);
      await page.getByRole('heading', { level: 1, name: `${SummaryTexts.title}: ${summaryMonthLabel(MONTH)}` }).waitFor();
      await page.getByRole('table', { name: SummaryTexts.notes }).waitFor();
      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('header').first().isVisible()).toBe(false);
      expect(await page.locator('nav').first().isVisible()).toBe(false);
      expect(await page.getByRole('link', { name: SummaryTexts.downloadPdf, exact: true }).isVisible()).toBe(false);
      // Pages break between sections, never between a section's heading and what follows it.
      expect(
        await page.evaluate(() =>
          [...document.querySelectorAll('section')].map((sec) => [
            getComputedStyle(sec).breakInside,
            getComputedStyle(sec.querySelector('h2')!).breakAfter,
          ]),
        ),
      ).toEqual(Array(5).fill(['avoid', 'avoid']));
      const overflows = await tableOverflows(page);
      expect(overflows.map((o) => o.name)).toEqual([SummaryTexts.readings, SummaryTexts.time, SummaryTexts.codes, SummaryTexts.notes]);
      for (const o of overflows) expect(o, `${o.name} on ${paper}`).toMatchObject({ pastPage: 0, pastOwnBox: 0 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PRINTABLE[paper]);
      await shot(page, `print-${paper}`);
      // Chromium's own print to PDF at that paper and 100 %: it lays the page out without error.
      const pdf = await page.pdf({ format: paper === 'a4' ? 'A4' : 'Letter', scale: 1, margin: { top: '12mm', bottom: '12mm', left: '12mm', right: '12mm' } });
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      await writeFile(path.join(REPO_ROOT, 'e2e/artifacts', `summary-print-${paper}.pdf`), pdf);
      expect(errors).toEqual([]);
      await close();
    });
  }

  it("links to this month's and last month's summary from the patient page", async () => {
    const { page, close } = await signedInPage(1280, 800);
    await page.goto(`${portal.url}/patients/${patientId}`);
    // The clock of the browser is today's: only the links' shape is checked, not their month.
    for (const name of [SummaryTexts.thisMonth, SummaryTexts.lastMonth]) {
      expect(await page.getByRole('link', { name }).getAttribute('href')).toMatch(
        new RegExp(`^/patients/${patientId}/summary/\\d{4}-\\d{2}$`),
      );
    }
    await close();
  });

  it('downloads the PDF and works on a phone', async () => {
    const { page, errors, close } = await signedInPage(390, 844);
    await page.goto(`${portal.url}${summaryPagePath(patientId, MONTH)}`);
    await page.getByRole('table', { name: SummaryTexts.readings }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'phone');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: SummaryTexts.downloadPdf, exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(summaryPdfFileName(patientId, MONTH));
    const file = await download.path();
    expect((await readFile(file)).subarray(0, 5).toString()).toBe('%PDF-');
    expect(errors).toEqual([]);
    await close();
  });
});
