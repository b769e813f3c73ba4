/**
 * Measurements as data, as a provider sees them: a heart-failure patient's weight (shown in lb,
 * the organization's display unit) and a diabetes patient's glucose, each in its own panel with a
 * chart and a table, at a desk-sized and a phone-sized window; a weight typed in by hand shows up
 * in the table.
 */
import { ObservationTexts, type PatientPrograms } from '@rpm/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminOrganizationId,
  buildPatient,
  buildReadings,
  callApi,
  collectConsoleErrors,
  createProvider,
  launchBrowser,
  type Portal,
  signInAs,
  signInViaApi,
  startPortal,
} from './harness.ts';

// Where to save the screenshots to look at (none when unset).
const SHOTS = process.env.MEASUREMENT_SCREENSHOTS;
const KG_PER_LB = 0.45359237;
const YESTERDAY = new Date(Date.now() - 24 * 60 * 60 * 1000);
/** Yesterday at `time` (UTC, the browser's and the organization's zone here) as the tables write it. */
const yesterdayAt = (time: string) => `${YESTERDAY.toISOString().slice(0, 10)} ${time}`;

let portal: Portal;
let browser: Browser;
let provider: { email: string; password: string };
let heartFailureId: number;
let diabetesId: number;

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
  const adminCookie = await signInViaApi(portal, portal.adminEmail, portal.adminPassword);
  const organizationId = await adminOrganizationId(portal);
  provider = await createProvider(portal, adminCookie, {
    emailPrefix: 'measurements',
    firstName: 'Mia',
    lastName: 'Measure',
    organizationId,
    password: 'Measure-e2e-Pa55!',
  });
  // The organization shows weight in pounds.
  const units = await callApi(portal, adminCookie, 'PUT', `/api/organizations/${organizationId}/display-units`, {
    display_units: { weight: '[lb_av]' },
  });
  expect(units.status).toBe(200);

  // Readings of the last two weeks (the charts show the last 90 days), the newest yesterday.
  const day = (d: number, hour = 8) =>
    new Date(Date.UTC(YESTERDAY.getUTCFullYear(), YESTERDAY.getUTCMonth(), YESTERDAY.getUTCDate() - d, hour));
  heartFailureId = await buildPatient(portal.db, { organizationId, firstName: 'Hal', lastName: 'Heart' });
  await buildReadings(portal.db, heartFailureId, [
    ...Array.from({ length: 14 }, (_, d) => ({
      at: day(d),
      kind: 'weight',
      components: { weight: Math.round((180 + (d % 3)) * KG_PER_LB * 100) / 100 },
      unit: 'kg',
      source: 'SCALE-1',
    })),
    ...Array.from({ length: 5 }, (_, d) => ({ at: day(d, 9), systolic: 128 + d, diastolic: 82, pulse: 70 })),
  ]);
  diabetesId = await buildPatient(portal.db, { organizationId, firstName: 'Dee', lastName: 'Sugar' });
  await buildReadings(
    portal.db,
    diabetesId,
    Array.from({ length: 10 }, (_, d) => ({
      at: day(d, 7),
      kind: 'glucose',
      components: { glucose: d === 2 ? 52 : 110 + d * 5 },
      unit: 'mg/dL',
      source: 'GLU-1',
    })),
  );
  for (const [id, programs] of [
    [heartFailureId, ['heart_failure']],
    [diabetesId, ['diabetes']],
  ] as const) {
    const put = await callApi<PatientPrograms>(portal, adminCookie, 'PUT', `/api/patients/${id}/programs`, {
      programs,
    });
    expect(put.status).toBe(200);
  }
});
afterAll(async () => {
  await browser?.close();
  await portal?.dispose();
});

async function newPage(viewport: { width: number; height: number }) {
  const context = await browser.newContext({ timezoneId: 'UTC', viewport });
  const page = await context.newPage();
  // A 401 from /api/me before sign-in is expected; nothing else may show up as a console error.
  const errors = collectConsoleErrors(page, [/401/]);
  await signInAs(page, portal, provider.email, provider.password);
  return { page, errors, close: () => context.close() };
}

async function panelShown(page: Page, kindLabel: string) {
  const table = page.getByRole('table', { name: kindLabel, exact: true });
  await table.waitFor();
  await page
    .getByRole('img', { name: ObservationTexts.chartLabel(kindLabel) })
    .locator('canvas')
    .first()
    .waitFor();
  return table;
}

describe('measurement panels', () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    it(`shows weight in lb and glucose in their panels at ${viewport.width}×${viewport.height}`, async () => {
      const { page, errors, close } = await newPage(viewport);
      await page.goto(`${portal.url}/patients/${heartFailureId}`);
      await page.getByRole('heading', { name: 'Hal Heart' }).waitFor();
      await page.getByText('Heart failure', { exact: true }).waitFor();
      const weight = await panelShown(page, 'Weight');
      expect(await weight.getByRole('columnheader').allTextContents()).toEqual([
        ObservationTexts.time,
        'Weight (lb)',
        ObservationTexts.source,
      ]);
      expect(await weight.locator('tbody tr').first().getByRole('cell').allTextContents()).toEqual([
        yesterdayAt('08:00'),
        '180.0',
        'SCALE-1',
      ]);
      // Blood pressure stays in the spec's Vitals section, not in a panel of its own.
      expect(await page.getByRole('table', { name: 'Blood pressure', exact: true }).count()).toBe(0);
      // Nothing wider than the window: the panels stack on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/measurements-weight-${viewport.width}.png`, fullPage: true });

      await page.goto(`${portal.url}/patients/${diabetesId}`);
      await page.getByRole('heading', { name: 'Dee Sugar' }).waitFor();
      const glucose = await panelShown(page, 'Blood glucose');
      const critical = glucose.locator('tbody tr[data-level="critical"]');
      expect(await critical.count()).toBe(1);
      expect(await critical.textContent()).toContain('Level 2 hypoglycemia');
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/measurements-glucose-${viewport.width}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await close();
    });
  }

  it('adds a weight in lb by hand and sees it in the table', async () => {
    const { page, errors, close } = await newPage({ width: 1280, height: 800 });
    await page.goto(`${portal.url}/patients/${heartFailureId}`);
    const weight = await panelShown(page, 'Weight');
    await page.getByRole('button', { name: ObservationTexts.addReadingOf('Weight') }).click();
    const dialog = page.getByRole('dialog', { name: ObservationTexts.addMeasurement });
    await dialog.getByLabel('Weight (lb)').fill('176.4');
    await dialog.getByLabel(ObservationTexts.measuredAt).fill(yesterdayAt('20:15').replace(' ', 'T'));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText(ObservationTexts.readingAdded).waitFor();
    await dialog.waitFor({ state: 'detached' });
    const row = weight.locator('tbody tr').first();
    await expect.poll(() => row.getByRole('cell').allTextContents()).toEqual([yesterdayAt('20:15'), '176.4', 'manual']);
    expect(errors).toEqual([]);
    await close();
  });
});
