import { IngestionTexts, PatientTexts } from '@rpm/contracts';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedDevice, tenoviMeasurement } from '../packages/server/src/modules/ingestion/tenovi-simulator.ts';
import {
  callApi,
  collectConsoleErrors,
  launchBrowser,
  signInAs,
  signInViaApi,
  startPortal,
  type Portal,
} from './harness.ts';

let portal: Portal;
let browser: Browser;
let provider: { email: string; password: string };
let patientId: number;

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
  const adminCookie = await signInViaApi(portal, portal.adminEmail, portal.adminPassword);
  const { rows } = await portal.db.query<{ organization_id: number }>(
    `SELECT organization_id FROM users WHERE lower(email) = lower($1)`,
    [portal.adminEmail],
  );
  const orgId = rows[0]!.organization_id;
  const email = `ingest-provider-${Date.now()}@example.com`;
  const created = await callApi<{ temp_password?: string; temporary_password?: string }>(
    portal,
    adminCookie,
    'POST',
    '/api/admin/users',
    {
      email,
      first_name: 'Ivy',
      last_name: 'Ingest',
      role: 'provider',
      organization_id: orgId,
    },
  );
  expect(created.status).toBeLessThan(300);
  provider = { email, password: 'Provider-e2e-Ingest5!' };
  await signInViaApi(portal, email, created.body.temp_password ?? created.body.temporary_password!, {
    newPassword: provider.password,
  });
  const patient = await portal.db.query<{ id: number }>(
    `INSERT INTO patients (first_name, last_name, organization_id) VALUES ('Cuff', 'Wearer', $1) RETURNING id`,
    [orgId],
  );
  patientId = patient.rows[0]!.id;
  await portal.db.query(`INSERT INTO devices (device_id, model, patient_id) VALUES ('SIM-CUFF-1', 'Tenovi BPM', $1)`, [
    patientId,
  ]);
  await portal.db.query(`UPDATE device_assignments SET assigned_from = now() - interval '1 day'`);
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
    await admin.getByLabel(IngestionTexts.sourceName).fill('Tenovi cloud');
    await admin.getByRole('button', { name: IngestionTexts.createSource }).click();
    const secret = (await admin.getByTestId('source-secret').textContent())!.trim();
    const sourceId = (await admin.getByTestId('source-id').textContent())!.split(': ')[1]!.trim();
    expect(secret).toMatch(/^rpms_/);
    expect(adminErrors).toEqual([]);
    await adminContext.close();

    // What the simulator does: Tenovi-format posts with the source's secret in its header.
    const device = simulatedDevice('SIM-CUFF-1', 3);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${portal.url}/api/ingest/tenovi/${sourceId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-rpm-ingest-secret': secret },
        body: JSON.stringify(tenoviMeasurement(device, new Date(Date.now() - (3 - i) * 3_600_000))),
      });
      expect(res.status).toBe(200);
    }

    const context = await browser.newContext({ timezoneId: 'UTC' });
    const page = await context.newPage();
    await signInAs(page, portal, provider.email, provider.password);
    await page.goto(`${portal.url}/patients/${patientId}`);
    const table = page.getByRole('table', { name: PatientTexts.vitals });
    await table.waitFor();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(3);
    expect(await table.getByRole('cell', { name: 'SIM-CUFF-1' }).count()).toBe(3);
    await context.close();
  }, 120_000);
});
