/**
 * Takes a screenshot of every screen at desktop and phone width into docs/screenshots/, from a
 * whole Duet (built client, gateway, worker, demo models) driven by headless Chromium.
 *
 *   npm run build && npm run screenshots
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { createProviderAccount, providerSignIn, uniqueEmail, updateProviderAccount } from '../test/e2e/auth-emulator.ts';
import { DESKTOP, launchBrowser, newPage, PHONE, startAppDuet } from '../test/e2e/browser.ts';
// @ts-expect-error: a plain ES module shared with `npm start`, without type declarations.
import { startAuthEmulator } from './auth-emulator.mjs';

const OUT = fileURLToPath(new URL('../docs/screenshots', import.meta.url));
mkdirSync(OUT, { recursive: true });

const emulator = (await startAuthEmulator()) as { host: string; stop: () => Promise<void> };
const duet = await startAppDuet({ DEMO_SPEED: '8', FIREBASE_AUTH_EMULATOR_HOST: emulator.host });

/** An account signed up through Duet, with a profile picture, to show the signed-in header. */
async function registeredAccount(): Promise<string> {
  const email = uniqueEmail('shots');
  const account = await createProviderAccount(email, 'secret-123');
  await updateProviderAccount(account, { displayName: 'Duet Visitor', photoUrl: `${duet.url}/favicon.svg` });
  const { idToken } = await providerSignIn(email, 'secret-123');
  await fetch(`${duet.url}/api/v2/user/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ provider: 'firebase', token: idToken, event: 'duet-launch' }),
  });
  return email;
}
const browser = await launchBrowser();

const shoot = async (page: Page, name: string) => {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${OUT}/${name}.png`, fullPage: true });
  console.log(`docs/screenshots/${name}.png`);
};

const untilDone = async (page: Page) => {
  for (const side of ['a', 'b']) {
    await page.waitForFunction((s) => document.querySelector(`[data-testid="answer-${s}"]`)?.getAttribute('data-state') === 'done', side, {
      timeout: 60_000,
    });
  }
};

for (const [width, viewport, locale] of [
  ['desktop', DESKTOP, 'en-US'],
  ['phone', PHONE, 'ko-KR'],
] as const) {
  const { context, page } = await newPage(browser, { baseURL: duet.url, viewport, locale });
  await page.goto('/');
  await page.waitForSelector('[data-testid="tool-card"] img');
  await shoot(page, `home-${width}`);
  if (width === 'phone') {
    await page.getByTestId('header-menu-button').click();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${OUT}/menu-drawer-${width}.png` });
  }
  // On a phone the benefit button lives in the drawer, which is open now.
  await page.locator('[data-action="signup-benefit"]:visible').first().click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${OUT}/signup-benefit-${width}.png` });
  await page.keyboard.press('Escape');
  await page.locator('[data-slug="makeLyrics"]').getByTestId('tool-card-share').click();
  await page.locator('[data-slug="makeLyrics"]').getByTestId('share-copy').click();
  await page.locator('[data-slug="makeLyrics"]').getByTestId('share-panel').scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, 60));
  await page.screenshot({ path: `${OUT}/share-${width}.png` });

  await page.goto('/main');
  await shoot(page, `intro-${width}`);

  await page.goto('/makeLyrics-duet');
  await shoot(page, `tool-form-${width}`);
  await page.getByTestId('keyword-1').fill(width === 'phone' ? '비' : 'rain');
  // An over-long keyword: the form refuses to send and says why.
  await page.getByTestId('keyword-2').fill('abcdefghijkl');
  await shoot(page, `tool-invalid-${width}`);
  await page.getByTestId('keyword-2').fill(width === 'phone' ? '창문' : 'window');
  await page.locator('input[type="text"]').first().fill(width === 'phone' ? '봄비' : 'Spring rain');
  await page.getByTestId('submit').click();
  await page.waitForFunction(() => (document.querySelector('[data-testid="answer-b"]')?.textContent ?? '').length > 200, null, { timeout: 30_000 });
  await page.getByTestId('battle').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${OUT}/tool-streaming-${width}.png` });
  await untilDone(page);
  await page.getByTestId('vote-a').click();
  await page.getByTestId('reveal-a').waitFor();
  await shoot(page, `tool-voted-${width}`);

  await page.goto('/math-solve-duet1');
  await shoot(page, `tool-image-${width}`);

  await page.goto('/game-ending-word-duet');
  await shoot(page, `word-chain-${width}`);

  await page.goto('/history/makeLyrics-duet');
  await page.getByTestId('history-entry').first().waitFor();
  await page.getByTestId('history-toggle-a').first().click();
  await shoot(page, `history-${width}`);

  await page.goto('/leaderboard?tool=makeLyrics');
  await page.getByTestId('leaderboard-row').first().waitFor({ timeout: 15_000 });
  await shoot(page, `leaderboard-${width}`);

  await page.goto('/this-page-does-not-exist');
  await shoot(page, `not-found-${width}`);

  // Sign-in: the dialog, then the signed-in header with its account menu.
  const email = await registeredAccount();
  await page.goto('/');
  if (width === 'phone') await page.getByTestId('header-menu-button').click();
  await page.locator('[data-action="login"]:visible').first().click();
  await page.getByTestId('auth-dialog').waitFor();
  await page.getByTestId('auth-email').fill(email);
  await page.getByTestId('auth-password').fill('secret-123');
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${OUT}/sign-in-${width}.png` });
  const reloaded = page.waitForEvent('load');
  await page.getByTestId('auth-submit').click();
  await reloaded;
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByTestId('account-menu-button').click();
  await page.getByTestId('account-menu').waitFor();
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${OUT}/signed-in-${width}.png` });
  // Deleting the account: the dialog, with the confirmation word typed.
  await page.getByTestId('account-delete').click();
  await page.getByTestId('delete-account-dialog').waitFor();
  await page.getByTestId('delete-account-word').fill(width === 'phone' ? '삭제' : '');
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${OUT}/delete-account-${width}.png` });
  await context.close();
}

// The other language at each width: the landing page, a form and the history.
for (const [width, viewport, locale, lang] of [
  ['desktop', DESKTOP, 'ko-KR', 'ko'],
  ['phone', PHONE, 'en-US', 'en'],
] as const) {
  const { context, page } = await newPage(browser, { baseURL: duet.url, viewport, locale });
  await page.goto('/');
  await page.waitForSelector('[data-testid="tool-card"] img');
  await shoot(page, `home-${width}-${lang}`);
  await page.goto('/game-ending-word-duet');
  await shoot(page, `word-chain-${width}-${lang}`);
  await page.goto('/history/makeLyrics-duet');
  await page.getByTestId('history-entry').first().waitFor();
  await shoot(page, `history-${width}-${lang}`);
  await context.close();
}

await browser.close();
await duet.close();
await emulator.stop();
process.exit(0);
