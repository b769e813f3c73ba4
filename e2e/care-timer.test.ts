/**
 * The care timer in the real portal, on a phone: a provider opens a patient, the timer counts by
 * itself (the organization's default), the browser's clock is moved on, Stop opens the tracking
 * dialog with the measured minutes, and the saved entry is in the tracking list with its activity.
 */
import { CareTimerTexts, Labels, PatientTexts, TrackingActivityLabels, type PatientDetail } from '@rpm/contracts';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminOrganizationId,
  axeViolations,
  callApi,
  collectConsoleErrors,
  createProvider,
  launchBrowser,
  signInAs,
  signInViaApi,
  startPortal,
  type Portal,
} from './harness.ts';

let portal: Portal;
let browser: Browser;
let patientId: number;
let provider: { email: string; password: string };

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
  const adminCookie = await signInViaApi(portal, portal.adminEmail, portal.adminPassword);
  const organizationId = await adminOrganizationId(portal);
  const created = await callApi<PatientDetail>(portal, adminCookie, 'POST', '/api/patients', {
    first_name: 'Tilda',
    last_name: 'Timer',
    date_of_birth: '1948-05-06',
    organization_id: organizationId,
  });
  expect(created.status).toBeLessThan(300);
  patientId = created.body.id;
  provider = await createProvider(portal, adminCookie, {
    emailPrefix: 'timer-provider',
    firstName: 'Tim',
    lastName: 'Keeper',
    organizationId,
    password: 'Provider-timer-Pa55!',
  });
});
afterAll(async () => {
  await browser?.close();
  await portal?.dispose();
});

describe('care timer', () => {
  it('counts on a patient’s page, stops into the tracking dialog, and the entry is listed with its activity', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, timezoneId: 'UTC' });
    const page = await context.newPage();
    const errors = collectConsoleErrors(page, [/401/]);
    await signInAs(page, portal, provider.email, provider.password);
    // The browser's clock is the test's from here (it still starts at the real time: the session's
    // tokens are checked against it).
    await page.clock.install();
    await page.goto(`${portal.url}/patients/${patientId}`);

    const timer = page.getByRole('group', { name: CareTimerTexts.title });
    await timer.getByText(CareTimerTexts.running).waitFor();
    await timer.getByRole('button', { name: CareTimerTexts.pause }).waitFor();
    // 90 seconds on: less than the 2 idle minutes, so it is still counting.
    await page.clock.fastForward(90_000);
    await expect.poll(() => timer.getByRole('timer').textContent()).toMatch(/^01:(3\d|4\d)$/);
    await timer.getByText(CareTimerTexts.running).waitFor();
    // The page fits the phone and the timer passes axe.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    await timer.getByRole('button', { name: CareTimerTexts.stop }).click();
    const dialog = page.getByRole('dialog', { name: CareTimerTexts.logTitle });
    await dialog.waitFor();
    // About a minute and a half, rounded to the nearest minute.
    expect(await dialog.getByLabel(PatientTexts.minutes).inputValue()).toBe('2');
    await dialog.getByLabel(CareTimerTexts.activity).selectOption({ label: TrackingActivityLabels.review_readings });
    await dialog.getByLabel(PatientTexts.notes).fill('Reviewed the week’s readings');
    await dialog.getByRole('button', { name: Labels.save }).click();
    await page.getByText(PatientTexts.trackingAdded).waitFor();
    await dialog.waitFor({ state: 'detached' });

    const tracking = page.getByRole('table', { name: Labels.trackingTime });
    await tracking
      .getByRole('row', { name: new RegExp(`\\s2\\s+Reviewed the week’s readings\\s+${TrackingActivityLabels.review_readings}`) })
      .waitFor();
    // The timer is back at zero and waits for a click.
    expect(await timer.getByRole('timer').textContent()).toBe('00:00');
    await timer.getByText(CareTimerTexts.notStarted).waitFor();

    const { rows } = await portal.db.query<{ duration_minutes: number; measured_minutes: number | null; activity: string | null }>(
      `SELECT duration_minutes, measured_minutes, activity FROM tracking_entries WHERE patient_id = $1`,
      [patientId],
    );
    expect(rows).toEqual([{ duration_minutes: 2, measured_minutes: 2, activity: 'review_readings' }]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
