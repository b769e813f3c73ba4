/**
 * Administration in the real portal, as an admin through the real sign-in: register a provider
 * and read the temporary password from the page, that provider's first sign-in in a second
 * browser, disable (the provider's open tab is signed out on its next request and cannot sign
 * in again) and enable, each after a confirmation dialog (also by keyboard), resend an invite, add an organization (and require MFA in it) and a device, page through the
 * audit log and find these actions in it, and open the database inspector on two tables.
 */
import {
  AdminTexts,
  AuditLogColumns,
  AuthLabels,
  DbSchemaColumns,
  DeviceTypeLabels,
  DevicesTableColumns,
  Labels,
  SessionTexts,
  Toasts,
  UserActionConfirmations,
  UsersTableColumns,
} from '@rpm/contracts';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, collectConsoleErrors, launchBrowser, signInAs, startPortal, type Portal } from './harness.ts';

let portal: Portal;
let browser: Browser;
let adminContext: BrowserContext;
let providerContext: BrowserContext;
let admin: Page;
let provider: Page;
let adminErrors: string[];

const stamp = Date.now().toString(36);
const providerEmail = `prov-${stamp}@example.com`;
const inviteeEmail = `invitee-${stamp}@example.com`;
const providerPassword = 'Prov-Passw0rd!';
const orgName = `Harbor Clinic ${stamp}`;
const deviceId = `BP-${stamp}`.toUpperCase();

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
  adminContext = await browser.newContext();
  providerContext = await browser.newContext();
  admin = await adminContext.newPage();
  provider = await providerContext.newPage();
  // The duplicate device is refused on purpose (409).
  adminErrors = collectConsoleErrors(admin, [/status of 409/]);
  await signInAs(admin, portal, portal.adminEmail, portal.adminPassword);
});
afterAll(async () => {
  await adminContext?.close().catch(() => {});
  await providerContext?.close().catch(() => {});
  await browser?.close();
  await portal?.dispose();
});

async function expectToast(page: Page, text: string): Promise<void> {
  await page.getByText(text, { exact: true }).first().waitFor({ state: 'visible', timeout: 15_000 });
}

/** Goes to an admin page through the sidebar, as a person would. */
async function openFromSidebar(page: Page, label: string, path: string): Promise<void> {
  await page.getByRole('navigation', { name: AuthLabels.mainNavigation }).getByRole('link', { name: label, exact: true }).click();
  await page.waitForURL(`${portal.url}${path}`);
}

async function register(page: Page, email: string, first: string, last: string): Promise<string> {
  await openFromSidebar(page, Labels.register, '/register');
  await page.getByRole('heading', { name: AdminTexts.registerTitle }).waitFor();
  await page.getByLabel(AdminTexts.firstName).fill(first);
  await page.getByLabel(AdminTexts.lastName).fill(last);
  await page.getByRole('combobox', { name: AdminTexts.organization }).click();
  await page.getByRole('option').first().click();
  await page.getByLabel(AdminTexts.email).fill(email);
  await page.getByRole('button', { name: AdminTexts.submit }).click();
  await expectToast(page, Toasts.userCreated);
  const password = (await page.getByTestId('temp-password').textContent())?.trim() ?? '';
  await shot(page, 'register');
  expect(password.length).toBeGreaterThanOrEqual(8);
  return password;
}

/** Screenshots of the pages, to look at (kept out of git). */
async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(REPO_ROOT, 'e2e/artifacts', `admin-${name}.png`), fullPage: true });
}

/** Answers the confirmation dialog of a user action with its confirm button. */
async function confirm(page: Page, texts: { title: string; confirm: string }): Promise<void> {
  const dialog = page.getByRole('dialog', { name: texts.title });
  await dialog.getByRole('button', { name: texts.confirm }).click();
  await dialog.waitFor({ state: 'hidden' });
}

function userRow(page: Page, email: string): Locator {
  return page.getByRole('row').filter({ has: page.getByRole('cell', { name: email, exact: true }) });
}

describe('administration', () => {
  it('registers a provider, who sets a new password on first sign-in in another browser', async () => {
    const temp = await register(admin, providerEmail, 'Pat', 'Provider');
    // The row is there with the pool's status for a user who has not signed in yet.
    await openFromSidebar(admin, Labels.users, '/users');
    const users = admin.getByRole('table', { name: AdminTexts.usersTitle });
    await users.waitFor();
    expect(await users.getByRole('columnheader').allTextContents()).toEqual([...UsersTableColumns]);
    await userRow(admin, providerEmail).getByRole('cell', { name: 'FORCE_CHANGE_PASSWORD' }).waitFor();

    await provider.goto(`${portal.url}/login`);
    await provider.getByLabel(AuthLabels.email).fill(providerEmail);
    await provider.getByRole('button', { name: Labels.next }).click();
    await provider.getByLabel(AuthLabels.password, { exact: true }).fill(temp);
    await provider.getByRole('button', { name: Labels.login }).click();
    await provider.getByLabel(AuthLabels.newPassword).fill(providerPassword);
    await provider.getByLabel(AuthLabels.confirmPassword).fill(providerPassword);
    await provider.getByRole('button', { name: Labels.setPassword }).click();
    await provider.waitForURL(`${portal.url}/`);
    await provider.getByRole('heading', { name: Labels.dashboard }).waitFor();
  });

  it('disabling signs the provider’s open tab out on its next request and stops sign-in; enabling restores it', async () => {
    await admin.reload();
    const row = userRow(admin, providerEmail);
    await row.getByRole('cell', { name: 'CONFIRMED' }).waitFor();
    await row.getByRole('button', { name: Labels.disable }).click();
    await confirm(admin, UserActionConfirmations.disable);
    await expectToast(admin, Toasts.userDisabled);
    // The row updated in place: status disabled, and the action is now Enable.
    await row.getByRole('cell', { name: 'disabled', exact: true }).waitFor();
    await row.getByRole('button', { name: Labels.enable }).waitFor();

    // The server has ended the session. The tab's alerts stream ends with it, so the tab usually
    // knows at once; otherwise its next request tells it.
    const ended = provider.getByRole('dialog', { name: SessionTexts.endedTitle });
    const patientsLink = provider
      .getByRole('navigation', { name: AuthLabels.mainNavigation })
      .getByRole('link', { name: Labels.patients });
    await ended.waitFor({ timeout: 3_000 }).catch(() => patientsLink.click({ timeout: 5_000 }).catch(() => {}));
    await ended.waitFor({ timeout: 15_000 });
    await provider.getByRole('button', { name: SessionTexts.leave }).click();
    await provider.waitForURL(`${portal.url}/login`);

    // And cannot sign in again.
    await provider.getByLabel(AuthLabels.email).fill(providerEmail);
    await provider.getByRole('button', { name: Labels.next }).click();
    await provider.getByLabel(AuthLabels.password, { exact: true }).fill(providerPassword);
    await provider.getByRole('button', { name: Labels.login }).click();
    await provider.getByText(/disabled/i).first().waitFor({ timeout: 15_000 });
    expect(provider.url()).toBe(`${portal.url}/login`);

    await row.getByRole('button', { name: Labels.enable }).click();
    await confirm(admin, UserActionConfirmations.enable);
    await expectToast(admin, Toasts.userEnabled);
    await row.getByRole('cell', { name: 'active', exact: true }).waitFor();
    await shot(admin, 'users');
    await signInAs(provider, portal, providerEmail, providerPassword);
    await provider.getByRole('heading', { name: Labels.dashboard }).waitFor();
  });

  it('resends the invitation of a user who has not signed in yet', async () => {
    await register(admin, inviteeEmail, 'Ivy', 'Invitee');
    await openFromSidebar(admin, Labels.users, '/users');
    await userRow(admin, inviteeEmail).getByRole('button', { name: Labels.resendInvite }).click();
    await confirm(admin, UserActionConfirmations['resend-invite']);
    await expectToast(admin, Toasts.inviteResent);
    // The pool's outbox holds the first invitation and the resent one.
    const sent = await portal.db.query(
      `SELECT count(*)::int AS n FROM identity.outbox WHERE kind = 'invitation' AND lower(recipient) = lower($1)`,
      [inviteeEmail],
    );
    expect(sent.rows[0].n).toBe(2);
    // A user who has set a password is offered no Resend Invite (it would replace their password).
    await userRow(admin, providerEmail).getByRole('cell', { name: 'CONFIRMED' }).waitFor();
    expect(await userRow(admin, providerEmail).getByRole('button', { name: Labels.resendInvite }).count()).toBe(0);
  });

  it('asks before Disable, by keyboard too: Escape and Cancel change nothing; the admin’s own row has no Disable', async () => {
    await openFromSidebar(admin, Labels.users, '/users');
    const own = userRow(admin, portal.adminEmail);
    await own.getByRole('cell', { name: 'active', exact: true }).waitFor();
    expect(await own.getByRole('button', { name: Labels.disable }).count()).toBe(0);

    const row = userRow(admin, providerEmail);
    const disable = row.getByRole('button', { name: Labels.disable });
    await disable.focus();
    await admin.keyboard.press('Enter');
    const dialog = admin.getByRole('dialog', { name: UserActionConfirmations.disable.title });
    await dialog.waitFor();
    await dialog.getByText(providerEmail).waitFor();
    await shot(admin, 'confirm-disable');
    // Focus starts on Cancel: a stray Enter changes nothing.
    await expect.poll(() => dialog.getByRole('button', { name: Labels.cancel }).evaluate((el) => el === document.activeElement)).toBe(true);
    await admin.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await disable.focus();
    await admin.keyboard.press('Enter');
    await dialog.waitFor();
    await admin.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await row.getByRole('cell', { name: 'active', exact: true }).waitFor();
    const disables = await portal.db.query(
      `SELECT count(*)::int AS n FROM audit_logs a JOIN users u ON u.id = a.target_user_id
        WHERE a.action = 'user.disable' AND lower(u.email) = lower($1)`,
      [providerEmail],
    );
    expect(disables.rows[0].n).toBe(1); // only the confirmed one of the test before

    // Tab to the confirm button and press it: the action runs.
    await disable.focus();
    await admin.keyboard.press('Enter');
    await dialog.waitFor();
    await admin.keyboard.press('Tab');
    await admin.keyboard.press('Enter');
    await expectToast(admin, Toasts.userDisabled);
    await row.getByRole('button', { name: Labels.enable }).click();
    await confirm(admin, UserActionConfirmations.enable);
    await expectToast(admin, Toasts.userEnabled);
    await row.getByRole('cell', { name: 'active', exact: true }).waitFor();
  });

  it('on a phone, each user is a block of labelled lines, with its actions on screen', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await phone.newPage();
      const errors = collectConsoleErrors(page);
      await signInAs(page, portal, portal.adminEmail, portal.adminPassword);
      await page.goto(`${portal.url}/users`);
      const row = userRow(page, providerEmail);
      const disable = row.getByRole('button', { name: Labels.disable });
      await disable.waitFor();
      // Nothing is off the side: not the page, not the table in its card.
      const box = (await disable.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const table = page.getByRole('table', { name: AdminTexts.usersTitle });
      expect(await table.evaluate((t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth)).toBe(true);
      // Each value is led by its column's label; the headings stay for screen readers.
      const email = row.getByRole('cell', { name: providerEmail, exact: true });
      expect(await email.evaluate((td) => getComputedStyle(td, '::before').content)).toContain(UsersTableColumns[1]);
      for (const column of UsersTableColumns) expect(await table.getByRole('columnheader', { name: column, exact: true }).count()).toBe(1);
      // The admin's own row offers no action, so it shows no empty Action line.
      const ownActions = userRow(page, portal.adminEmail).locator('td').last();
      expect(await ownActions.isVisible()).toBe(false);
      await disable.click();
      const dialog = page.getByRole('dialog', { name: UserActionConfirmations.disable.title });
      await dialog.getByRole('button', { name: Labels.cancel }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(errors).toEqual([]);
    } finally {
      await phone.close();
    }
  });

  it('adds an organization and a device, and refuses a duplicate device', async () => {
    await openFromSidebar(admin, Labels.addOrg, '/organizations/add');
    await admin.getByLabel(AdminTexts.organizationName).fill(orgName);
    await admin.getByRole('button', { name: AdminTexts.submit }).click();
    await expectToast(admin, Toasts.organizationAdded);
    // Its settings: organization-wide MFA, switched on and saved.
    const requireMfa = admin.getByRole('switch', { name: `${AdminTexts.requireMfa}: ${orgName}` });
    await requireMfa.waitFor();
    await expect.poll(() => requireMfa.isEnabled()).toBe(true);
    await requireMfa.click();
    await expectToast(admin, Toasts.organizationSettingsSaved);
    expect(await requireMfa.isChecked()).toBe(true);
    await shot(admin, 'organization-settings');
    const stored = await portal.db.query(`SELECT require_mfa FROM organizations WHERE name = $1`, [orgName]);
    expect(stored.rows[0].require_mfa).toBe(true);

    await openFromSidebar(admin, Labels.devices, '/devices');
    await admin.getByRole('link', { name: AdminTexts.addDeviceTitle }).click();
    await admin.waitForURL(`${portal.url}/devices/add`);
    await admin.getByLabel(AdminTexts.deviceId).fill(deviceId);
    await admin.getByLabel(AdminTexts.model).fill('BP5');
    await admin.getByLabel(AdminTexts.type).selectOption('cuff');
    await admin.getByRole('button', { name: AdminTexts.submit }).click();
    await expectToast(admin, Toasts.deviceAdded);
    await admin.getByLabel(AdminTexts.deviceId).fill(deviceId.toLowerCase());
    await admin.getByRole('button', { name: AdminTexts.submit }).click();
    await admin.getByText(/already exists/).first().waitFor();

    await openFromSidebar(admin, Labels.devices, '/devices');
    const devices = admin.getByRole('table', { name: AdminTexts.devicesTitle });
    await devices.waitFor();
    expect(await devices.getByRole('columnheader').allTextContents()).toEqual([...DevicesTableColumns]);
    await shot(admin, 'devices');
    const row = admin.getByRole('row').filter({ hasText: deviceId });
    expect(await row.getByRole('cell').allTextContents()).toEqual([deviceId, 'BP5', DeviceTypeLabels.cuff, AdminTexts.unassigned]);
  });

  it('pages through the audit log and finds these actions in it', async () => {
    await openFromSidebar(admin, Labels.auditLogs, '/audit-logs');
    const table = admin.getByRole('table', { name: AdminTexts.auditLogsTitle });
    await table.getByRole('row').nth(1).waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([...AuditLogColumns]);
    expect(await table.getByRole('row').count()).toBe(11); // header + the default 10
    const firstPageIds = await table.getByRole('row').nth(1).textContent();
    await admin.getByRole('button', { name: 'Go to next page' }).click();
    await admin.getByText(/^11–20 of \d+/).waitFor();
    // The previous page stays on screen until the next one arrives.
    await expect.poll(() => table.getByRole('row').nth(1).textContent()).not.toBe(firstPageIds);
    expect(await table.getByRole('row').count()).toBe(11);

    await admin.getByRole('combobox', { name: /Rows per page/ }).selectOption('100');
    await admin.getByText(/^1–\d+ of \d+/).waitFor();
    await shot(admin, 'audit-logs');
    // How many records came after this file's actions depends on timing (audited reads, token
    // exchanges), so browse the pages, newest first, until every action has been seen.
    const wanted = ['user.create', 'user.disable', 'user.enable', 'user.resend_invite', 'organization.create', 'device.create'];
    let text = (await table.textContent()) ?? '';
    const next = admin.getByRole('button', { name: 'Go to next page' });
    for (let pageNo = 2; pageNo <= 5 && wanted.some((a) => !text.includes(a)) && (await next.isEnabled()); pageNo++) {
      const shownFirst = await table.getByRole('row').nth(1).textContent();
      await next.click();
      await admin.getByText(new RegExp(`^${(pageNo - 1) * 100 + 1}–\\d+ of \\d+`)).waitFor();
      await expect.poll(() => table.getByRole('row').nth(1).textContent()).not.toBe(shownFirst);
      text += (await table.textContent()) ?? '';
    }
    for (const action of wanted) expect(text).toContain(action);
  });

  it('opens the database inspector on two tables, without secret columns', async () => {
    await openFromSidebar(admin, Labels.db, '/db');
    const select = admin.getByRole('combobox', { name: AdminTexts.table });
    await admin.getByText(Labels.selectATable).first().waitFor();

    await select.click();
    await admin.getByRole('option', { name: 'users', exact: true }).click();
    const schema = admin.getByRole('table', { name: Labels.schema });
    await schema.getByRole('cell', { name: 'email', exact: true }).waitFor();
    expect(await schema.getByRole('columnheader').allTextContents()).toEqual([...DbSchemaColumns]);
    const sample = admin.getByRole('table', { name: Labels.sampleRows });
    await sample.getByRole('cell', { name: providerEmail }).waitFor();
    expect(await sample.getByRole('columnheader').allTextContents()).not.toContain('cognito_username');
    await admin.getByText(`${AdminTexts.withheldColumns}: cognito_username, cognito_sub, password_changed_at`).waitFor();
    // Booleans read true/false.
    expect(await sample.getByRole('cell', { name: 'false', exact: true }).count()).toBeGreaterThan(0);

    await select.click();
    await admin.getByRole('option', { name: 'devices', exact: true }).click();
    await admin.getByRole('table', { name: Labels.sampleRows }).getByRole('cell', { name: deviceId }).waitFor();
    await shot(admin, 'db');

    const views = await portal.db.query(`SELECT action FROM audit_logs WHERE action LIKE 'db.%' AND outcome = 'success'`);
    expect(views.rows.map((r) => r.action)).toEqual(expect.arrayContaining(['db.tables', 'db.schema', 'db.sample']));
    expect(adminErrors).toEqual([]);
  });
});
