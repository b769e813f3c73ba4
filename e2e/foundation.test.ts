import { Labels } from '@rpm/contracts';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganization, collectConsoleErrors, launchBrowser, type Portal, startPortal } from './harness.ts';

let portal: Portal;
let browser: Browser;

beforeAll(async () => {
  portal = await startPortal();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await portal?.dispose();
});

describe('a fresh portal', () => {
  it('starts on an empty data directory and serves /app-config.json', async () => {
    const res = await fetch(`${portal.url}/app-config.json`);
    expect(res.status).toBe(200);
    const config = (await res.json()) as Record<string, string>;
    expect(config.userPoolId).toMatch(/^local_\w+$/);
    expect(config.clientId).toMatch(/^\w+$/);
    // A path, resolved by the page against whatever address it was opened at.
    expect(config.userPoolEndpoint).toBe('/cognito');
  });

  it('answers health, OpenAPI and unknown API paths as JSON without stack traces', async () => {
    expect(await (await fetch(`${portal.url}/api/health`)).json()).toEqual({ status: 'ok', database: 'ok' });
    const docs = (await (await fetch(`${portal.url}/api/docs/json`)).json()) as { openapi: string; paths: object };
    expect(docs.openapi).toMatch(/^3\./);
    expect(Object.keys(docs.paths)).toContain('/api/me');
    const missing = await fetch(`${portal.url}/api/nothing-here`);
    expect(missing.status).toBe(404);
    const body = await missing.text();
    expect(JSON.parse(body)).toMatchObject({ statusCode: 404, message: 'Not found' });
    expect(body).not.toMatch(/at .*\.ts:\d+/);
  });

  it('serves the web app with a strict CSP, and client routes survive a reload', async () => {
    const res = await fetch(`${portal.url}/patients/12/edit`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('renders the login page in the browser with no console errors', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = collectConsoleErrors(page);
    await page.goto(`${portal.url}/login`);
    await expect(page.getByRole('button', { name: Labels.next }).waitFor()).resolves.toBeUndefined();
    await expect(page.getByLabel('Email').isVisible()).resolves.toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('restarts', () => {
  it('keep the data after Ctrl-C (SIGINT) and after kill -9', async () => {
    await buildOrganization(portal.db, { name: 'Survives Restarts' });

    await portal.stop('SIGINT');
    await portal.restart();
    const afterClean = await portal.db.query(`SELECT 1 FROM organizations WHERE name = 'Survives Restarts'`);
    expect(afterClean.rowCount).toBe(1);

    await portal.stop('SIGKILL');
    await portal.restart();
    const afterKill = await portal.db.query(`SELECT 1 FROM organizations WHERE name = 'Survives Restarts'`);
    expect(afterKill.rowCount).toBe(1);
    expect((await fetch(`${portal.url}/api/health`)).status).toBe(200);
    // The first admin is provisioned once, not again on every start.
    const admins = await portal.db.query(`SELECT 1 FROM users WHERE role = 'admin'`);
    expect(admins.rowCount).toBe(1);
  });
});
