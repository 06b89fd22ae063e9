import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDuet } from '../helpers/duet.ts';
import { askAnything, DESKTOP, launchBrowser, newPage, PHONE, startAppDuet } from './browser.ts';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  nodes: number;
  target: string;
}

/** Runs axe-core's WCAG 2.1 A and AA rules on the page as it is now. */
async function violations(page: Page): Promise<Violation[]> {
  // Evaluated through the debugging protocol: the page's CSP (rightly) forbids injected scripts.
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, target: v.nodes[0]?.target.join(' ') ?? '' }));
  });
}

describe('accessibility (axe-core, WCAG 2.1 AA)', () => {
  let duet: TestDuet;
  let browser: Browser;

  beforeAll(async () => {
    duet = await startAppDuet({ DEMO_SPEED: '30' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await duet?.close();
  });

  for (const [name, viewport, locale] of [
    ['desktop, English', DESKTOP, 'en-US'],
    ['phone, Korean', PHONE, 'ko-KR'],
  ] as const) {
    it(`has no violations on any screen (${name})`, async () => {
      // Reduced motion: axe must see the page at rest, not a dialog halfway through fading in.
      const { context, page } = await newPage(browser, { baseURL: duet.url, viewport, locale, reducedMotion: 'reduce' });
      const found: Record<string, Violation[]> = {};
      const check = async (label: string) => {
        const v = await violations(page);
        if (v.length) found[label] = v;
      };
      for (const path of ['/', '/main', '/makeLyrics-duet', '/math-solve-duet1', '/netflix-recommend-duet', '/leaderboard', '/no-such-page']) {
        await page.goto(path);
        await page.locator('#main > *').first().waitFor();
        await check(path);
      }
      // A battle: the live panes, then the vote result with win rates.
      await askAnything(page, 'What makes a good question?');
      await page.getByTestId('vote-bar').waitFor({ timeout: 30_000 });
      await check('battle finished');
      await page.getByTestId('vote-tie').click();
      await page.getByTestId('vote-result').waitFor();
      await check('vote result');
      await page.goto('/history/anything-question-duet');
      await page.getByTestId('history-entry').first().waitFor();
      await page.getByTestId('history-toggle-a').first().click();
      await check('history with an answer open');
      // The sign-in dialog (from the drawer on a phone).
      await page.goto('/');
      if (viewport === PHONE) await page.getByTestId('header-menu-button').click();
      await page.locator('[data-action="login"]:visible').first().click();
      await page.getByTestId('auth-dialog').waitFor();
      await check('sign-in dialog');
      await context.close();
      expect(found).toEqual({});
    });
  }
});
