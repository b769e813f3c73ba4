/**
 * Sign-in, sessions and the app shell in the real portal: SRP sign-in, first sign-in with a
 * temporary password, TOTP set-up and sign-in with a code, forgot and reset password through the
 * outbox, the navigation guards, the idle timeout across tabs, a 401 ending the session, logout.
 */
import { AlertTexts, BillingTexts,
  AuthLabels,
  IDLE_TIMEOUT_MS,
  IngestionTexts,
  Labels,
  SessionTexts,
  Toasts,
  Validation,
  type CreateUserResponse,
} from '@rpm/contracts';
import { generate } from 'otplib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, callApi, collectConsoleErrors, launchBrowser, signInAs, signInViaApi, startPortal, type Portal } from './harness.ts';
import { endSessions } from '../packages/server/test/support/factories.ts';

let portal: Portal;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await portal?.dispose();
});


async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  contexts.push(context);
  return { context, page: await context.newPage() };
}

let adminCookie: string | undefined;
/** A provider created by the admin through the API, with the temporary password it was given. */
async function createProvider(label: string): Promise<{ email: string; tempPassword: string; id: number }> {
  adminCookie ??= await signInViaApi(portal, portal.adminEmail, portal.adminPassword);
  const admin = adminCookie;
  const org = await portal.db.query<{ id: number }>(`SELECT id FROM organizations ORDER BY id LIMIT 1`);
  const email = `${label}-${Date.now()}@example.com`;
  const res = await callApi<CreateUserResponse>(portal, admin, 'POST', '/api/admin/users', {
    email,
    first_name: 'Test',
    last_name: label,
    role: 'provider',
    organization_id: org.rows[0]!.id,
  });
  expect(res.status).toBe(201);
  return { email, tempPassword: res.body.temp_password, id: res.body.user.id };
}

/** A toast (notistack renders each one as an alert-like message in the page). */
async function expectToast(page: Page, text: string | RegExp): Promise<void> {
  await page.getByText(text).first().waitFor({ state: 'visible', timeout: 15_000 });
}

const usedCodes = new Set<string>();
/** A TOTP code not used before: the pool refuses a code it has already accepted. */
async function freshCode(secret: string): Promise<string> {
  for (;;) {
    const code = await generate({ secret });
    if (!usedCodes.has(code)) {
      usedCodes.add(code);
      return code;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** Live portal sessions of `email` opened by the browser (API-only sessions of the set-up aside). */
async function liveBrowserSessions(email: string): Promise<number> {
  const { rowCount } = await portal.db.query(
    `SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE u.email = $1 AND s.revoked_at IS NULL AND s.expires_at > now() AND s.user_agent LIKE '%Chrom%'`,
    [email],
  );
  return rowCount ?? 0;
}

/** The beacon travels on its own after the page has gone: give it a moment to arrive. */
async function settledBrowserSessions(email: string, expected: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  let live = await liveBrowserSessions(email);
  while (live !== expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    live = await liveBrowserSessions(email);
  }
  return live;
}

async function logout(page: Page): Promise<void> {
  await page.getByRole('button', { name: AuthLabels.accountMenu }).click();
  await page.getByRole('menuitem', { name: Labels.logout }).click();
  await page.waitForURL(`${portal.url}/login`);
}

async function startSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${portal.url}/login`);
  await page.getByLabel(AuthLabels.email).fill(email);
  await page.getByRole('button', { name: Labels.next }).click();
  await page.getByLabel(AuthLabels.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: Labels.login }).click();
}

describe('sign-in', () => {
  it('signs the admin in with SRP, shows the admin shell, and logout goes to /login', async () => {
    const { page } = await newPage();
    const errors = collectConsoleErrors(page);
    await page.goto(`${portal.url}/login`);
    await page.getByRole('button', { name: Labels.next }).click();
    await page.getByText(Validation.email).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await signInAs(page, portal, portal.adminEmail, portal.adminPassword);
    await page.getByRole('heading', { name: Labels.dashboard }).waitFor();
    const nav = page.getByRole('navigation', { name: AuthLabels.mainNavigation });
    expect(await nav.getByRole('link').allTextContents()).toEqual([
      Labels.patients,
      AlertTexts.navAlerts,
      Labels.devices,
      Labels.users,
      Labels.register,
      Labels.addOrg,
      Labels.db,
      Labels.auditLogs,
      IngestionTexts.integrationsTitle,
      BillingTexts.title,
    ]);
    expect(await page.getByRole('link', { name: Labels.dashboard }).isVisible()).toBe(true);
    expect(await page.getByLabel(AuthLabels.timezone).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    // A fresh sign-in from the login page, while signed in, is refused: /login goes to /.
    await page.goto(`${portal.url}/login`);
    await page.waitForURL(`${portal.url}/`);
    await page.getByRole('heading', { name: Labels.dashboard }).waitFor();

    await logout(page);
    await page.getByRole('button', { name: Labels.next }).waitFor();
    expect(await page.getByRole('link', { name: Labels.loginLink }).isVisible()).toBe(true);
    expect(await liveBrowserSessions(portal.adminEmail)).toBe(0);
    expect(errors).toEqual([]);
  });

  it('sends a signed-out visitor to /login, and a provider away from admin routes to /', async () => {
    const { page } = await newPage();
    const errors = collectConsoleErrors(page);
    await page.goto(`${portal.url}/patients`);
    await page.waitForURL(`${portal.url}/login`);
    await page.goto(`${portal.url}/`);
    await page.waitForURL(`${portal.url}/login`);
    await page.goto(`${portal.url}/users`);
    await page.waitForURL(`${portal.url}/login`);

    const provider = await createProvider('guard');
    const password = 'Guard-Passw0rd!';
    await startSignIn(page, provider.email, provider.tempPassword);
    await page.getByLabel(AuthLabels.newPassword).fill(password);
    await page.getByLabel(AuthLabels.confirmPassword).fill(password);
    await page.getByRole('button', { name: Labels.setPassword }).click();
    await page.waitForURL(`${portal.url}/`);

    const nav = page.getByRole('navigation', { name: AuthLabels.mainNavigation });
    // The sidebar's code loads with the first signed-in page.
    await nav.getByRole('link', { name: Labels.patients }).waitFor();
    expect(await nav.getByRole('link').allTextContents()).toEqual([Labels.patients, AlertTexts.navAlerts, BillingTexts.title]);
    await page.goto(`${portal.url}/users`);
    await page.waitForURL(`${portal.url}/`);
    await page.getByRole('heading', { name: Labels.dashboard }).waitFor();
    expect(errors).toEqual([]);
  });

  it('makes a user with a temporary password set a new one on first sign-in, then changes it on the profile page', async () => {
    const { page } = await newPage();
    // The wrong current password is refused by the user pool with a 400, on purpose.
    const errors = collectConsoleErrors(page, [/status of 400/]);
    const provider = await createProvider('first');
    await startSignIn(page, provider.email, provider.tempPassword);

    const setPassword = page.getByRole('button', { name: Labels.setPassword });
    await setPassword.waitFor();
    await page.getByLabel(AuthLabels.newPassword).fill('weak');
    await page.getByLabel(AuthLabels.confirmPassword).fill('other');
    await setPassword.click();
    await page.getByText(Validation.passwordPolicy).waitFor();
    await page.getByText(Validation.passwordsMismatch).waitFor();

    const password = 'First-Passw0rd!';
    await page.getByLabel(AuthLabels.newPassword).fill(password);
    await page.getByLabel(AuthLabels.confirmPassword).fill(password);
    await setPassword.click();
    await page.waitForURL(`${portal.url}/`);
    await page.getByRole('heading', { name: Labels.dashboard }).waitFor();
    await logout(page);

    // The new password is the password from now on; the profile page changes it again.
    await signInAs(page, portal, provider.email, password);
    await page.getByRole('button', { name: AuthLabels.accountMenu }).click();
    await page.getByRole('menuitem', { name: Labels.profile }).click();
    const change = page.getByRole('button', { name: AuthLabels.changePassword });
    const changed = 'Changed-Passw0rd!';
    await page.getByLabel(AuthLabels.currentPassword).fill('Wrong-Passw0rd!');
    await page.getByLabel(AuthLabels.newPassword).fill(changed);
    await page.getByLabel(AuthLabels.confirmPassword).fill(changed);
    await change.click();
    await expectToast(page, Toasts.changePasswordFailed);
    await page.getByLabel(AuthLabels.currentPassword).fill(password);
    await change.click();
    await expectToast(page, Toasts.passwordChanged);
    await logout(page);
    await signInAs(page, portal, provider.email, changed);
    expect(errors).toEqual([]);
  });
});

describe('MFA', () => {
  it('sets up TOTP on the profile page, signs in with a code, refuses a wrong one, and disables it', async () => {
    const { page } = await newPage();
    // Failed calls the test provokes on purpose: the wrong code (400 from the user pool).
    const errors = collectConsoleErrors(page, [/status of 400/]);
    const provider = await createProvider('mfa');
    const password = 'Mfa-Passw0rd!';
    await startSignIn(page, provider.email, provider.tempPassword);
    await page.getByLabel(AuthLabels.newPassword).fill(password);
    await page.getByLabel(AuthLabels.confirmPassword).fill(password);
    await page.getByRole('button', { name: Labels.setPassword }).click();
    await page.waitForURL(`${portal.url}/`);

    await page.getByRole('button', { name: AuthLabels.accountMenu }).click();
    await page.getByRole('menuitem', { name: Labels.profile }).click();
    await page.waitForURL(`${portal.url}/profile`);
    await page.getByTestId('profile-email').getByText(provider.email).waitFor();
    expect(await page.getByTestId('profile-role').textContent()).toBe('provider');

    await page.getByRole('button', { name: Labels.setUpMfa }).click();
    await expectToast(page, Toasts.scanQrCode);
    await page.getByRole('img', { name: AuthLabels.qrCodeAlt }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

    await page.getByLabel(AuthLabels.code).fill('12 34');
    await page.getByRole('button', { name: Labels.verify }).click();
    await page.getByText(Validation.mfaCode).waitFor();

    await page.getByLabel(AuthLabels.code).fill(await freshCode(secret));
    await page.getByRole('button', { name: Labels.verify }).click();
    await expectToast(page, Toasts.mfaEnabled);
    await page.getByRole('button', { name: Labels.disableMfa }).waitFor();
    const flag = await portal.db.query<{ mfa_enabled: boolean }>(`SELECT mfa_enabled FROM users WHERE id = $1`, [
      provider.id,
    ]);
    expect(flag.rows[0]!.mfa_enabled).toBe(true);
    await logout(page);

    // A wrong code is refused.
    const good = await generate({ secret });
    const wrong = good === '000000' ? '111111' : '000000';
    await startSignIn(page, provider.email, password);
    await page.getByLabel(AuthLabels.code).fill(wrong);
    await page.getByRole('button', { name: Labels.verify }).click();
    const refusal = page.getByRole('alert').first();
    await refusal.waitFor();
    expect((await refusal.textContent())?.trim()).toBeTruthy();
    expect(page.url()).toBe(`${portal.url}/login`);
    expect(await page.getByRole('heading', { name: Labels.dashboard }).count()).toBe(0);

    // The right code signs in.
    await signInAs(page, portal, provider.email, password, { code: () => freshCode(secret) });
    await page.getByRole('heading', { name: Labels.dashboard }).waitFor();

    await page.getByRole('button', { name: AuthLabels.accountMenu }).click();
    await page.getByRole('menuitem', { name: Labels.profile }).click();
    await page.getByRole('button', { name: Labels.disableMfa }).click();
    await expectToast(page, Toasts.mfaDisabled);
    await page.getByRole('button', { name: Labels.setUpMfa }).waitFor();
    const off = await portal.db.query<{ mfa_enabled: boolean }>(`SELECT mfa_enabled FROM users WHERE id = $1`, [
      provider.id,
    ]);
    expect(off.rows[0]!.mfa_enabled).toBe(false);
    await logout(page);

    // Without MFA, the password alone signs in again.
    await signInAs(page, portal, provider.email, password);
    expect(errors).toEqual([]);
  });
});

/** The body of the newest reset-code message the local user pool put in its outbox for `email`. */
async function latestResetMessage(email: string): Promise<string> {
  // The page answers before the message is written, so wait for it a little.
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await portal.db.query<{ body: string }>(
      `SELECT body FROM identity.outbox
        WHERE lower(recipient) = lower($1) AND kind = 'reset-code'
        ORDER BY id DESC LIMIT 1`,
      [email],
    );
    if (rows[0] || Date.now() > deadline) {
      expect(rows).toHaveLength(1);
      return rows[0]!.body;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('forgot and reset password', () => {
  it('sends a reset code, accepts it on the reset page, and the new password signs in', async () => {
    const { page } = await newPage();
    // An unknown address is answered by the user pool with an error the page hides on purpose.
    const errors = collectConsoleErrors(page, [/status of 400/]);
    const provider = await createProvider('reset');
    const first = 'Reset-Passw0rd!';
    await startSignIn(page, provider.email, provider.tempPassword);
    await page.getByLabel(AuthLabels.newPassword).fill(first);
    await page.getByLabel(AuthLabels.confirmPassword).fill(first);
    await page.getByRole('button', { name: Labels.setPassword }).click();
    await page.waitForURL(`${portal.url}/`);
    await logout(page);

    await page.goto(`${portal.url}/forgot-password`);
    const send = page.getByRole('button', { name: AuthLabels.sendResetLink });
    await page.getByLabel(AuthLabels.email).fill(`nobody-${Date.now()}@example.com`);
    await send.click();
    await expectToast(page, Toasts.forgotPasswordSent);
    expect(await send.isDisabled()).toBe(true);

    await page.getByLabel(AuthLabels.email).fill(provider.email);
    await page.waitForFunction(
      (name) => !Array.from(document.querySelectorAll('button')).find((b) => b.textContent === name)?.disabled,
      AuthLabels.sendResetLink,
      { timeout: 10_000 },
    );
    await send.click();
    await expectToast(page, Toasts.forgotPasswordSent);

    const body = await latestResetMessage(provider.email);
    // The message carries a link to the reset page with the code and the email in its query.
    const link = /(https?:\/\/\S+\/reset-password\?\S+)/.exec(body)?.[1];
    expect(link).toBeTruthy();
    const linkUrl = new URL(link!);
    expect(linkUrl.origin).toBe(portal.url);
    const code = linkUrl.searchParams.get('code');
    expect(code).toBeTruthy();

    // Without a code in the address the page asks for the typed one.
    await page.goto(`${portal.url}/reset-password`);
    expect(await page.getByLabel(AuthLabels.code).inputValue()).toBe('');

    const second = 'Second-Passw0rd!';
    await page.goto(link!);
    expect(await page.getByLabel(AuthLabels.email).inputValue()).toBe(provider.email);
    await page.getByLabel(AuthLabels.newPassword).fill(second);
    await page.getByLabel(AuthLabels.confirmPassword).fill(second);
    await page.getByRole('button', { name: AuthLabels.resetPasswordSubmit }).click();
    await expectToast(page, Toasts.passwordUpdated);
    await page.waitForURL(`${portal.url}/login`);

    await signInAs(page, portal, provider.email, second);
    expect(errors).toEqual([]);
  });
});

describe('session rules', () => {
  it('ends the session after IDLE_TIMEOUT_MS without activity in any tab, in every tab', async () => {
    const { context, page } = await newPage();
    await context.clock.install();
    const errors = collectConsoleErrors(page);
    await signInAs(page, portal, portal.adminEmail, portal.adminPassword);
    const second = await context.newPage();
    const errors2 = collectConsoleErrors(second);
    await second.goto(`${portal.url}/patients`);
    await second.getByRole('navigation', { name: AuthLabels.mainNavigation }).waitFor();

    // Activity in the second tab keeps the first one signed in past its own 15 minutes.
    await context.clock.fastForward(IDLE_TIMEOUT_MS - 5 * 60_000);
    await second.mouse.move(40, 300);
    await second.mouse.move(80, 320);
    await page.waitForTimeout(300);
    await context.clock.fastForward(IDLE_TIMEOUT_MS - 5 * 60_000);
    await page.waitForTimeout(300);
    expect(await page.getByRole('dialog', { name: SessionTexts.endedTitle }).count()).toBe(0);
    expect(await second.getByRole('dialog', { name: SessionTexts.endedTitle }).count()).toBe(0);

    await context.clock.fastForward(IDLE_TIMEOUT_MS + 5_000);
    for (const p of [page, second]) {
      const dialog = p.getByRole('dialog', { name: SessionTexts.endedTitle });
      await dialog.waitFor();
      expect(await dialog.getByText(SessionTexts.endedBody).isVisible()).toBe(true);
    }

    // The flag survives a reload until Leave consumes it.
    await page.reload();
    await page.getByRole('dialog', { name: SessionTexts.endedTitle }).waitFor();
    await page.getByRole('button', { name: SessionTexts.leave }).click();
    await page.waitForURL(`${portal.url}/login`);
    await page.getByRole('button', { name: Labels.next }).waitFor();
    expect(await page.getByRole('dialog', { name: SessionTexts.endedTitle }).count()).toBe(0);

    expect(await liveBrowserSessions(portal.adminEmail)).toBe(0);
    expect([...errors, ...errors2]).toEqual([]);
  });

  it('treats a 401 from the API as the end of the session', async () => {
    const { page } = await newPage();
    // The 401 is the point of this test.
    const errors = collectConsoleErrors(page, [/status of 401/]);
    await signInAs(page, portal, portal.adminEmail, portal.adminPassword);
    await endSessions(portal.db, { email: portal.adminEmail });
    // The next API call answers 401. Often the live alert stream gets there first (the server ends
    // the stream of an ended session; its reconnection and the alert summary answer 401);
    // otherwise opening the profile asks the API for the current user.
    const dialog = page.getByRole('dialog', { name: SessionTexts.endedTitle });
    const openProfile = page
      .getByRole('button', { name: AuthLabels.accountMenu })
      .click({ timeout: 5_000 })
      .then(() => page.getByRole('menuitem', { name: Labels.profile }).click({ timeout: 5_000 }))
      .catch(() => {
        /* the dialog came first and covers the page */
      });
    await dialog.waitFor();
    await openProfile;
    expect(await dialog.getByText(SessionTexts.endedBody).isVisible()).toBe(true);
    await page.getByRole('button', { name: SessionTexts.leave }).click();
    await page.waitForURL(`${portal.url}/login`);
    expect(errors).toEqual([]);
  });

  it('ends the session with a beacon when the last tab closes, but not on a reload or when another tab stays', async () => {
    const { page } = await newPage();
    const errors = collectConsoleErrors(page);
    await signInAs(page, portal, portal.adminEmail, portal.adminPassword);
    // A reload keeps the user signed in (the tab re-opens a session with its own tokens).
    await page.goto(`${portal.url}/profile`);
    await page.getByTestId('profile-email').waitFor();
    expect(errors).toEqual([]);

    expect(await settledBrowserSessions(portal.adminEmail, 1)).toBe(1);

    // Closing one of two tabs leaves the session the other tab still uses.
    const second = await page.context().newPage();
    await second.goto(`${portal.url}/profile`);
    await second.getByTestId('profile-email').waitFor();
    await second.close({ runBeforeUnload: true });
    await new Promise((r) => setTimeout(r, 1000));
    expect(await liveBrowserSessions(portal.adminEmail)).toBe(1);
    await page.getByRole('button', { name: AuthLabels.accountMenu }).click();
    await page.getByRole('menuitem', { name: Labels.profile }).click();
    await page.getByTestId('profile-email').waitFor();
    expect(await page.getByRole('dialog', { name: SessionTexts.endedTitle }).count()).toBe(0);

    await page.close({ runBeforeUnload: true });
    expect(await settledBrowserSessions(portal.adminEmail, 0)).toBe(0);
  });
});
