/**
 * What a shared clinic workstation and an unusual address must not break: two users one after the
 * other in one tab, without a reload, and the portal opened at another address than PUBLIC_URL.
 */
import { AuthLabels, Labels } from '@rpm/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, collectConsoleErrors, createProvider, launchBrowser, signInAs, signInViaApi, startPortal, type Portal } from './harness.ts';

let portal: Portal;
let browser: Browser;
let adminCookie: string;

interface Clinic {
  provider: { email: string; password: string };
  patientName: string;
}
let clinicA: Clinic;
let clinicB: Clinic;

/** An organization with one provider (first sign-in done) and one patient whose name is unique. */
async function createClinic(tag: string): Promise<Clinic> {
  const org = await callApi<{ id: number }>(portal, adminCookie, 'POST', '/api/organizations', { name: `Clinic ${tag} ${Date.now()}` });
  expect(org.status).toBe(201);
  const { email, password } = await createProvider(portal, adminCookie, {
    emailPrefix: `provider-${tag.toLowerCase()}`,
    firstName: `Pat${tag}`,
    lastName: 'Provider',
    organizationId: org.body.id,
    password: `Provider-${tag}-Pa55!`,
  });
  const patientName = `Only${tag}clinic`;
  const patient = await callApi(portal, adminCookie, 'POST', '/api/patients', {
    first_name: patientName,
    middle_name: null,
    last_name: 'Patient',
    date_of_birth: '1960-05-06',
    gender: 'other',
    organization_id: org.body.id,
    primary_provider_id: null,
    enrolled_rpm: true,
    enrollment_status: 'Active',
  });
  expect(patient.status).toBe(201);
  return { provider: { email, password }, patientName };
}

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
  adminCookie = await signInViaApi(portal, portal.adminEmail, portal.adminPassword);
  clinicA = await createClinic('A');
  clinicB = await createClinic('B');
});
afterAll(async () => {
  await browser?.close();
  await portal?.dispose();
});

/** The login page's two steps, on the page as it is (no navigation, hence no reload). */
async function signInHere(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel(AuthLabels.email).fill(email);
  await page.getByRole('button', { name: Labels.next }).click();
  await page.getByLabel(AuthLabels.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: Labels.login }).click();
  await page.waitForURL(`${portal.url}/`);
}

describe('one tab, two users', () => {
  it('shows the second user none of the first user’s patients, without a reload in between', async () => {
    const context = await browser.newContext({ timezoneId: 'UTC' });
    const page = await context.newPage();
    const errors = collectConsoleErrors(page, [/401/]);
    await signInAs(page, portal, clinicA.provider.email, clinicA.provider.password);
    // From here on the tab is never reloaded: this marker would be gone if it were.
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

    await page.getByRole('link', { name: Labels.patients }).click();
    await expect(page.getByText(clinicA.patientName).waitFor()).resolves.toBeUndefined();

    await page.getByRole('button', { name: AuthLabels.accountMenu }).click();
    await page.getByRole('menuitem', { name: Labels.logout }).click();
    await page.waitForURL(`${portal.url}/login`);

    // Watch every change of the page from now on for the first user's patient.
    await page.evaluate((name) => {
      const w = window as unknown as { sawFirstUsersPatient: boolean };
      w.sawFirstUsersPatient = document.body.innerText.includes(name);
      new MutationObserver(() => {
        if (document.body.innerText.includes(name)) w.sawFirstUsersPatient = true;
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    }, clinicA.patientName);

    await signInHere(page, clinicB.provider.email, clinicB.provider.password);
    await page.getByRole('link', { name: Labels.patients }).click();
    await page.getByText(clinicB.patientName).waitFor();
    // The detail page and back again, so that every cached view has had its chance to show.
    await page.getByRole('link', { name: new RegExp(`^${Labels.view} ${clinicB.patientName}`) }).click();
    await page.getByRole('heading', { name: new RegExp(clinicB.patientName) }).waitFor();
    await page.goBack();
    await page.getByText(clinicB.patientName).waitFor();

    const state = await page.evaluate(() => {
      const w = window as unknown as { sameDocument?: boolean; sawFirstUsersPatient?: boolean };
      return { sameDocument: w.sameDocument, sawFirstUsersPatient: w.sawFirstUsersPatient };
    });
    expect(state.sameDocument).toBe(true);
    expect(state.sawFirstUsersPatient).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the address the portal is reached by', () => {
  it('signs in at http://127.0.0.1 while PUBLIC_URL names localhost', async () => {
    const atLoopbackIp = { url: portal.url.replace('//localhost:', '//127.0.0.1:') };
    expect(atLoopbackIp.url).not.toBe(portal.url);
    const context = await browser.newContext({ timezoneId: 'UTC' });
    const page = await context.newPage();
    const errors = collectConsoleErrors(page, [/401/]);
    await signInAs(page, atLoopbackIp, clinicB.provider.email, clinicB.provider.password);
    await page.getByRole('link', { name: Labels.patients }).click();
    await page.getByText(clinicB.patientName).waitFor();
    expect(new URL(page.url()).hostname).toBe('127.0.0.1');
    expect(errors).toEqual([]);
    await context.close();
  });
});
