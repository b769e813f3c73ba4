/**
 * RPM billing as the billing staff use it: a patient with device readings on 18 days of a month
 * and 25 minutes of tracking time, one entry of it logged through the tracking dialog as a live
 * call, shows 99454 and 99457 on /billing; the CSV export downloads and parses to the same rows.
 * The page is photographed at a laptop's size (1280x800) and a phone's (390x844).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BillingCsvColumns, BillingHints, BillingPageTexts, BillingTexts, Labels, PatientTexts, type BillingReport } from '@rpm/contracts';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiAs,
  buildPatient,
  buildReadings,
  buildTrackingEntry,
  collectConsoleErrors,
  launchBrowser,
  type Portal,
  REPO_ROOT,
  signInAs,
  startPortal,
} from './harness.ts';

let portal: Portal;
let browser: Browser;
let patientId: number;
// A past month of 31 days: the 30-day period from the 1st ends inside it.
const MONTH = '2026-10';

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
  const { rows } = await portal.db.query<{ organization_id: number }>(`SELECT organization_id FROM users WHERE lower(email) = lower($1)`, [
    portal.adminEmail,
  ]);
  const org = rows[0]!.organization_id;
  patientId = await buildPatient(portal.db, {
    firstName: 'Billie',
    lastName: 'Monitored',
    dateOfBirth: '1948-05-06',
    organizationId: org,
    enrolledRpm: true,
    enrollmentStatus: 'Active',
    insurances: [{ type: 'Medicare', providerName: 'CMS', policyNumber: 'MBI-7788' }],
  });
  // Device readings (a cuff's id as source) at noon New York time on October 1 to 18, and manual
  // readings on other days, which must not count.
  const daysFrom = (day: number, count: number) => Array.from({ length: count }, (_, d) => new Date(Date.UTC(2026, 9, day + d, 16)));
  const reading = (source: string) => (at: Date) => ({ at, source, systolic: 128, diastolic: 82, pulse: 70 });
  await buildReadings(portal.db, patientId, daysFrom(1, 18).map(reading('CUFF-E2E')));
  await buildReadings(portal.db, patientId, daysFrom(20, 6).map(reading('manual')));
  // Ten minutes of chart review (not a live contact); the call is logged in the dialog below.
  await buildTrackingEntry(portal.db, { patientId, date: '2026-10-03', durationMinutes: 10 });
  // Another enrolled patient with nothing billable, to show what is missing.
  await buildPatient(portal.db, { firstName: 'Nolan', lastName: 'Readings', organizationId: org, enrolledRpm: true });
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
  page.screenshot({ path: path.join(REPO_ROOT, 'e2e/artifacts', `billing-${name}.png`), fullPage: true });

describe('RPM billing', () => {
  it('logs a live call in the tracking dialog, shows 99454 and 99457 on /billing, and exports the same rows as CSV', async () => {
    const { page, errors, close } = await signedInPage(1280, 800);

    await page.goto(`${portal.url}/patients/${patientId}`);
    await page.getByRole('button', { name: Labels.addTrackingTime }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(PatientTexts.date).fill('2026-10-09');
    await dialog.getByLabel(PatientTexts.minutes).fill('15');
    await dialog.getByLabel(BillingTexts.interactiveCheckbox).check();
    await dialog.getByRole('button', { name: Labels.save }).click();
    await page.getByText(PatientTexts.trackingAdded).waitFor();

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: BillingTexts.title }).click();
    await page.waitForURL(`${portal.url}/billing`);
    await page.getByRole('heading', { level: 1, name: BillingTexts.title, exact: true }).waitFor();
    // /billing opens on this month's worklist; the report is the other tab.
    const reportTab = page.getByRole('tab', { name: BillingPageTexts.reportTab });
    await reportTab.click();
    // Both views have a month field: fill the report's, once its tab is the one shown.
    await expect.poll(() => reportTab.getAttribute('aria-selected')).toBe('true');
    await page.getByLabel(BillingTexts.month, { exact: true }).fill(MONTH);
    const row = page.getByTestId(`billing-row-${patientId}`);
    // The current month's rows stay shown until October's arrive.
    await expect.poll(() => row.getByRole('cell').allTextContents(), { timeout: 15_000 }).toEqual([
      'Billie Monitored',
      '2026-10-01 – 2026-10-30',
      '18',
      '25',
      BillingTexts.yes,
      '99453, 99454, 99457',
      '',
    ]);
    await expect.poll(() => page.getByTestId('billing-totals').textContent()).toContain('99454');
    const other = await page.getByRole('row').filter({ hasText: 'Nolan Readings' }).textContent();
    expect(other).toContain(BillingHints.contactFor('99470'));
    expect(other).toContain(BillingTexts.missingMinutes(10, '99470'));
    await shot(page, 'laptop');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: BillingTexts.exportCsv }).click()]);
    expect(download.suggestedFilename()).toBe(`billing-${MONTH}.csv`);
    const csv = await readFile((await download.path())!, 'utf8');
    const [header, ...lines] = parse(csv) as string[][];
    expect(header).toEqual([...BillingCsvColumns]);

    // The page's rows and the CSV's lines are the same: one line per patient and code earned.
    const report = await apiAs<BillingReport>(page, portal, 'GET', `/api/billing?month=${MONTH}`);
    const expected = report.body.rows.flatMap((r) => r.codes.map((c) => [r.patient_name, c.code, String(c.units), c.period_start, c.period_end]));
    expect(lines.map((l) => [l[0], l[6], l[7], l[8], l[9]])).toEqual(expected);
    expect(lines.map((l) => l[6])).toEqual(['99453', '99454', '99457']);
    expect(lines[0]!.slice(0, 6)).toEqual(['Billie Monitored', '1948-05-06', 'Medicare', 'MBI-7788', '', expect.any(String)]);
    expect(errors).toEqual([]);
    await close();
  });

  it('fits a phone (390x844): the filters stack and the table scrolls on its own', async () => {
    const { page, errors, close } = await signedInPage(390, 844);
    await page.goto(`${portal.url}/billing?month=${MONTH}`);
    await page.getByTestId(`billing-row-${patientId}`).waitFor();
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth).toBeLessThanOrEqual(390);
    // The pager under the table says where the page is, and its buttons are on the screen.
    const pager = page.getByRole('navigation', { name: BillingPageTexts.pager });
    const report = await apiAs<BillingReport>(page, portal, 'GET', `/api/billing?month=${MONTH}`);
    expect(await pager.getByRole('status').textContent()).toBe(
      BillingPageTexts.showing(1, report.body.rows.length, report.body.total),
    );
    const next = await pager.getByRole('button', { name: BillingPageTexts.pageButton.next }).boundingBox();
    expect(next!.x + next!.width).toBeLessThanOrEqual(390);
    await shot(page, 'phone');
    expect(errors).toEqual([]);
    await close();
  });
});
