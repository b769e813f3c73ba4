/**
 * End-to-end harness: the real portal (built web app, real server, embedded PostgreSQL in a data
 * directory of its own, the local user pool) on free ports, driven by the system Chromium.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CSRF_HEADER, CSRF_HEADER_VALUE, Labels } from '@rpm/contracts';
import pg from 'pg';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import { freePort } from '../packages/server/src/free-port.ts';
import { srpAccessToken } from '../packages/server/test/srp-client.ts';

/**
 * Set-up rows (patients, devices, readings, notes, time entries, insurances, audit records) are
 * made with the server tests' factories, on the portal's own database (`portal.db`): one way to
 * make test data for every tier. What a person does is still done through the browser.
 */
export {
  buildAuditRecords,
  buildDevice,
  buildInsurances,
  buildNote,
  buildOrganization,
  buildPatient,
  buildPatientPrograms,
  buildReading,
  buildReadings,
  buildTrackingEntry,
} from '../packages/server/test/support/factories.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN_EMAIL = 'admin@example.com';
// Meets the password policy; only ever used for throwaway test portals.
const ADMIN_PASSWORD = 'Admin-e2e-Pa55!';

/** The compiled server that `npm start` runs, and what it needs from the build. */
export const SERVER_ENTRY = 'packages/server/dist/server.js';
const BUILD_OUTPUTS = [SERVER_ENTRY, 'packages/contracts/dist/index.js', 'packages/web/dist/index.html'];

export interface Portal {
  url: string;
  adminEmail: string;
  adminPassword: string;
  dataDir: string;
  /** The portal's own database, for setting up data and reading the outbox. */
  db: pg.Pool;
  /** Everything the server printed, for asserting what the logs (never) contain. */
  output(): string;
  /** Stops the server gracefully (SIGTERM), or abruptly with SIGKILL. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same data directory and ports. */
  restart(): Promise<void>;
  /** Stops it and removes its data directory. */
  dispose(): Promise<void>;
}

export interface StartOptions {
  /** Extra environment; DATABASE_URL here runs the portal against that external PostgreSQL. */
  env?: Record<string, string>;
  dataDir?: string;
}

export async function startPortal(opts: StartOptions = {}): Promise<Portal> {
  if (!BUILD_OUTPUTS.every((f) => existsSync(path.join(REPO_ROOT, f)))) {
    throw new Error('The portal is not built: run `npm run build` first (`npm run test:e2e` does).');
  }
  const dataDir = opts.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'rpm-e2e-')));
  const port = opts.env?.PORT ? Number(opts.env.PORT) : await freePort();
  const pgPort = await freePort();
  const url = `http://localhost:${port}`;
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const env: Record<string, string | undefined> = {
    ...inherited,
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    PORTAL_ADMIN_EMAIL: ADMIN_EMAIL,
    PORTAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
    LOG_LEVEL: 'info',
    ...opts.env,
  };
  let log = '';
  let child: ChildProcess | undefined;

  const launch = async () => {
    // The built artifact, as shipped: plain node on the compiled server.
    child = spawn(process.execPath, [SERVER_ENTRY], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    await waitForHealth(url, child, () => log);
  };
  await launch();

  let databaseUrl = env.DATABASE_URL;
  if (!databaseUrl) {
    const credentials = JSON.parse(await readFile(path.join(dataDir, 'pg-credentials.json'), 'utf8')) as {
      password: string;
    };
    databaseUrl = `postgres://postgres:${encodeURIComponent(credentials.password)}@127.0.0.1:${pgPort}/rpm`;
  }
  const db = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  db.on('error', () => {});

  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    c.kill(signal);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
  };

  return {
    url,
    adminEmail: ADMIN_EMAIL,
    adminPassword: env.PORTAL_ADMIN_PASSWORD ?? ADMIN_PASSWORD,
    dataDir,
    db,
    output: () => log,
    stop,
    restart: launch,
    async dispose() {
      await db.end().catch(() => {});
      await stop();
      if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`portal exited with ${child.exitCode}:\n${log()}`);
    try {
      const res = await fetch(`${url}/api/health`);
      // Ready means the first admin is provisioned too, which happens after listen().
      if (res.ok && /portal ready/.test(log())) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`portal did not become ready:\n${log()}`);
}

export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    (p): p is string => !!p,
  );
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    throw new Error(
      'No Chromium found for the end-to-end tests. Install it (Debian: `apt-get install chromium`) ' +
        'or set CHROMIUM_PATH to a Chromium/Chrome executable.',
    );
  }
  return found;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Collects console errors and page errors so a test can assert there were none. */
export function collectConsoleErrors(page: Page, ignore: RegExp[] = []): string[] {
  const errors: string[] = [];
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() === 'error' && !ignore.some((r) => r.test(msg.text()))) errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

/**
 * Signs in through the real login page: email, Next, password, Login, and a TOTP code when the
 * account has MFA. The login page labels its inputs "Email", "Password" and "Code".
 */
export async function signInAs(
  page: Page,
  portal: Pick<Portal, 'url'>,
  email: string,
  password: string,
  opts: { code?: () => string | Promise<string> } = {},
): Promise<void> {
  await page.goto(`${portal.url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: Labels.next }).click();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: Labels.login }).click();
  if (opts.code) {
    await page.getByLabel('Code').fill(await opts.code());
    await page.getByRole('button', { name: Labels.verify }).click();
  }
  await page.waitForURL(`${portal.url}/`);
}

/** Calls the API with the page's session cookie, as the browser app would. */
export async function apiAs<T = unknown>(
  page: Page,
  portal: Pick<Portal, 'url'>,
  method: 'GET' | 'POST' | 'PUT',
  apiPath: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await page.request.fetch(`${portal.url}${apiPath}`, {
    method,
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json' },
    data: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status(), body: (text ? JSON.parse(text) : undefined) as T };
}

/** A session without a browser: SRP sign-in with Amplify, POST /api/token, and the cookie. */
export async function signInViaApi(
  portal: Pick<Portal, 'url'>,
  email: string,
  password: string,
  opts: { newPassword?: string } = {},
): Promise<string> {
  const appConfig = (await (await fetch(`${portal.url}/app-config.json`)).json()) as {
    userPoolId: string;
    clientId: string;
    userPoolEndpoint?: string;
  };
  // The endpoint is a path the browser resolves against the page's origin; so do we.
  const userPoolEndpoint = appConfig.userPoolEndpoint && new URL(appConfig.userPoolEndpoint, portal.url).toString();
  const token = await srpAccessToken({ ...appConfig, userPoolEndpoint }, email, password, opts);
  const res = await fetch(`${portal.url}/api/token`, {
    method: 'POST',
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  if (res.status !== 200) throw new Error(`POST /api/token answered ${res.status}: ${await res.text()}`);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

/** fetch with a session cookie and the CSRF header, JSON in and out. */
export async function callApi<T = unknown>(
  portal: Pick<Portal, 'url'>,
  cookie: string,
  method: string,
  apiPath: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${portal.url}${apiPath}`, {
    method,
    headers: {
      cookie,
      [CSRF_HEADER]: CSRF_HEADER_VALUE,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** The organization the first admin belongs to (every seeded test's clinic). */
export async function adminOrganizationId(portal: Portal): Promise<number> {
  const { rows } = await portal.db.query<{ organization_id: number }>(
    `SELECT organization_id FROM users WHERE lower(email) = lower($1)`,
    [portal.adminEmail],
  );
  return rows[0]!.organization_id;
}

/**
 * A provider created by an admin through the API, whose first sign-in (with the temporary password
 * the admin was given) has set `password`, as a new user would.
 */
export async function createProvider(
  portal: Portal,
  adminCookie: string,
  p: { emailPrefix: string; firstName: string; lastName: string; organizationId: number; password: string },
): Promise<{ email: string; password: string }> {
  const email = `${p.emailPrefix}-${Date.now()}@example.com`;
  const created = await callApi<{ temp_password?: string; temporary_password?: string }>(portal, adminCookie, 'POST', '/api/admin/users', {
    email,
    first_name: p.firstName,
    last_name: p.lastName,
    role: 'provider',
    organization_id: p.organizationId,
  });
  if (created.status >= 300) throw new Error(`creating ${email} answered ${created.status}: ${JSON.stringify(created.body)}`);
  await signInViaApi(portal, email, created.body.temp_password ?? created.body.temporary_password!, { newPassword: p.password });
  return { email, password: p.password };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Picks `option` in the select labelled `label`, as a person does: open it, click the option. */
export async function chooseOption(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * Serious and critical accessibility violations axe-core finds on the page once its finite CSS
 * transitions and animations have ended (a label caught half-way through its colour transition
 * has a contrast no user sees for more than 200 ms; spinners, which never end, are not waited for).
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(async () => {
    const finite = document
      .getAnimations()
      .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
      .map((a) => a.finished.catch(() => undefined));
    await Promise.race([Promise.all(finite), new Promise((r) => setTimeout(r, 2000))]);
  });
  // Evaluated through the browser's protocol: the portal's CSP rightly refuses injected scripts.
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run();
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}
