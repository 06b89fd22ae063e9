import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDuet } from '../helpers/duet.ts';
import { DESKTOP, launchBrowser, newPage, PHONE, startAppDuet } from './browser.ts';

/** One sister service and part of the company details configured: the rest must not show. */
const SITE = {
  SISTER_DRAWING_URL: 'https://draw.example.org/start',
  SUPPORT_EMAIL: 'help@example.org',
  COMPANY_NAME: 'Example Duet Operator',
  COMPANY_BUSINESS_NUMBER: '123-45-67890',
};

/** Every kind of screen: landing, introduction, text and image tools, history, leaderboard, 404. */
const ROUTES = ['/', '/main', '/quiz-solving-duet', '/math-solve-duet1', '/game-ending-word-duet', '/history/quiz-solving-duet', '/leaderboard', '/no-such-page'];

interface Shift {
  value: number;
  sources: string[];
}

/**
 * Every layout shift of the page so far that no input caused, from a buffered `layout-shift`
 * PerformanceObserver, with the elements that moved. Their sum bounds the page's CLS from above.
 */
const layoutShifts = (page: Page): Promise<Shift[]> =>
  page.evaluate(
    () =>
      new Promise<Shift[]>((resolve) => {
        type LayoutShift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node | null }> };
        const shifts: Shift[] = [];
        const take = (entries: PerformanceEntry[]) => {
          for (const e of entries as LayoutShift[]) {
            if (e.hadRecentInput) continue;
            const sources = (e.sources ?? []).map((s) => {
              const el = s.node instanceof Element ? s.node : s.node?.parentElement;
              return el ? `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}` : '?';
            });
            shifts.push({ value: e.value, sources });
          }
        };
        const observer = new PerformanceObserver((list) => take(list.getEntries()));
        observer.observe({ type: 'layout-shift', buffered: true });
        // Buffered entries arrive in a task of their own: let it run, then collect what is left.
        setTimeout(() => {
          take(observer.takeRecords());
          observer.disconnect();
          resolve(shifts);
        }, 100);
      }),
  );

/** What a visitor notices: dead or placeholder links, words that do not fit, things that jump. */
describe('Duet as a visitor sees it', () => {
  let duet: TestDuet;
  let browser: Browser;

  beforeAll(async () => {
    duet = await startAppDuet(SITE);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await duet?.close();
  });

  const open = (opts: { locale?: string; viewport?: { width: number; height: number } } = {}) =>
    newPage(browser, { baseURL: duet.url, ...opts });

  it('links only the configured sister services, and no placeholder address anywhere', async () => {
    const { context, page } = await open();
    await page.goto('/');
    await page.locator('.header__actions [data-action="signup-benefit"]').click();
    const dialog = page.getByTestId('signup-benefit-dialog');
    await expect.poll(() => dialog.getByTestId('benefit-link-drawing').getAttribute('href')).toBe(SITE.SISTER_DRAWING_URL);
    expect(await dialog.getByTestId('benefit-link-writing').count()).toBe(0);
    // Both gifts are still described: only the link of the unconfigured one is missing.
    expect(await dialog.locator('.benefit-offer').count()).toBe(2);
    await page.keyboard.press('Escape');

    const related = page.getByTestId('footer-related');
    expect(await related.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([SITE.SISTER_DRAWING_URL]);

    await page.goto('/main');
    await expect.poll(() => page.getByTestId('intro-go-drawing').getAttribute('href')).toBe(SITE.SISTER_DRAWING_URL);
    expect(await page.getByTestId('intro-go-writing').count()).toBe(0);
    expect(await page.content()).not.toMatch(/duet\.example|\(sample\)|000-0000/);
    await context.close();
  });

  it('shows only the configured contact and company details in the footer', async () => {
    const { context, page } = await open({ locale: 'ko-KR' });
    await page.goto('/');
    const footer = page.getByTestId('site-footer');
    await expect.poll(() => footer.getByTestId('footer-email').locator('a').getAttribute('href')).toBe(`mailto:${SITE.SUPPORT_EMAIL}`);
    const company = footer.getByTestId('footer-company');
    expect(await company.locator('.footer__company').textContent()).toBe(SITE.COMPANY_NAME);
    const details = await company.locator('.footer__detail').evaluateAll((els) => els.map((e) => e.textContent));
    expect(details).toEqual([`사업자등록번호${SITE.COMPANY_BUSINESS_NUMBER}`]);
    expect(await footer.textContent()).toContain(`© ${new Date().getFullYear()} ${SITE.COMPANY_NAME}`);
    expect(await footer.textContent()).not.toMatch(/주소|대표|통신판매업|고객센터 전화/);
    await context.close();
  });

  it('asks the word chain for a word, in both languages', async () => {
    for (const [locale, label, placeholder] of [
      ['en-US', 'Your word', /word/i],
      ['ko-KR', '단어', /단어/],
    ] as const) {
      const { context, page } = await open({ locale });
      await page.goto('/game-ending-word-duet');
      const field = page.getByRole('textbox', { name: label, exact: true });
      await expect.poll(() => field.count()).toBe(1);
      expect(await field.getAttribute('placeholder')).toMatch(placeholder);
      await page.getByTestId('submit').click();
      await expect.poll(() => page.getByRole('alert').allTextContents()).toContainEqual(expect.stringMatching(locale === 'en-US' ? /word/ : /단어/));
      expect((await page.locator('form').textContent()) ?? '').not.toMatch(/question|질문/i);
      await context.close();
    }
  });

  it('says near the fields that harmful content may be removed, in both languages', async () => {
    for (const [locale, path, note] of [
      ['en-US', '/anything-question-duet', 'Sexual or violent content may be removed.'],
      ['ko-KR', '/math-solve-duet1', '선정적이거나 폭력적인 내용은 삭제될 수 있어요.'],
    ] as const) {
      const { context, page } = await open({ locale, viewport: PHONE });
      await page.goto(path);
      const hint = page.getByTestId('content-note');
      await expect.poll(() => hint.textContent()).toBe(note);
      // In the form, right by the button that sends what was typed and uploaded.
      expect(await hint.evaluate((el) => el.closest('form') !== null && el.parentElement?.querySelector('[data-testid="submit"]') !== null)).toBe(true);
      await context.close();
    }
  });

  it('links the leaderboard from the header on every page and from the home page', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await open({ viewport });
      await page.goto('/quiz-solving-duet');
      const link = page.getByTestId('header-leaderboard-link');
      expect(await link.isVisible()).toBe(true);
      // On a phone only the icon shows, but the link keeps its name.
      expect(await page.getByRole('link', { name: 'Leaderboard' }).count()).toBe(1);
      await link.click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/leaderboard');
      await page.goto('/');
      await page.getByTestId('home-leaderboard-link').click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/leaderboard');
      await context.close();
    }
  });

  it('opens a share panel without moving any other card', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await open({ viewport, locale: 'ko-KR' });
      await page.goto('/');
      const cards = page.getByTestId('tool-card');
      await expect.poll(() => cards.count()).toBe(13);
      await page.locator('[data-testid="tool-card"] img').last().scrollIntoViewIfNeeded();
      // Every other card's place and size (the shared card itself lifts a little under the pointer).
      const boxes = () =>
        cards.evaluateAll((els) =>
          els
            .filter((e) => e.getAttribute('data-slug') !== 'quiz-solving')
            .map((e) => e.getBoundingClientRect())
            .map((r) => [r.x, r.y + window.scrollY, r.width, r.height].map(Math.round)),
        );
      const before = await boxes();
      const card = page.locator('[data-slug="quiz-solving"]');
      await card.getByTestId('tool-card-share').click();
      await expect.poll(() => card.getByTestId('share-input').isVisible()).toBe(true);
      expect(await boxes()).toEqual(before);
      // The panel is usable: on top of the card below it, not under it.
      const input = await card.getByTestId('share-input').boundingBox();
      const topmost = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.getAttribute('data-testid'), {
        x: input!.x + input!.width / 2,
        y: input!.y + input!.height / 2,
      });
      expect(topmost).toBe('share-input');
      await context.close();
    }
  });

  it('draws a 0% win rate as an empty bar, with its interval as a thin whisker beside it', async () => {
    const { context, page } = await open();
    await page.goto('/quiz-solving-duet');
    await page.getByRole('textbox', { name: 'Your question', exact: true }).fill('What is 7 times 8?');
    await page.getByTestId('submit').click();
    await expect.poll(() => page.getByTestId('vote-bar').count(), { timeout: 40_000 }).toBe(1);
    await page.getByRole('button', { name: 'B is better' }).click();
    await page.goto('/history/quiz-solving-duet');
    const loser = page.getByTestId('win-rate').filter({ has: page.getByTestId('win-rate-percent').getByText('0%', { exact: true }) });
    await expect.poll(() => loser.count()).toBe(1);
    const geometry = await loser.evaluate((li) => {
      const box = (id: string) => li.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect();
      return { track: box('win-rate-track'), bar: box('win-rate-bar'), whisker: box('win-rate-whisker') };
    });
    // Nothing is painted for the value: the bar is empty.
    expect(geometry.bar.width).toBe(0);
    // The interval (0 to about 80% after one battle) is a thin mark under the bar, not a fill on it.
    expect(geometry.whisker.width).toBeGreaterThan(geometry.track.width / 2);
    expect(geometry.whisker.height).toBeLessThanOrEqual(8);
    expect(geometry.whisker.top).toBeGreaterThanOrEqual(geometry.track.bottom);
    await context.close();
  });

  it('serves a real robots.txt, and a description for search results', async () => {
    const res = await fetch(`${duet.url}/robots.txt`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).not.toContain('<');
    const { context, page } = await open();
    await page.goto('/');
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(/two AI models/);
    await context.close();
  });

  it('loads a tool page’s heavy code only when it is needed', async () => {
    const { context, page } = await open({ viewport: PHONE });
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    // An unknown address is the 404 image at once: no tool page code to find that out.
    await page.goto('/no-such-page', { waitUntil: 'networkidle' });
    await page.getByTestId('not-found').waitFor();
    expect(scripts.filter((s) => /ToolPage|HistoryPage|Markdown/.test(s))).toEqual([]);
    // A tool page draws without the Markdown renderer, and fetches it once the form is used.
    await page.goto('/quiz-solving-duet', { waitUntil: 'networkidle' });
    expect(scripts.some((s) => /ToolPage/.test(s))).toBe(true);
    expect(scripts.some((s) => /Markdown/.test(s))).toBe(false);
    await page.getByRole('textbox', { name: 'Your question', exact: true }).focus();
    await expect.poll(() => scripts.some((s) => /Markdown/.test(s))).toBe(true);
    await context.close();
  });

  it('keeps every route still while it loads: CLS under 0.05 on desktop and phone', async () => {
    const found: Record<string, { cls: number; shifts: Shift[] }> = {};
    for (const [name, viewport, locale, routes] of [
      ['desktop', DESKTOP, 'en-US', ROUTES],
      ['phone', PHONE, 'ko-KR', ROUTES],
    ] as const) {
      for (const path of routes) {
        // A fresh profile each time: nothing cached, as on a first visit.
        const { context, page } = await open({ viewport, locale });
        await page.goto(path, { waitUntil: 'networkidle' });
        await page.locator('#main > *').first().waitFor();
        const shifts = await layoutShifts(page);
        const cls = shifts.reduce((sum, s) => sum + s.value, 0);
        if (cls >= 0.05) found[`${name} ${path}`] = { cls, shifts };
        await context.close();
      }
    }
    expect(found).toEqual({});
  });
});
