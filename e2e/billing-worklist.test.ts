/**
 * The billing worklist and the month's steps as the care team and the billing admin use them, on
 * the real portal: /billing opens on this month's worklist; a past month (October 2026, fixed
 * dates) shows how it ended, row by row as the server counts it; the provider and program filters
 * live in the address and survive a reload, and so does a column's sort, done by the server; on a
 * phone each patient is a block of labelled lines, sorted with fields of its own. The
 * report's month is closed after a dialog naming every organization, reopened with a required
 * reason, closed again and its claims marked sent, after which it cannot be reopened. The evidence
 * page shows the patient block and counts that say what they count, and prints without the chrome.
 * Pages are photographed at 1280x800 and 390x844.
 */
import path from 'node:path';
import {
  AuthLabels,
  billingNeedsText,
  BillingErrors,
  BillingPageTexts,
  BillingTexts,
  ContactTypeLabels,
  program,
  TrackingActivityLabels,
  UxTexts,
  type BillingReport,
  type BillingWorklist,
  type PatientBilling,
} from '@rpm/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminOrganizationId,
  apiAs,
  axeViolations,
  buildDevice,
  buildOrganization,
  buildPatient,
  buildPatientPrograms,
  buildReadings,
  buildTrackingEntry,
  chooseOption,
  collectConsoleErrors,
  launchBrowser,
  type Portal,
  REPO_ROOT,
  signInAs,
  startPortal,
} from './harness.ts';
import { buildStaff, setClaimFacts } from '../packages/server/test/support/factories.ts';

let portal: Portal;
let browser: Browser;
let ada: number;
let ben: number;
let organizationNames: string[];
// A past month of 31 days, in the organization's zone (New York by default).
const MONTH = '2026-10';

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
  const org = await adminOrganizationId(portal);
  await buildOrganization(portal.db, { name: 'South Clinic' });
  const { rows } = await portal.db.query<{ name: string }>('SELECT name FROM organizations ORDER BY name');
  organizationNames = rows.map((r) => r.name);
  const dana = await buildStaff(portal.db, 'provider', { organizationId: org, firstName: 'Dana', lastName: 'Doctor' });
  const eli = await buildStaff(portal.db, 'provider', { organizationId: org, firstName: 'Eli', lastName: 'Nurse' });

  ada = await buildPatient(portal.db, {
    firstName: 'Ada',
    lastName: 'Worklist',
    dateOfBirth: '1948-05-06',
    organizationId: org,
    primaryProviderId: dana.id,
    enrolledRpm: true,
    enrollmentStatus: 'Active',
    insurances: [{ type: 'Medicare', providerName: 'CMS', policyNumber: '1EG4-TE5-MK73' }],
  });
  ben = await buildPatient(portal.db, {
    firstName: 'Ben',
    lastName: 'Worklist',
    organizationId: org,
    primaryProviderId: eli.id,
    enrolledRpm: true,
    enrollmentStatus: 'Active',
  });
  // What an auditor asks of Ada's claim, as the patient form would store it.
  await setClaimFacts(portal.db, ada, {
    orderingProviderId: dana.id,
    consentDate: '2026-09-28',
    diagnosisCodes: ['I10', 'E11.9'],
  });
  await buildPatientPrograms(portal.db, ada, ['hypertension']);
  await buildPatientPrograms(portal.db, ben, ['heart_failure']);
  await buildDevice(portal.db, {
    deviceId: 'CUFF-WL-1',
    model: 'BP cuff',
    patientId: ada,
    assignedFrom: '2026-09-01T00:00:00Z',
  });
  // Noon in New York: Ada measures on October 1 to 18, Ben on October 20 to 22 only.
  const days = (first: number, count: number, source: string) =>
    Array.from({ length: count }, (_, d) => ({
      at: new Date(Date.UTC(2026, 9, first + d, 16)),
      source,
      systolic: 128,
      diastolic: 82,
    }));
  await buildReadings(portal.db, ada, days(1, 18, 'CUFF-WL-1'));
  await buildReadings(portal.db, ben, days(20, 3, 'CUFF-WL-2'));
  await buildTrackingEntry(portal.db, { patientId: ada, date: '2026-10-03', durationMinutes: 8, userId: dana.id });
  await buildTrackingEntry(portal.db, {
    patientId: ada,
    date: '2026-10-09',
    durationMinutes: 15,
    userId: dana.id,
    interactive: true,
    activity: 'phone_call',
    contactType: 'phone',
  });
});
afterAll(async () => {
  await browser?.close();
  await portal?.dispose();
});

async function signedInPage(width: number, height: number) {
  const context = await browser.newContext({ timezoneId: 'America/New_York', viewport: { width, height } });
  const page = await context.newPage();
  const errors = collectConsoleErrors(page, [/401/]);
  await signInAs(page, portal, portal.adminEmail, portal.adminPassword);
  return { page, errors, close: () => context.close() };
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(REPO_ROOT, 'e2e/artifacts', `billing-worklist-${name}.png`), fullPage: true });

const worklistTable = (page: Page) => page.getByRole('table', { name: BillingPageTexts.worklistTitle });
const rowOf = (page: Page, id: number) => page.getByTestId(`worklist-row-${id}`);

describe('billing worklist', () => {
  it('opens on this month’s worklist; a past month shows each patient as the server counts it; filters survive a reload', async () => {
    const { page, errors, close } = await signedInPage(1280, 800);
    await page.goto(`${portal.url}/billing`);
    expect(await page.getByRole('tab', { name: BillingPageTexts.worklistTab }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await worklistTable(page).waitFor();
    await rowOf(page, ada).waitFor();

    await page.getByLabel(BillingTexts.month, { exact: true }).fill(MONTH);
    await page.waitForURL(/view=worklist/);
    const worklist = (await apiAs<BillingWorklist>(page, portal, 'GET', `/api/billing/worklist?month=${MONTH}`)).body;
    const report = (await apiAs<BillingReport>(page, portal, 'GET', `/api/billing?month=${MONTH}`)).body;
    const adaRow = worklist.rows.find((r) => r.patient_id === ada)!;
    // A past month has no days left, and agrees with the month's report.
    expect(adaRow.days_left).toBe(0);
    const reported = report.rows.find((r) => r.patient_id === ada)!;
    expect([adaRow.device_days, adaRow.minutes, adaRow.interactive]).toEqual([
      reported.device_days,
      reported.minutes,
      reported.interactive,
    ]);
    await expect
      .poll(() => rowOf(page, ada).getByRole('cell').allTextContents(), { timeout: 15_000 })
      .toEqual([
        'Ada Worklist',
        adaRow.at_risk ? BillingPageTexts.atRisk : '',
        `${BillingPageTexts.deviceDaysCell(adaRow.device_days, 0)}${BillingPageTexts.outlook[adaRow.device_outlook]}`,
        BillingPageTexts.minutesCell(adaRow.minutes, adaRow.next_minutes),
        BillingTexts.yes,
        billingNeedsText(adaRow.needs),
        expect.stringMatching(/^2026-10-18 12:00$/),
        BillingPageTexts.never,
        'Dana Doctor',
      ]);
    const benRow = worklist.rows.find((r) => r.patient_id === ben)!;
    expect(await rowOf(page, ben).textContent()).toContain(billingNeedsText(benRow.needs));
    // Beside the menu on a laptop the nine columns fit: nothing to scroll sideways for.
    expect(
      await worklistTable(page).evaluate((t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth),
    ).toBe(true);

    // The program filter goes to the server and into the address; a reload keeps it.
    await chooseOption(page, BillingPageTexts.program, program('heart_failure')!.label);
    await page.waitForURL(/program=heart_failure/);
    await rowOf(page, ada).waitFor({ state: 'detached' });
    await rowOf(page, ben).waitFor();
    await page.reload();
    await rowOf(page, ben).waitFor();
    expect(await rowOf(page, ada).count()).toBe(0);
    await chooseOption(page, BillingPageTexts.program, BillingPageTexts.allPrograms);
    await rowOf(page, ada).waitFor();

    // A column heading has the server sort every row, and the address keeps it: Ben (no minutes)
    // before Ada (23), then Ada first again; the third click gives the server's own order back.
    const names = () => worklistTable(page).locator('tbody tr td:first-child').allTextContents();
    const minutes = worklistTable(page).getByRole('button', { name: BillingPageTexts.minutes });
    await minutes.click();
    await page.waitForURL(/sort=minutes&order=asc/);
    await expect.poll(names, { timeout: 15_000 }).toEqual(['Ben Worklist', 'Ada Worklist']);
    await minutes.click();
    await page.waitForURL(/order=desc/);
    await expect.poll(names, { timeout: 15_000 }).toEqual(['Ada Worklist', 'Ben Worklist']);
    await page.reload();
    await expect.poll(names, { timeout: 15_000 }).toEqual(['Ada Worklist', 'Ben Worklist']);
    await minutes.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBeNull();

    // Providers are listed per organization: two exist, so an admin picks one first.
    const own = (
      await portal.db.query<{ name: string }>(
        'SELECT o.name FROM organizations o JOIN users u ON u.organization_id = o.id WHERE lower(u.email) = lower($1)',
        [portal.adminEmail],
      )
    ).rows[0]!.name;
    await chooseOption(page, BillingTexts.organization, own);
    await chooseOption(page, BillingPageTexts.provider, 'Dana Doctor');
    await page.waitForURL(/provider_id=\d+/);
    await rowOf(page, ben).waitFor({ state: 'detached' });
    await rowOf(page, ada).waitFor();
    await shot(page, 'laptop');
    expect(errors).toEqual([]);
    await close();
  });

  it('on a phone (390x844) each patient is a block of labelled lines, and the sort has fields of its own', async () => {
    const { page, errors, close } = await signedInPage(390, 844);
    await page.goto(`${portal.url}/billing?view=worklist&month=${MONTH}`);
    await rowOf(page, ada).waitFor();
    // Nothing is off the side: not the page, not the table in its frame, not a row's last line.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const table = worklistTable(page);
    expect(await table.evaluate((t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth)).toBe(true);
    const provider = rowOf(page, ada).getByRole('cell', { name: 'Dana Doctor', exact: true });
    const box = (await provider.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await provider.evaluate((td) => getComputedStyle(td, '::before').content)).toContain(
      BillingPageTexts.provider,
    );
    // The headings stay for screen readers, but are no buttons one could tab to without seeing them.
    expect(await table.locator('thead th').count()).toBe(9);
    expect(await table.getByRole('columnheader', { name: BillingPageTexts.minutes, exact: true }).count()).toBe(1);
    expect(await table.getByRole('button').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'phone');

    // The sort fields do what the headings do on a wider screen, and the address keeps them.
    const names = () => table.locator('tbody tr td:first-child').allTextContents();
    await chooseOption(page, UxTexts.sortBy, BillingPageTexts.minutes);
    await page.waitForURL(/sort=minutes&order=asc/);
    await expect.poll(names, { timeout: 15_000 }).toEqual(['Ben Worklist', 'Ada Worklist']);
    await chooseOption(page, UxTexts.sortOrder, UxTexts.sortOrderNames.desc);
    await page.waitForURL(/order=desc/);
    await expect.poll(names, { timeout: 15_000 }).toEqual(['Ada Worklist', 'Ben Worklist']);
    await page.reload();
    await expect.poll(names, { timeout: 15_000 }).toEqual(['Ada Worklist', 'Ben Worklist']);
    await chooseOption(page, UxTexts.sortBy, BillingPageTexts.serverOrder);
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBeNull();
    await page.getByRole('combobox', { name: UxTexts.sortOrder }).waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await close();
  });

  it('shows the evidence an auditor asks for, with counts that say what they count, and prints without the chrome', async () => {
    const { page, errors, close } = await signedInPage(1280, 800);
    await page.goto(`${portal.url}/billing/patients/${ada}?month=${MONTH}`);
    const facts = page.getByTestId('evidence-patient');
    await facts.waitFor();
    const text = await facts.textContent();
    for (const part of [
      '1948-05-06',
      'Medicare (1EG4-TE5-MK73)',
      'CUFF-WL-1',
      'Dana Doctor',
      '2026-09-28',
      'I10; E11.9',
    ])
      expect(text).toContain(part);

    const evidence = (await apiAs<PatientBilling>(page, portal, 'GET', `/api/patients/${ada}/billing?month=${MONTH}`))
      .body;
    const counts = await page.getByTestId('evidence-counts').getByRole('listitem').allTextContents();
    expect(counts[0]).toBe(
      BillingPageTexts.evidencePeriodDays(
        evidence.row.device_days,
        evidence.row.period_start!,
        evidence.row.period_end!,
      ),
    );
    expect(counts[1]).toBe(BillingPageTexts.evidenceMonthMinutes(23, MONTH));
    expect(await page.locator('main').textContent()).not.toMatch(/\d+ of 16/);
    await page.getByRole('heading', { level: 2, name: BillingPageTexts.evidenceMonthDays(18, MONTH) }).waitFor();
    const call = page
      .getByRole('table', { name: `${BillingTexts.evidenceEntries} ${MONTH}` })
      .getByRole('row')
      .filter({ hasText: '2026-10-09' });
    expect(await call.getByRole('cell').allTextContents()).toEqual([
      '2026-10-09',
      '15',
      TrackingActivityLabels.phone_call,
      ContactTypeLabels.phone,
      'Dana Doctor',
      '',
    ]);
    await shot(page, 'evidence');

    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('banner').isVisible()).toBe(false);
    expect(await page.getByRole('navigation', { name: AuthLabels.mainNavigation }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: BillingTexts.print }).isVisible()).toBe(false);
    expect(await facts.isVisible()).toBe(true);
    await shot(page, 'evidence-print');
    expect(errors).toEqual([]);
    await close();
  });

  it('closes an ended month after naming every organization, reopens it with a reason, then marks the claims sent', async () => {
    const { page, errors, close } = await signedInPage(1280, 800);
    // The running month cannot be closed, whichever it is.
    await page.goto(`${portal.url}/billing?view=report`);
    await page.getByTestId('billing-totals').waitFor();
    expect(await page.getByRole('button', { name: BillingTexts.closeMonth }).count()).toBe(0);

    await page.getByLabel(BillingTexts.month, { exact: true }).fill(MONTH);
    await page.getByTestId(`billing-row-${ada}`).waitFor();
    await page.getByRole('button', { name: BillingTexts.closeMonth }).click();
    let dialog = page.getByRole('dialog', { name: BillingTexts.closeMonthTitle });
    const listed = await dialog
      .getByRole('list', { name: BillingTexts.allOrganizations })
      .getByRole('listitem')
      .allTextContents();
    expect(listed.toSorted()).toEqual(organizationNames.toSorted());
    await dialog.getByRole('button', { name: BillingTexts.closeMonth }).click();
    await page.getByText(BillingTexts.monthClosedToast).waitFor();
    await page.getByText(/^Closed 2\d{3}-/).waitFor();

    await page.getByRole('button', { name: BillingPageTexts.reopenMonth }).click();
    dialog = page.getByRole('dialog', { name: BillingPageTexts.reopenTitle });
    await dialog.getByRole('button', { name: BillingPageTexts.reopenMonth }).click();
    await dialog.getByText(BillingPageTexts.reopenReasonRequired).waitFor();
    await dialog
      .getByRole('textbox', { name: BillingPageTexts.reopenReason })
      .fill('A call was logged on the wrong patient');
    await shot(page, 'reopen');
    await dialog.getByRole('button', { name: BillingPageTexts.reopenMonth }).click();
    await page.getByText(BillingPageTexts.reopenedToast).waitFor();
    await page.getByRole('button', { name: BillingTexts.closeMonth }).waitFor();

    await page.getByRole('button', { name: BillingTexts.closeMonth }).click();
    await page
      .getByRole('dialog', { name: BillingTexts.closeMonthTitle })
      .getByRole('button', { name: BillingTexts.closeMonth })
      .click();
    await page.getByRole('button', { name: BillingPageTexts.markClaimsSent }).click();
    dialog = page.getByRole('dialog', { name: BillingPageTexts.claimsSentTitle });
    await dialog.getByRole('button', { name: BillingPageTexts.markClaimsSent }).click();
    await page.getByText(BillingPageTexts.claimsSentToast).waitFor();
    await page.getByText(/^Claims sent 2\d{3}-/).waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: BillingPageTexts.reopenMonth }).count()).toBe(0);
    expect(await page.getByRole('button', { name: BillingPageTexts.markClaimsSent }).count()).toBe(0);
    const refused = await apiAs<{ message: string }>(page, portal, 'POST', `/api/billing/${MONTH}/reopen`, {
      reason: 'again',
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.body.message).toBe(BillingErrors.claimsSent);
    await shot(page, 'claims-sent');
    expect(errors).toEqual([]);
    await close();
  });
});
