// Over 300 lines on purpose: every sign-in path of the specification in one browser session with the Auth Emulator.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDuet } from '../helpers/duet.ts';
import {
  createProviderAccount,
  EMULATOR_HOST,
  lookupProviderAccount,
  oobCodes,
  providerSignIn,
  uniqueEmail,
  updateProviderAccount,
} from './auth-emulator.ts';
import { launchBrowser, newPage, PHONE, startAppDuet } from './browser.ts';
import { GAPI_SCRIPT_URL, serveGapiStub } from './gapi-stub.ts';

const PASSWORD = 'duet-secret-1';
const WRITING_URL = 'https://write.example.org/';

/** The specification's product messages (section 8), in the product's own Korean. */
const KO = {
  signedUp: '가입되었습니다. 메일 인증을 진행해주세요!',
  alreadyRegistered: '이미 가입된 이메일입니다.',
  notRegistered: '가입되지 않은 계정입니다. 회원가입을 해주세요',
  invalidToken: '유효하지 않은 토큰입니다.',
  wrongPassword: '비밀번호가 올바르지 않습니다.',
  popupClosed: '로그인을 마치기 전에 로그인 창이 닫혔습니다.',
  signupGiftWriting: 'AI 글쓰기 도우미 1개월 무료 구독',
  signupGiftDrawing: 'AI 그림 도우미 토큰 130개',
};

/** Accounts, end to end: the built client, the gateway, and the Firebase Auth Emulator. */
describe('Accounts in the browser', () => {
  let duet: TestDuet;
  let browser: Browser;

  beforeAll(async () => {
    // Only the writing service's address is configured: the account menu links it, not the other.
    duet = await startAppDuet({
      FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST,
      RATE_LIMIT_ACCOUNTS_PER_MINUTE: '0',
      SISTER_WRITING_URL: WRITING_URL,
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await duet?.close();
  });

  const open = (opts: { locale?: string; viewport?: { width: number; height: number } } = {}) =>
    newPage(browser, { baseURL: duet.url, locale: 'ko-KR', ...opts });

  /** Signs an account up through Duet's API, as the browser would after the provider's sign-up. */
  async function registerWithDuet(email: string, changes: { photoUrl?: string; displayName?: string } = {}) {
    const account = await createProviderAccount(email, PASSWORD);
    await updateProviderAccount(account, changes);
    const { idToken } = await providerSignIn(email, PASSWORD);
    const res = await fetch(`${duet.url}/api/v2/user/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ provider: 'firebase', token: idToken, event: 'duet-launch' }),
    });
    expect(res.status).toBe(200);
    return account;
  }

  async function openDialog(page: Page, mode: 'login' | 'signup') {
    await page.locator(`.header__actions [data-action="${mode}"]`).click();
    const dialog = page.getByTestId('auth-dialog');
    await expect.poll(() => dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    await expect.poll(() => dialog.locator('[data-mode]').getAttribute('data-mode')).toBe(mode);
    return dialog;
  }

  async function fill(page: Page, fields: { name?: string; email: string; password: string }) {
    if (fields.name !== undefined) await page.getByTestId('auth-name').fill(fields.name);
    await page.getByTestId('auth-email').fill(fields.email);
    await page.getByTestId('auth-password').fill(fields.password);
  }

  /** Logs in through the dialog and waits for the page to reload signed in. */
  async function logIn(page: Page, email: string) {
    await openDialog(page, 'login');
    await fill(page, { email, password: PASSWORD });
    const reloaded = page.waitForEvent('load');
    await page.getByTestId('auth-submit').click();
    await reloaded;
    await expect.poll(() => page.getByTestId('account-menu-button').count()).toBe(1);
  }

  const toastTexts = (page: Page, kind: 'success' | 'error') => page.locator(`.toast--${kind} > span`).allTextContents();
  const storage = (page: Page) =>
    page.evaluate(() => ({
      local: Object.fromEntries(Object.entries(localStorage)),
      firebaseSession: Object.keys(sessionStorage).some((k) => k.startsWith('firebase:authUser:')),
    }));

  it('signs up with e-mail and password, asks to verify by mail, and the e-mail link verifies it', async () => {
    const { context, page } = await open();
    const email = uniqueEmail('signup');
    await page.goto('/');
    const dialog = await openDialog(page, 'signup');
    await fill(page, { name: '김듀엣', email, password: PASSWORD });
    await page.getByTestId('auth-submit').click();

    await expect.poll(() => toastTexts(page, 'success'), { timeout: 20_000 }).toContain(KO.signedUp);
    expect(await dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);
    // Signed up, not logged in: no Duet token, and signed out of Firebase again.
    const after = await storage(page);
    expect(after.local.duet_access_token).toBeUndefined();
    expect(after.firebaseSession).toBe(false);
    expect(await page.locator('.header__actions [data-action="login"]').isVisible()).toBe(true);

    // The emulator "sent" the verification e-mail; following its link verifies the address.
    const mail = (await oobCodes()).find((c) => c.email === email && c.requestType === 'VERIFY_EMAIL');
    expect(mail).toBeDefined();
    await page.goto(mail!.oobLink);
    expect(await page.locator('body').textContent()).toContain('successfully verified');
    const account = await providerSignIn(email, PASSWORD);
    expect(await lookupProviderAccount(account.idToken)).toMatchObject({ emailVerified: true, displayName: '김듀엣' });
    await context.close();
  });

  it('logs in: the page reloads and the header shows the profile picture and the signup gifts', async () => {
    const { context, page } = await open();
    const email = uniqueEmail('login');
    const picture = `${duet.url}/cards/docent.svg`;
    await registerWithDuet(email, { photoUrl: picture, displayName: 'Duet Tester' });
    await page.goto('/main');
    const profileCalls: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/api/v2/user/profile')) profileCalls.push(r.status());
    });
    await logIn(page, email);

    const avatar = page.getByTestId('header-avatar');
    await expect.poll(() => avatar.getAttribute('src')).toBe(picture);
    expect(await avatar.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(profileCalls).toContain(200);
    const { local } = await storage(page);
    expect(local.duet_access_token).toBeTruthy();
    expect(local.provider).toBe('firebase');
    expect(JSON.parse(local.duet_oauth_profile!)).toMatchObject({ isLogin: true, email, provider: 'firebase', userImage: picture });
    expect(await page.locator('.header__actions [data-action="login"]').count()).toBe(0);

    // The avatar opens the account panel with the gifts of a Duet signup.
    const menu = page.getByTestId('account-menu');
    expect(await menu.isVisible()).toBe(false);
    await page.getByTestId('account-menu-button').click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    expect(await page.getByTestId('account-menu-button').getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByTestId('benefit-writing').textContent()).toBe(KO.signupGiftWriting);
    expect(await page.getByTestId('benefit-drawing').textContent()).toBe(KO.signupGiftDrawing);
    expect(await page.getByTestId('account-gift-link-writing').getAttribute('href')).toBe(WRITING_URL);
    expect(await page.getByTestId('account-gift-link-drawing').count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.isVisible()).toBe(false);
    await context.close();
  });

  it('logs out: the account is forgotten, the language chosen signed in is kept, Login is offered again', async () => {
    const { context, page } = await open();
    const email = uniqueEmail('logout');
    await registerWithDuet(email);
    await page.goto('/main');
    await logIn(page, email);
    expect((await storage(page)).firebaseSession).toBe(true);
    // Signed in, the language switch is still in the header.
    await page.locator('.header__user').getByRole('button', { name: 'English' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');

    await page.locator('[data-action="logout"]').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await expect.poll(() => page.locator('.header__actions [data-action="login"]').isVisible()).toBe(true);
    const after = await storage(page);
    expect(after.local).toEqual({ duet_language: 'en' });
    expect(after.firebaseSession).toBe(false);
    // Still logged out after a reload, still in English.
    await page.reload();
    await expect.poll(() => page.locator('.header__actions [data-action="login"]').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await context.close();
  });

  it('drops a broken stored token and says it is invalid', async () => {
    const { context, page } = await open();
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('duet_access_token', 'not-a-real-token'));
    const profile = page.waitForResponse((r) => r.url().endsWith('/api/v2/user/profile'));
    await page.reload();
    expect((await profile).status()).toBe(412);
    await expect.poll(() => toastTexts(page, 'error')).toContain(KO.invalidToken);
    expect(await page.evaluate(() => localStorage.getItem('duet_access_token'))).toBeNull();
    await expect.poll(() => page.locator('.header__actions [data-action="login"]').isVisible()).toBe(true);
    await context.close();
  });

  it('checks the e-mail and the 6-character password minimum before asking the provider', async () => {
    const { context, page } = await open({ locale: 'en-US' });
    const providerCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('identitytoolkit')) providerCalls.push(r.url());
    });
    await page.goto('/');
    await openDialog(page, 'signup');
    await fill(page, { name: 'Shorty', email: 'not-an-email', password: '12345' });
    await page.getByTestId('auth-submit').click();
    await expect.poll(() => page.getByTestId('auth-email-error').textContent()).toBe("That doesn't look like a valid e-mail address.");
    expect(await page.getByTestId('auth-password-error').textContent()).toBe('Use a password of at least 6 characters.');
    expect(await page.getByTestId('auth-email').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('auth-email-error').getAttribute('role')).toBe('alert');
    // The first field in error has the focus, and the provider was never asked.
    expect(await page.getByTestId('auth-email').evaluate((el) => el === document.activeElement)).toBe(true);
    expect(providerCalls).toEqual([]);
    await context.close();
  });

  it('says the password is wrong', async () => {
    const { context, page } = await open();
    const email = uniqueEmail('wrong');
    await registerWithDuet(email);
    await page.goto('/');
    await openDialog(page, 'login');
    await fill(page, { email, password: 'not-the-password' });
    await page.getByTestId('auth-submit').click();
    await expect.poll(() => page.getByTestId('auth-error').textContent(), { timeout: 20_000 }).toBe(KO.wrongPassword);
    expect(await page.getByTestId('auth-error').getAttribute('role')).toBe('alert');
    // The dialog stays open and usable for another try.
    expect(await page.getByTestId('auth-password').getAttribute('readonly')).toBeNull();
    expect((await storage(page)).local.duet_access_token).toBeUndefined();
    await context.close();
  });

  it('refuses to log in an account that never signed up through Duet', async () => {
    const { context, page } = await open();
    const email = uniqueEmail('stranger');
    await createProviderAccount(email, PASSWORD);
    await page.goto('/');
    await openDialog(page, 'login');
    await fill(page, { email, password: PASSWORD });
    await page.getByTestId('auth-submit').click();
    await expect.poll(() => toastTexts(page, 'error'), { timeout: 20_000 }).toContain(KO.notRegistered);
    const after = await storage(page);
    expect(after.local.duet_access_token).toBeUndefined();
    expect(after.firebaseSession).toBe(false);
    await context.close();
  });

  it('signs up an existing provider account (a sister service’s) once, then says it is already registered', async () => {
    const { context, page } = await open();
    const email = uniqueEmail('sister');
    await createProviderAccount(email, PASSWORD);
    await page.goto('/');
    await openDialog(page, 'signup');
    await fill(page, { name: 'Sister', email, password: PASSWORD });
    await page.getByTestId('auth-submit').click();
    await expect.poll(() => toastTexts(page, 'success'), { timeout: 20_000 }).toContain(KO.signedUp);

    await openDialog(page, 'signup');
    await fill(page, { name: 'Sister', email, password: PASSWORD });
    await page.getByTestId('auth-submit').click();
    await expect.poll(() => toastTexts(page, 'error'), { timeout: 20_000 }).toContain(KO.alreadyRegistered);
    await context.close();
  });

  it('says sign-in is not ready when the identity provider cannot be set up', async () => {
    const { context, page } = await open({ locale: 'en-US' });
    await context.route('**/api/auth/config', (route) => route.abort('connectionrefused'));
    await page.goto('/');
    await openDialog(page, 'login');
    await fill(page, { email: uniqueEmail('early'), password: PASSWORD });
    await page.getByTestId('auth-submit').click();
    await expect.poll(() => page.getByTestId('auth-error').textContent()).toBe("Sign-in isn't ready yet. Please try again in a moment.");
    await context.close();
  });

  it('opens the dialog from the phone drawer, in the mode of the button pressed', async () => {
    const { context, page } = await open({ viewport: PHONE, locale: 'en-US' });
    await page.goto('/');
    await page.getByTestId('header-menu-button').click();
    await page.getByTestId('header-drawer').locator('[data-action="signup"]').click();
    const dialog = page.getByTestId('auth-dialog');
    await expect.poll(() => dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    expect(await page.getByTestId('header-drawer').evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);
    expect(await dialog.getByRole('heading').textContent()).toBe('Create your Duet account');
    // The name field takes the focus; the switch link turns the dialog into Login.
    expect(await page.getByTestId('auth-name').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByTestId('auth-switch').click();
    expect(await dialog.getByRole('heading').textContent()).toBe('Log in to Duet');
    expect(await page.getByTestId('auth-name').count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);
    await context.close();
  });

  describe('with Google', () => {
    const OPENER_KEPT =
      'the Google popup must keep its opener to report back: serve pages with Cross-Origin-Opener-Policy: same-origin-allow-popups';

    /** Records `window.open` calls, to read the popup's requested size and position. */
    async function recordWindowOpen(context: BrowserContext) {
      await context.addInitScript(() => {
        const calls: string[][] = [];
        const original = window.open.bind(window);
        Object.assign(window, { __windowOpenCalls: calls });
        window.open = (url?: string | URL, target?: string, features?: string) => {
          calls.push([String(url ?? ''), target ?? '', features ?? '']);
          return original(url, target, features);
        };
      });
    }

    async function startGoogle(page: Page) {
      const popup = page.waitForEvent('popup');
      await page.getByTestId('auth-google').click();
      const win = await popup;
      await win.waitForLoadState();
      return win;
    }

    it('reports a failure to load Google’s sign-in script and stays usable', async () => {
      const { context, page } = await open({ locale: 'en-US' });
      // What happens on a machine without internet access: api.js never arrives.
      await context.route(GAPI_SCRIPT_URL, (route) => route.abort('namenotresolved'));
      await page.goto('/');
      await openDialog(page, 'login');
      await page.getByTestId('auth-google').click();
      await expect.poll(() => page.getByTestId('auth-error').textContent(), { timeout: 20_000 }).toBe(
        'The sign-in service ran into a problem. Please try again.',
      );
      expect(await page.getByTestId('auth-google').getAttribute('aria-disabled')).toBe('false');
      expect(await page.getByTestId('auth-email').getAttribute('readonly')).toBeNull();
      await context.close();
    });

    it('opens a centred 500×600 popup with the emulator’s account picker, and says so when it is closed', async () => {
      const { context, page } = await open();
      await serveGapiStub(context);
      await recordWindowOpen(context);
      await page.goto('/');
      await openDialog(page, 'login');
      const popup = await startGoogle(page);

      expect(new URL(popup.url()).pathname).toBe('/emulator/auth/handler');
      expect(await popup.evaluate(() => window.opener !== null), OPENER_KEPT).toBe(true);
      expect(await popup.evaluate(() => [window.outerWidth, window.outerHeight])).toEqual([500, 600]);
      const [screenW, screenH, calls] = await page.evaluate(() => [
        screen.availWidth,
        screen.availHeight,
        (window as unknown as { __windowOpenCalls: string[][] }).__windowOpenCalls,
      ]);
      const features = Object.fromEntries((calls as string[][])[0]![2]!.split(',').filter(Boolean).map((f) => f.split('=')));
      expect(features).toMatchObject({
        width: '500',
        height: '600',
        left: String(Math.max(((screenW as number) - 500) / 2, 0)),
        top: String(Math.max(((screenH as number) - 600) / 2, 0)),
      });
      await expect.poll(() => popup.locator('#add-account-button').textContent()).toContain('Add new account');
      expect(await page.getByTestId('auth-google').getAttribute('aria-busy')).toBe('true');

      await popup.close();
      // The provider reports a closed popup 8 s after it notices.
      await expect.poll(() => page.getByTestId('auth-error').textContent(), { timeout: 20_000 }).toBe(KO.popupClosed);
      expect(await page.getByTestId('auth-google').getAttribute('aria-busy')).toBe('false');
      await context.close();
    });

    it('signs up and then logs in with a Google account from the emulator’s account picker', async () => {
      const { context, page } = await open();
      await serveGapiStub(context);
      await page.goto('/');

      await openDialog(page, 'signup');
      let popup = await startGoogle(page);
      expect(await popup.evaluate(() => window.opener !== null), OPENER_KEPT).toBe(true);
      await popup.locator('#add-account-button').click();
      await popup.locator('#autogen-button').click();
      const email = await popup.locator('#email-input').inputValue();
      const closed = popup.waitForEvent('close');
      await popup.locator('#sign-in').click();
      await closed;
      await expect.poll(() => toastTexts(page, 'success'), { timeout: 20_000 }).toContain(KO.signedUp);
      expect((await storage(page)).firebaseSession).toBe(false);

      // The account picker now lists that account; picking it logs in.
      await openDialog(page, 'login');
      popup = await startGoogle(page);
      const reloaded = page.waitForEvent('load');
      await popup.locator('.js-reuse-account', { hasText: email }).click();
      await reloaded;
      await expect.poll(() => page.getByTestId('account-menu-button').count()).toBe(1);
      const { local } = await storage(page);
      expect(JSON.parse(local.duet_oauth_profile!)).toMatchObject({ email, provider: 'firebase' });
      await page.getByTestId('account-menu-button').click();
      await expect.poll(() => page.getByTestId('benefit-drawing').textContent()).toBe(KO.signupGiftDrawing);
      await context.close();
    });
  });
});
