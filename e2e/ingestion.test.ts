import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { IngestionTexts, Labels, PatientTexts } from '@rpm/contracts';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminOrganizationId,
  buildDevice,
  buildPatient,
  collectConsoleErrors,
  createProvider,
  launchBrowser,
  type Portal,
  REPO_ROOT,
  signInAs,
  signInViaApi,
  startPortal,
} from './harness.ts';

/** The simulator as `npm run simulate:devices` runs it: the built CLI. */
const SIMULATOR = 'packages/server/dist/modules/ingestion/simulate-cli.js';

let portal: Portal;
let browser: Browser;
let provider: { email: string; password: string };
let patientId: number;

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
  const adminCookie = await signInViaApi(portal, portal.adminEmail, portal.adminPassword);
  const orgId = await adminOrganizationId(portal);
  provider = await createProvider(portal, adminCookie, {
    emailPrefix: 'ingest-provider',
    firstName: 'Ivy',
    lastName: 'Ingest',
    organizationId: orgId,
    password: 'Provider-e2e-Ingest5!',
  });
  patientId = await buildPatient(portal.db, { firstName: 'Cuff', lastName: 'Wearer', organizationId: orgId });
  await buildDevice(portal.db, {
    deviceId: 'SIM-CUFF-1',
    model: 'Tenovi BPM',
    patientId,
    assignedFrom: { ago: '1 day' },
  });
});
afterAll(async () => {
  await browser?.close();
  await portal?.dispose();
});

describe('readings from a device cloud', () => {
  it('an admin creates a source, the simulator sends readings with its secret, a provider sees them', async () => {
    const adminContext = await browser.newContext({ timezoneId: 'UTC' });
    const admin = await adminContext.newPage();
    const adminErrors = collectConsoleErrors(admin, [/401/]);
    await signInAs(admin, portal, portal.adminEmail, portal.adminPassword);
    await admin.getByRole('link', { name: IngestionTexts.integrationsTitle }).click();
    // The page has a second form (EHR system clients) with its own Name field.
    const createForm = admin.getByRole('form', { name: IngestionTexts.createSource });
    await createForm.getByLabel(IngestionTexts.sourceName).fill('Tenovi cloud');
    await createForm.getByRole('button', { name: IngestionTexts.createSource }).click();
    const secret = (await admin.getByTestId('source-secret').textContent())!.trim();
    const sourceId = (await admin.getByTestId('source-id').textContent())!.split(': ')[1]!.trim();
    expect(secret).toMatch(/^rpms_/);
    expect(adminErrors).toEqual([]);
    await adminContext.close();

    // The simulator, with the source's secret (from the environment, as its usage suggests).
    const run = await promisify(execFile)(
      process.execPath,
      [
        SIMULATOR,
        '--url',
        portal.url,
        '--source',
        sourceId,
        '--devices',
        'SIM-CUFF-1',
        '--rate',
        '4',
        '--duration',
        '1',
      ],
      { cwd: REPO_ROOT, env: { ...process.env, RPM_INGEST_SECRET: secret }, timeout: 30_000 },
    );
    const sent = /Sent (\d+) readings: (\d+) stored, 0 failed\./.exec(run.stdout);
    expect(sent, run.stdout + run.stderr).not.toBeNull();
    const stored = await portal.db.query<{ systolic: number; diastolic: number }>(
      `SELECT systolic, diastolic FROM observations WHERE patient_id = $1 ORDER BY created_at DESC, id DESC`,
      [patientId],
    );
    expect(stored.rows.length).toBe(Number(sent![2]));
    expect(stored.rows.length).toBeGreaterThanOrEqual(2);

    const context = await browser.newContext({ timezoneId: 'UTC', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signInAs(page, portal, provider.email, provider.password);
    await page.goto(`${portal.url}/patients/${patientId}`);

    // The table: one row per stored reading, each with its device as the source and its values.
    const table = page.getByRole('table', { name: PatientTexts.vitals });
    await table.waitFor();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(stored.rows.length);
    expect(await table.getByRole('cell', { name: 'SIM-CUFF-1' }).count()).toBe(stored.rows.length);
    const newest = stored.rows[0]!;
    const firstRow = await table.locator('tbody tr').first().innerText();
    expect(firstRow).toContain(String(newest.systolic));
    expect(firstRow).toContain(String(newest.diastolic));

    // The chart: swept with the cursor, its legend shows the values of the points under it; there
    // must be some, and each must be one of the stored readings.
    await page.getByRole('button', { name: Labels.figure }).click();
    const chart = page.getByRole('img', { name: PatientTexts.chartLabel });
    await chart.locator('canvas').waitFor();
    // The legend's rows: a label, and the value at the cursor.
    const legendValue = async (label: string) => {
      const rows = await chart
        .locator('.u-legend tr')
        .evaluateAll((trs) =>
          trs.map((tr) => [tr.querySelector('th')?.textContent, tr.querySelector('td')?.textContent]),
        );
      return rows.find(([name]) => name === label)?.[1] ?? null;
    };
    await chart.scrollIntoViewIfNeeded();
    const over = (await chart.locator('.u-over').boundingBox())!;
    const pairs = new Set(stored.rows.map((r) => `${r.systolic}/${r.diastolic}`));
    const seen = new Set<string>();
    for (let x = over.width - 1; x > 0; x -= over.width / 40) {
      await page.mouse.move(over.x + x, over.y + over.height / 2);
      const systolic = await legendValue(PatientTexts.systolic);
      if (systolic && /^\d+$/.test(systolic)) seen.add(`${systolic}/${await legendValue(PatientTexts.diastolic)}`);
    }
    expect(seen.size).toBeGreaterThan(0);
    expect([...seen].filter((p) => !pairs.has(p))).toEqual([]);
    await context.close();
  }, 120_000);
});
