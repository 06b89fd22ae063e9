import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDuet } from '../helpers/duet.ts';
import { gpsJpeg, leftovers } from '../helpers/image-fixtures.ts';
import { EMULATOR_HOST, providerSignIn, uniqueEmail } from './auth-emulator.ts';
import { launchBrowser, newPage, startAppDuet } from './browser.ts';

const PASSWORD = 'duet-secret-1';
const MARKER = 'Our balcony at dusk';

/**
 * A visitor who takes their data back, end to end in the built client with the Auth Emulator:
 * sign up, log in, ask about a photo, vote, delete the account from the account menu.
 */
describe('deleting one’s account in the browser', () => {
  let duet: TestDuet;
  let browser: Browser;

  beforeAll(async () => {
    duet = await startAppDuet({ FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST, RATE_LIMIT_ACCOUNTS_PER_MINUTE: '0' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await duet?.close();
  });

  const toasts = (page: Page, kind: 'success' | 'error') => page.locator(`.toast--${kind} > span`).allTextContents();

  async function signUpAndLogIn(page: Page, email: string) {
    await page.locator('.header__actions [data-action="signup"]').click();
    await page.getByTestId('auth-name').fill('Dana');
    await page.getByTestId('auth-email').fill(email);
    await page.getByTestId('auth-password').fill(PASSWORD);
    await page.getByTestId('auth-submit').click();
    await expect.poll(() => toasts(page, 'success'), { timeout: 20_000 }).toContainEqual(expect.stringMatching(/signed up/i));
    await page.locator('.header__actions [data-action="login"]').click();
    await page.getByTestId('auth-email').fill(email);
    await page.getByTestId('auth-password').fill(PASSWORD);
    const reloaded = page.waitForEvent('load');
    await page.getByTestId('auth-submit').click();
    await reloaded;
    await expect.poll(() => page.getByTestId('account-menu-button').count()).toBe(1);
  }

  it('signs up, asks about a photo, votes, deletes the account, and leaves nothing of it public', async () => {
    const { context, page } = await newPage(browser, { baseURL: duet.url, locale: 'en-US' });
    const email = uniqueEmail('erase');
    await page.goto('/');
    await signUpAndLogIn(page, email);

    // A photo with its GPS position, asked about while signed in, then voted on.
    await page.goto('/title-academy-duet');
    await page.getByTestId('image-input').setInputFiles({ name: 'balcony.jpg', mimeType: 'image/jpeg', buffer: await gpsJpeg(800, 600) });
    await page.getByRole('textbox').first().fill(MARKER);
    await page.getByTestId('submit').click();
    await expect.poll(() => page.getByTestId('vote-bar').count(), { timeout: 40_000 }).toBe(1);
    await page.getByTestId('vote-a').click();
    await page.getByTestId('vote-result').waitFor();
    const { rows } = await duet.db.pool.query<{ id: string; user_id: string | null }>('SELECT id, user_id FROM battles WHERE text = $1', [MARKER]);
    expect(rows).toHaveLength(1);
    const battleId = rows[0]!.id;
    expect(rows[0]!.user_id).not.toBeNull();
    // What is shown of the photo carries none of its metadata.
    const image = await page.request.get(`/api/battles/${battleId}/image`);
    expect(await leftovers(Buffer.from(await image.body()))).toEqual([]);
    await page.goto('/history/title-academy-duet');
    await expect.poll(() => page.getByTestId('history-list').textContent(), { timeout: 20_000 }).toContain(MARKER);

    // The account menu: the dialog asks for the word before it deletes anything.
    await page.getByTestId('account-menu-button').click();
    await page.getByTestId('account-delete').click();
    const dialog = page.getByTestId('delete-account-dialog');
    await expect.poll(() => dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    const confirm = page.getByTestId('delete-account-confirm');
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByTestId('delete-account-word').fill('delet');
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByTestId('delete-account-word').fill('delete');
    expect(await confirm.isDisabled()).toBe(false);
    await confirm.click();

    // Signed out and home, told it is done.
    await expect.poll(() => toasts(page, 'success'), { timeout: 20_000 }).toContain('Your account and your data have been deleted.');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await expect.poll(() => page.locator('.header__actions [data-action="login"]').isVisible()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('duet_access_token'))).toBeNull();

    // The battle's history entry and its image are gone; no viewer can open it.
    await page.goto('/history/title-academy-duet');
    await page.locator('[data-testid="history-list"], [data-testid="history-empty"]').first().waitFor();
    expect(await page.locator('main').textContent()).not.toContain(MARKER);
    expect((await page.request.get(`/api/battles/${battleId}/image`)).status()).toBe(404);
    const stored = await duet.db.pool.query('SELECT text, moderation, user_id FROM battles WHERE id = $1', [battleId]);
    expect(stored.rows).toEqual([{ text: '', moderation: 'erased', user_id: null }]);

    // Signing in again fails: the account no longer exists anywhere.
    await page.locator('.header__actions [data-action="login"]').click();
    await page.getByTestId('auth-email').fill(email);
    await page.getByTestId('auth-password').fill(PASSWORD);
    await page.getByTestId('auth-submit').click();
    await expect
      .poll(() => page.getByTestId('auth-error').textContent(), { timeout: 20_000 })
      .toMatch(/No account uses this e-mail address|The e-mail address or password is incorrect/);
    await expect(providerSignIn(email, PASSWORD)).rejects.toThrow();
    await context.close();
  });
});
