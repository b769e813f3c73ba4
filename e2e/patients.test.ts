import { gzipSync } from 'node:zlib';
import { AuthLabels, Labels, PatientTexts, Validation, type Device, type PatientDetail } from '@rpm/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminOrganizationId,
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

let portal: Portal;
let browser: Browser;
let adminCookie: string;
let provider: { email: string; password: string };
let patientId: number;

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
  adminCookie = await signInViaApi(portal, portal.adminEmail, portal.adminPassword);
  provider = await createProvider(portal, adminCookie, {
    emailPrefix: 'provider',
    firstName: 'Paula',
    lastName: 'Provider',
    organizationId: await adminOrganizationId(portal),
    password: 'Provider-e2e-Pa55!',
  });
});
afterAll(async () => {
  await browser?.close();
  await portal?.dispose();
});

async function newPage(): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ timezoneId: 'UTC' });
  const page = await context.newPage();
  // A 401 from /api/me before sign-in is expected; nothing else may show up as a console error.
  const errors = collectConsoleErrors(page, [/401/]);
  return { page, errors, close: () => context.close() };
}

describe('patients, as a provider', () => {
  it('adds a patient with a Private and a Medicare insurance, with on-blur messages for an empty entry', async () => {
    const { page, errors, close } = await newPage();
    await signInAs(page, portal, provider.email, provider.password);
    await page.goto(`${portal.url}/patients`);
    await page.getByRole('link', { name: Labels.addPatient }).click();
    await page.getByRole('heading', { name: Labels.addPatient }).waitFor();
    // No device assignment for providers.
    expect(await page.getByRole('heading', { name: PatientTexts.devices }).count()).toBe(0);

    await page.getByLabel(PatientTexts.firstName, { exact: false }).first().fill('Grace');
    await page.getByLabel(new RegExp(`^${PatientTexts.lastName}`)).fill('Hopper');
    await page.getByLabel(PatientTexts.dateOfBirth).fill('1946-12-09');
    await page.getByLabel(PatientTexts.enrollmentStatus).selectOption('Active');
    await page.getByLabel(Labels.enrollInRpm).check();

    await page.getByRole('button', { name: PatientTexts.addInsurance }).click();
    await page.getByLabel(`${PatientTexts.type} 1`).focus();
    await page.getByLabel(`${PatientTexts.insuranceProvider} 1`).focus();
    await page.getByLabel(`${PatientTexts.policyNumber} 1`).focus();
    await page.getByLabel(PatientTexts.enrollmentStatus).focus();
    await page.getByText(Validation.insuranceType).waitFor();
    await page.getByText(Validation.insuranceProvider).waitFor();
    await page.getByText(Validation.insurancePolicyNumber).waitFor();

    await page.getByLabel(`${PatientTexts.type} 1`).selectOption('Private');
    await page.getByLabel(`${PatientTexts.insuranceProvider} 1`).fill('Blue Cross');
    await page.getByLabel(`${PatientTexts.policyNumber} 1`).fill('BC-123');
    await page.getByLabel(`${PatientTexts.policyholder} 1`).fill('Grace Hopper');
    await page.getByLabel(`${PatientTexts.policyholderBirthdate} 1`).fill('1946-12-09');

    await page.getByRole('button', { name: PatientTexts.addInsurance }).click();
    await page.getByLabel(`${PatientTexts.type} 2`).selectOption('Medicare');
    expect(await page.getByLabel(`${PatientTexts.policyholder} 2`).count()).toBe(0);
    await page.getByLabel(`${PatientTexts.insuranceProvider} 2`).fill('CMS');
    await page.getByLabel(`${PatientTexts.policyNumber} 2`).fill('1EG4-TE5');

    await page.getByRole('button', { name: Labels.save }).click();
    await page.waitForURL(/\/patients\/\d+$/);
    patientId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    const cards = page.getByTestId('insurance-card');
    // The insurance is drawn right after the first screen (AfterFirstScreen), not with the heading.
    await cards.nth(1).waitFor();
    expect(await cards.count()).toBe(2);
    expect(await cards.nth(0).innerText()).toContain('Grace Hopper');
    expect(await cards.nth(1).innerText()).not.toContain(PatientTexts.policyholder);
    expect(errors).toEqual([]);
    await close();
  });

  it('edits the patient, shows vitals in the chosen timezone, toggles Table/Figure, adds a note and tracking time', async () => {
    await buildReadings(
      portal.db,
      patientId,
      Array.from({ length: 30 }, (_, g) => ({
        at: new Date(Date.UTC(2026, 0, 10, 12) - g * 6 * 3_600_000),
        systolic: 120 + (g % 20),
        diastolic: 80 + (g % 10),
        pulse: 70,
      })),
    );
    await buildReadings(
      portal.db,
      patientId,
      Array.from({ length: 200 }, (_, i) => ({ at: { ago: `${(i + 1) * 8} hours` }, systolic: 135, diastolic: 88 })),
    );
    const { page, errors, close } = await newPage();
    await signInAs(page, portal, provider.email, provider.password);
    await page.getByLabel(AuthLabels.timezone).selectOption('UTC');

    await page.goto(`${portal.url}/patients`);
    const row = page.getByRole('row', { name: /Grace.*Hopper/ });
    await row.getByRole('link', { name: new RegExp(`^${Labels.edit}`) }).click();
    await page.getByRole('heading', { name: Labels.updatePatient }).waitFor();
    await page.getByLabel(PatientTexts.enrollmentStatus).selectOption('Paused');
    await page.getByRole('button', { name: Labels.save }).click();
    await page.waitForURL(`${portal.url}/patients/${patientId}`);
    await page.getByText('Paused').waitFor();

    // The newest readings are "now"; page to the fixed ones from January for a stable time.
    const vitalsTable = page.getByRole('table', { name: PatientTexts.vitals });
    await vitalsTable.waitFor();
    expect(await vitalsTable.locator('tbody tr').count()).toBe(10);
    await page.getByRole('combobox', { name: /rows per page/i }).first().selectOption('20');
    await expect.poll(() => vitalsTable.locator('tbody tr').count()).toBe(20);
    await page.getByRole('combobox', { name: /rows per page/i }).first().selectOption('10');
    for (let i = 0; i < 20; i++) await page.getByRole('button', { name: /next page/i }).first().click();
    await vitalsTable.getByText('2026-01-10 12:00').waitFor();
    await page.getByLabel(AuthLabels.timezone).selectOption('Asia/Tokyo');
    await vitalsTable.getByText('2026-01-10 21:00').waitFor();
    expect(await vitalsTable.getByText('2026-01-10 12:00').count()).toBe(0);

    // Figure: the chart module is fetched only now.
    const scriptsBefore = await loadedScripts(page);
    const chartRequests: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') chartRequests.push(r.url());
    });
    await page.getByRole('button', { name: Labels.figure }).click();
    const chart = page.getByRole('img', { name: PatientTexts.chartLabel });
    await chart.locator('canvas').waitFor();
    expect(chartRequests.length).toBeGreaterThan(0);
    expect(await chart.getAttribute('data-timezone')).toBe('Asia/Tokyo');
    await page.getByLabel(AuthLabels.timezone).selectOption('America/New_York');
    await expect.poll(() => chart.getAttribute('data-timezone')).toBe('America/New_York');
    await chart.locator('canvas').waitFor();
    // Hovering shows the date and both values in the legend.
    const box = (await chart.locator('.u-over').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2);
    await expect.poll(async () => (await chart.locator('.u-legend').innerText()).match(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/) !== null).toBe(true);
    const scriptsAfter = await loadedScripts(page);
    await reportSizes(scriptsBefore, scriptsAfter);
    await page.getByRole('button', { name: Labels.table }).click();
    await vitalsTable.waitFor();

    // A note.
    await page.getByRole('button', { name: Labels.addNote }).click();
    const noteDialog = page.getByRole('dialog', { name: Labels.addNote });
    await noteDialog.getByLabel(PatientTexts.noteContent).fill('Called the patient: readings reviewed.');
    await noteDialog.getByRole('button', { name: Labels.save }).click();
    await noteDialog.waitFor({ state: 'detached' });
    await page.getByRole('list', { name: PatientTexts.clinicalNotes }).getByText('Called the patient: readings reviewed.').waitFor();

    // Tracking time.
    await page.getByRole('button', { name: Labels.addTrackingTime }).click();
    const trackDialog = page.getByRole('dialog', { name: Labels.addTrackingTime });
    expect(await trackDialog.getByLabel(PatientTexts.minutes).inputValue()).toBe('0');
    await trackDialog.getByLabel(PatientTexts.date).fill('2026-02-03');
    await trackDialog.getByLabel(PatientTexts.minutes).fill('25');
    await trackDialog.getByLabel(PatientTexts.notes).fill('Monthly review');
    await trackDialog.getByRole('button', { name: Labels.save }).click();
    await trackDialog.waitFor({ state: 'detached' });
    const tracking = page.getByRole('table', { name: Labels.trackingTime });
    await tracking.getByRole('row', { name: /2026-02-03\s+25\s+Monthly review/ }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });
});

describe('patients, as an admin', () => {
  it('assigns a device, and the device list shows the patient', async () => {
    const device = await callApi<Device>(portal, adminCookie, 'POST', '/api/devices', {
      device_id: 'E2E-BP-0001',
      model: 'BP7250',
      type: 'Blood pressure cuff',
    });
    expect(device.status).toBeLessThan(300);
    const { page, errors, close } = await newPage();
    await signInAs(page, portal, portal.adminEmail, portal.adminPassword);
    await page.goto(`${portal.url}/patients/${patientId}/edit`);
    await page.getByRole('heading', { name: PatientTexts.devices }).waitFor();
    // The device picker is searched, not scrolled: type part of the id, pick the match.
    await page.getByRole('combobox', { name: PatientTexts.assignedDevices }).fill('e2e-bp');
    await page.getByRole('option', { name: /E2E-BP-0001/ }).click();
    await page.getByRole('button', { name: Labels.save }).click();
    await page.waitForURL(`${portal.url}/patients/${patientId}`);
    await page.getByText(/E2E-BP-0001/).waitFor();

    const detail = await callApi<PatientDetail>(portal, adminCookie, 'GET', `/api/patients/${patientId}`);
    expect(detail.body.devices.map((d) => d.device_id)).toEqual(['E2E-BP-0001']);
    await page.goto(`${portal.url}/devices`);
    await page.getByRole('row', { name: /E2E-BP-0001.*Grace Hopper/ }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });
});

/** The scripts the page has loaded so far (from the browser's resource timing). */
async function loadedScripts(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((n) => n.endsWith('.js')),
  );
}

/** Prints the gzip size of the JavaScript loaded before and after pressing Figure. */
async function reportSizes(before: string[], after: string[]) {
  const size = async (urls: string[]) => {
    let total = 0;
    for (const u of urls) total += gzipSync(Buffer.from(await (await fetch(u)).arrayBuffer())).length;
    return total;
  };
  const added = after.filter((u) => !before.includes(u));
  console.log(
    `patient detail JS (gzip): before Figure ${(await size(before)) / 1024 | 0} KB in ${before.length} files; ` +
      `Figure adds ${((await size(added)) / 1024).toFixed(1)} KB in ${added.length} file(s): ${added.map((u) => u.split('/').pop()).join(', ')}`,
  );
}
