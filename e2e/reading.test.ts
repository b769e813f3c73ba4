/**
 * Reading clinical and admin data at a phone's size (390x844) and a laptop's (1280x800): the
 * patient list searched and paged by the server, high readings marked with a legend, age, gender,
 * note authors and monthly totals, the audit log paging against a snapshot, and the DB inspector.
 * Each page is checked with axe-core for serious or critical violations, and photographed.
 */
import path from 'node:path';
import {
  AdminTexts,
  AlertTexts,
  BloodPressureTexts,
  DEFAULT_ALERT_THRESHOLDS,
  Labels,
  PatientTexts,
} from '@rpm/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  axeViolations,
  buildAuditRecords,
  buildNote,
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
import { renameStaff } from '../packages/server/test/support/factories.ts';

let portal: Portal;
let browser: Browser;
let patientId: number;

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'laptop', width: 1280, height: 800 },
] as const;

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
  const { rows } = await portal.db.query<{ organization_id: number; id: number }>(
    `SELECT id, organization_id FROM users WHERE lower(email) = lower($1)`,
    [portal.adminEmail],
  );
  const org = rows[0]!.organization_id;
  await renameStaff(portal.db, rows[0]!.id, 'Ada', 'Admin');
  // Sixty patients, so the list has pages; one with an accented name to search for.
  for (let g = 1; g <= 60; g++) {
    await buildPatient(portal.db, {
      firstName: `Pat${g}`,
      lastName: `Listed${String(g).padStart(3, '0')}`,
      dateOfBirth: new Date(Date.UTC(1960, 0, 1 + g)).toISOString().slice(0, 10),
      gender: 'female',
      organizationId: org,
      enrollmentStatus: ['Active', 'Paused', 'Discharged', 'Declined'][g % 4]!,
    });
  }
  patientId = await buildPatient(portal.db, {
    firstName: 'José',
    lastName: 'Núñez',
    dateOfBirth: '1950-12-10',
    gender: 'male',
    organizationId: org,
    enrollmentStatus: 'Active',
  });
  // Newest first: a critical reading, a high one, a normal one.
  await buildReadings(portal.db, patientId, [
    { at: { ago: '1 hour' }, systolic: 186, diastolic: 100, pulse: 80 },
    // Exactly 135/85: at or above stage 2, as the alert rule treats it.
    { at: { ago: '2 hours' }, systolic: 135, diastolic: 85, pulse: 72 },
    { at: { ago: '3 hours' }, systolic: 128, diastolic: 82, pulse: 70 },
  ]);
  await buildNote(portal.db, { patientId, authorId: rows[0]!.id, content: 'Reviewed by phone' });
  // Enough audit records for several pages, whatever else has been recorded.
  await buildAuditRecords(portal.db, 40, (n) => ({ action: 'e2e.seed', details: { n } }));
  const today = (await portal.db.query<{ d: string }>(`SELECT current_date::text AS d`)).rows[0]!.d;
  for (const durationMinutes of [25, 10])
    await buildTrackingEntry(portal.db, { patientId, date: today, durationMinutes });
});
afterAll(async () => {
  await browser?.close();
  await portal?.dispose();
});

/** Screenshots of the pages, to look at (kept out of git). */
async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(REPO_ROOT, 'e2e/artifacts', `reading-${name}.png`), fullPage: true });
}

async function signedInPage(size: (typeof SIZES)[number]) {
  const context = await browser.newContext({ timezoneId: 'UTC', viewport: { width: size.width, height: size.height } });
  const page = await context.newPage();
  const errors = collectConsoleErrors(page, [/401/]);
  await signInAs(page, portal, portal.adminEmail, portal.adminPassword);
  return { page, errors, close: () => context.close() };
}

describe.each(SIZES)('reading data at $width x $height', (size) => {
  it('searches the patient list by name without accents, and pages it on the server', async () => {
    const { page, errors, close } = await signedInPage(size);
    await page.goto(`${portal.url}/patients`);
    const table = page.getByRole('table', { name: PatientTexts.listTitle });
    await table.getByRole('row').nth(1).waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      PatientTexts.firstName,
      PatientTexts.lastName,
      PatientTexts.dateOfBirth,
      PatientTexts.status,
      PatientTexts.lastReading,
      PatientTexts.openAlerts,
      PatientTexts.minutesThisMonth,
      PatientTexts.deviceDaysThisMonth,
      PatientTexts.organization,
      PatientTexts.actions,
    ]);
    await page.getByText(/^1–25 of 61$/).waitFor();
    await page.getByRole('button', { name: /next page/i }).click();
    await page.getByText(/^26–50 of 61$/).waitFor();
    await table.getByRole('cell', { name: 'Listed026', exact: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, `${size.name}-patients`);

    await page.getByRole('searchbox', { name: PatientTexts.search }).fill('jose nunez');
    await page.getByText(/^1–1 of 1$/).waitFor();
    const row = table.getByRole('row', { name: /José.*Núñez/ });
    expect(await row.textContent()).toContain('1950-12-10');
    await page.getByRole('searchbox', { name: PatientTexts.search }).fill('1950-12-10');
    // The search is in the address once typing pauses.
    await page.waitForURL(/q=1950-12-10/);
    await table.getByRole('row', { name: /José.*Núñez/ }).waitFor();
    await row.getByRole('link', { name: /^View/ }).click();
    await page.waitForURL(`${portal.url}/patients/${patientId}`);
    await page.getByRole('heading', { name: 'José Núñez' }).waitFor();
    // Back returns to the list as it was left.
    await page.goBack();
    expect(await page.getByRole('searchbox', { name: PatientTexts.search }).inputValue()).toBe('1950-12-10');
    expect(errors).toEqual([]);
    await close();
  });

  it('marks high and critical readings with a legend, and shows age, gender, note author and monthly total', async () => {
    const { page, errors, close } = await signedInPage(size);
    await page.goto(`${portal.url}/patients/${patientId}`);
    const vitals = page.getByRole('table', { name: PatientTexts.vitals });
    await vitals.getByRole('row').nth(3).waitFor();
    const rows = vitals.locator('tbody tr');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-level')))).toEqual([
      'critical',
      'high',
      // 128/82: stage 1 by its diastolic (marked, not alerted).
      'elevated',
    ]);
    const t = DEFAULT_ALERT_THRESHOLDS;
    expect(await rows.nth(0).textContent()).toContain(`${AlertTexts.levels.critical}: ${BloodPressureTexts.crisis(t)}`);
    expect(await rows.nth(1).textContent()).toContain(`${AlertTexts.levels.high}: ${BloodPressureTexts.stage2(t)}`);
    expect(await rows.nth(2).textContent()).toContain(`${AlertTexts.levels.elevated}: ${BloodPressureTexts.stage1(t)}`);
    const legend = page.getByRole('note', { name: PatientTexts.readingLegend });
    expect(await legend.textContent()).toContain(`${AlertTexts.levels.high} ${BloodPressureTexts.stage2(t)}`);
    expect(await legend.textContent()).toContain(`${AlertTexts.levels.critical} ${BloodPressureTexts.crisis(t)}`);
    const term = (name: string) =>
      page.locator('dt', { hasText: new RegExp(`^${name}$`) }).locator('xpath=following-sibling::dd[1]');
    expect(await term(PatientTexts.gender).textContent()).toBe(PatientTexts.gender_male);
    expect(await term(PatientTexts.age).textContent()).toMatch(new RegExp(`^\\d+ ${PatientTexts.years}$`));
    await page.getByRole('list', { name: PatientTexts.clinicalNotes }).getByText('Ada Admin').waitFor();
    expect(await page.getByTestId('tracking-month-totals').textContent()).toMatch(/: \d{4}-\d{2}: 35 min$/);
    // Times in the one format everywhere.
    expect(await rows.nth(0).locator('td').first().textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    // Every column on screen at every size, on a phone too: no sideways scrolling of the table or page.
    expect(
      await vitals.evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth),
    ).toBeLessThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, `${size.name}-patient-detail`);
    expect(errors).toEqual([]);
    await close();
  });

  it('pages the audit log against a snapshot: going back shows the same rows and the total holds', async () => {
    const { page, errors, close } = await signedInPage(size);
    await page.goto(`${portal.url}/audit-logs`);
    const table = page.getByRole('table', { name: AdminTexts.auditLogsTitle });
    await table.getByRole('row').nth(10).waitFor();
    const range = page.getByText(/^1–10 of \d+$/);
    await range.waitFor();
    const total = (await range.textContent())!.split(' of ')[1];
    const firstPage = await table.locator('tbody').textContent();
    await page.getByRole('button', { name: 'Go to next page' }).click();
    await page.getByText(`11–20 of ${total}`, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Go to next page' }).click();
    await page.getByText(`21–30 of ${total}`, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Go to previous page' }).click();
    await page.getByRole('button', { name: 'Go to previous page' }).click();
    await page.getByText(`1–10 of ${total}`, { exact: true }).waitFor();
    await expect.poll(() => table.locator('tbody').textContent()).toBe(firstPage);
    // Every cell is one line; the full value is in its title.
    const cell = table.locator('tbody tr').first().locator('td').first();
    expect(await cell.getAttribute('title')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await cell.textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    // Shown whole at every size, not cut to its date (the table scrolls sideways instead).
    expect(await cell.evaluate((td) => td.scrollWidth - td.clientWidth)).toBeLessThanOrEqual(0);
    // The pager wraps: its last button is on screen without scrolling anything sideways.
    const last = await page.getByRole('button', { name: 'Go to last page' }).boundingBox();
    expect(last!.x + last!.width).toBeLessThanOrEqual(size.width);
    if (size.width >= 1280) {
      // At 1280 px every column is on screen: no sideways scrolling.
      const overflow = await table.evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    }
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, `${size.name}-audit-logs`);

    await page.getByRole('button', { name: AdminTexts.auditShowNewest }).click();
    await expect
      .poll(async () => Number((await page.getByText(/^1–10 of \d+$/).textContent())!.split(' of ')[1]))
      .toBeGreaterThan(Number(total));
    expect(errors).toEqual([]);
    await close();
  });

  it('shows DB inspector sample rows on one line each, with formatted times', async () => {
    const { page, errors, close } = await signedInPage(size);
    await page.goto(`${portal.url}/db`);
    await page.getByRole('combobox', { name: AdminTexts.table }).click();
    await page.getByRole('option', { name: 'patients', exact: true }).click();
    const sample = page.getByRole('table', { name: Labels.sampleRows });
    await sample.locator('tbody tr').first().waitFor();
    const heights = await sample
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height));
    expect(Math.max(...heights)).toBeLessThan(60);
    expect(await sample.locator('td[title$="Z"]').first().textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, `${size.name}-db`);
    expect(errors).toEqual([]);
    await close();
  });
});
