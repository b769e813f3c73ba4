/**
 * Launch from the EHR, as a clinician does it: the EHR opens the portal with a launch context,
 * the portal completes the SMART authorization (against a test EHR), the clinician signs in, and
 * the portal shows the patient who was open in the EHR, or refuses one they may not see.
 */
import {
  AuthLabels,
  EhrLaunchErrors,
  EhrLaunchPaths,
  EhrLaunchTexts,
  Labels,
  PatientTexts,
  type EhrLaunchSettings,
  type Organization,
  type PatientDetail,
} from '@rpm/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEhr, type TestEhr } from '../packages/server/test/support/test-ehr.ts';
import {
  adminOrganizationId,
  callApi,
  collectConsoleErrors,
  createProvider,
  launchBrowser,
  signInViaApi,
  startPortal,
  type Portal,
} from './harness.ts';

const CLIENT_ID = 'rpm-portal-e2e';
const MRN_SYSTEM = 'https://hospital.example/mrn';

let portal: Portal;
let browser: Browser;
let ehr: TestEhr;
let adminCookie: string;
let providerA: { email: string; password: string };
let providerB: { email: string; password: string };
let patient: PatientDetail;

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
  ehr = await startTestEhr({
    clientId: CLIENT_ID,
    redirectUri: `${portal.url}${EhrLaunchPaths.callback}`,
    patients: [{ id: 'ehr-patient-7', identifiers: [{ system: MRN_SYSTEM, value: 'E2E-7001' }] }],
  });
  adminCookie = await signInViaApi(portal, portal.adminEmail, portal.adminPassword);
  const orgA = await adminOrganizationId(portal);
  const settings = await callApi<EhrLaunchSettings>(portal, adminCookie, 'PUT', EhrLaunchPaths.settings(orgA), {
    iss: ehr.iss,
    client_id: CLIENT_ID,
    patient_identifier_system: MRN_SYSTEM,
  });
  expect(settings.status).toBe(200);
  const created = await callApi<PatientDetail>(portal, adminCookie, 'POST', '/api/patients', {
    first_name: 'Edith',
    last_name: 'Launch',
    organization_id: orgA,
    mrn: 'E2E-7001',
  });
  expect(created.status).toBe(201);
  patient = created.body;
  providerA = await createProvider(portal, adminCookie, {
    emailPrefix: 'launch-a',
    firstName: 'Lena',
    lastName: 'Launch',
    organizationId: orgA,
    password: 'Launch-e2e-Pa55!',
  });
  const orgB = await callApi<Organization>(portal, adminCookie, 'POST', '/api/organizations', { name: 'Other Clinic' });
  expect(orgB.status).toBe(201);
  providerB = await createProvider(portal, adminCookie, {
    emailPrefix: 'launch-b',
    firstName: 'Otto',
    lastName: 'Other',
    organizationId: orgB.body.id,
    password: 'Launch-e2e-Pa55!',
  });
});
afterAll(async () => {
  await browser?.close();
  await ehr?.close();
  await portal?.dispose();
});

/** The EHR opens the portal in a fresh browser (no portal session), and the clinician signs in where the portal asks. */
async function launchAndSignIn(launch: string, who: { email: string; password: string }): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ timezoneId: 'UTC' });
  const page = await context.newPage();
  // A 401 from /api/me before sign-in is expected; the refused launch answers 404 on purpose.
  const errors = collectConsoleErrors(page, [/401/, /404/]);
  ehr.launchFor(launch, 'ehr-patient-7');
  await page.goto(`${portal.url}${EhrLaunchPaths.launch}?${new URLSearchParams({ iss: ehr.iss, launch })}`);
  await page.waitForURL(`${portal.url}/login`);
  await page.getByLabel(AuthLabels.email).fill(who.email);
  await page.getByRole('button', { name: Labels.next }).click();
  await page.getByLabel(AuthLabels.password, { exact: true }).fill(who.password);
  await page.getByRole('button', { name: Labels.login }).click();
  return { page, errors };
}

describe('launch from the EHR', () => {
  it('signs the clinician in and opens the patient the EHR has in context', async () => {
    const { page, errors } = await launchAndSignIn('e2e-launch-1', providerA);
    await page.waitForURL(`${portal.url}/patients/${patient.id}`);
    await page.getByRole('heading', { name: /Edith/ }).first().waitFor();
    await page.getByText(`${PatientTexts.mrn} E2E-7001`).waitFor();
    expect(ehr.events).toEqual(expect.arrayContaining(['authorize: code issued', 'token: issued', 'patient: read']));
    // The EHR's token stays on the server: nothing of it in the browser's cookies, storage or page.
    const token = ehr.issuedTokens.at(-1)!;
    expect(token).toBeTruthy();
    const seen = JSON.stringify({
      cookies: await page.context().cookies(),
      storage: await page.evaluate(() => ({ ...localStorage, ...sessionStorage })),
      html: await page.content(),
    });
    expect(seen).not.toContain(token);
    expect(portal.output()).not.toContain(token);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('refuses a launch for a patient the clinician may not see, and records the refusal', async () => {
    const { page } = await launchAndSignIn('e2e-launch-2', providerB);
    await page.waitForURL(new RegExp(`${EhrLaunchPaths.complete}`));
    await page.getByText(EhrLaunchErrors.noMatch).waitFor();
    await page.getByRole('heading', { name: EhrLaunchTexts.title }).waitFor();
    expect(page.url()).not.toContain(`/patients/${patient.id}`);
    const { rows } = await portal.db.query<{ outcome: string; reason: string }>(
      `SELECT outcome, reason FROM audit_logs WHERE action = 'launch.resolve' AND resource_id = $1 ORDER BY id DESC LIMIT 1`,
      [String(patient.id)],
    );
    expect(rows[0]).toEqual({ outcome: 'denied', reason: 'patient of another organization' });
    await page.context().close();
  });
});
