/**
 * The sign-in outline (login.html, drawn before the app's code arrives) copies the theme's
 * measures by hand. This checks the copy against the real page: each part of the outline must
 * sit where the form that replaces it sits, at phone and desktop size, or the swap would move the
 * page under the visitor's finger (a layout shift).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startPortal, type Portal } from './harness.ts';

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

/** Outline part → the element of the live page it stands for. */
const PARTS: Record<string, string> = {
  '.s-bar': 'header',
  '.s-link': 'header a[href="/login"]',
  '.s-card': 'main .MuiPaper-outlined',
  '.s-title': 'main h1',
  '.s-field': 'main .MuiOutlinedInput-root',
  '.s-button': 'main button[type="submit"]',
};

type Box = { x: number; y: number; width: number; height: number };

async function boxesOf(page: import('playwright-core').Page, selectors: string[]): Promise<Box[]> {
  return page.evaluate(
    (list) =>
      list.map((s) => {
        const el = document.querySelector(s);
        if (!el) throw new Error(`${s}: not on the page`);
        const r = el.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      }),
    selectors,
  );
}

describe('sign-in outline', () => {
  it.each([
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ])('lines up with the live sign-in form at %o', async (viewport) => {
    const context = await browser.newContext({ viewport });
    try {
      const page = await context.newPage();
      // The outline alone: the app's code never arrives.
      await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
      await page.goto(`${portal.url}/login`);
      const outline = await boxesOf(page, Object.keys(PARTS));
      await page.unroute(/\/assets\/.*\.js$/);

      await page.goto(`${portal.url}/login`);
      await page.locator('main button[type="submit"]').waitFor();
      expect(await page.locator('#sign-in-shell').count()).toBe(0);
      const live = await boxesOf(page, Object.values(PARTS));

      Object.keys(PARTS).forEach((part, i) => {
        const [a, b] = [outline[i]!, live[i]!];
        for (const k of ['x', 'y', 'width', 'height'] as const) {
          expect(Math.abs(a[k] - b[k]), `${part} ${k}: outline ${a[k]}, live ${b[k]}`).toBeLessThanOrEqual(1.5);
        }
      });
    } finally {
      await context.close();
    }
  });
});
